package cubin

// Who applies a relocation type: only the linker, only the driver at load
// time, or either (the linker where it knows the value).
const (
	ByLinker = iota + 1
	ByDriver
	ByEither
)

// Field is a run of bits in the patched word: Pos is the first bit (counted
// from bit 0 of the little-endian word at r_offset), Width the length.
type Field struct {
	Pos   uint // the first bit
	Width uint // the number of bits
}

// RelocHow says how a relocation type patches: Shift is applied to the
// value (value >> Shift) before it is split over Fields; Bank, if set, is
// where CONST_FIELD types put the constant bank number; Part picks the
// low (1) or high (2) 32 bits of a 64-bit value, or byte Part-3 for the
// R_CUDA_8_* types.
type RelocHow struct {
	Who    int     // who resolves it: ByLinker, ByDriver or ByEither
	Shift  uint    // the value is shifted right by this much
	Fields []Field // where the shifted value's bits go, low bits first
	Bank   Field   // where a CONST_FIELD type puts the bank number
	Part   int     // 0 all, 1 low or 2 high 32 bits, 3 on byte Part-3 (Select)
}

func f(pos, width uint) []Field { return []Field{{pos, width}} }

// relocHow is the table of relocation types cudalink resolves or passes on,
// indexed by type (Who is 0 for a type not in it). Bit positions were
// confirmed with nvdisasm 11.8 (see shared/notes/cuda-formats.md §3). An
// array, not a map: relocation looks every relocation up in it, and a map
// lookup took 5.7% of a link's CPU samples on the weak-template program
// (docs/benchmarks.md, perf15).
var relocHow = [relocTypes]RelocHow{
	R_CUDA_32:                   {Who: ByEither, Fields: f(0, 32)},
	R_CUDA_64:                   {Who: ByEither, Fields: f(0, 64)},
	R_CUDA_ABS32_26:             {Who: ByEither, Fields: f(26, 32)},
	R_CUDA_ABS32_LO_26:          {Who: ByEither, Fields: f(26, 32), Part: 1},
	R_CUDA_ABS32_HI_26:          {Who: ByEither, Fields: f(26, 32), Part: 2},
	R_CUDA_ABS32_23:             {Who: ByEither, Fields: f(23, 32)},
	R_CUDA_ABS32_LO_23:          {Who: ByEither, Fields: f(23, 32), Part: 1},
	R_CUDA_ABS32_HI_23:          {Who: ByEither, Fields: f(23, 32), Part: 2},
	R_CUDA_ABS24_26:             {Who: ByLinker, Fields: f(26, 24)},
	R_CUDA_ABS24_23:             {Who: ByLinker, Fields: f(23, 24)},
	R_CUDA_ABS16_26:             {Who: ByLinker, Fields: f(26, 16)},
	R_CUDA_ABS16_23:             {Who: ByLinker, Fields: f(23, 16)},
	R_CUDA_CONST_FIELD19_23:     {Who: ByLinker, Shift: 2, Fields: f(23, 14), Bank: Field{37, 5}},
	R_CUDA_CONST_FIELD21_26:     {Who: ByLinker, Fields: f(26, 16), Bank: Field{42, 5}},
	R_CUDA_CONST_FIELD19_26:     {Who: ByLinker, Shift: 2, Fields: f(26, 14), Bank: Field{40, 5}},
	R_CUDA_CONST_FIELD21_23:     {Who: ByLinker, Fields: f(23, 16), Bank: Field{39, 5}},
	R_CUDA_ABS32_20:             {Who: ByEither, Fields: f(20, 32)},
	R_CUDA_ABS32_LO_20:          {Who: ByEither, Fields: f(20, 32), Part: 1},
	R_CUDA_ABS32_HI_20:          {Who: ByEither, Fields: f(20, 32), Part: 2},
	R_CUDA_ABS24_20:             {Who: ByLinker, Fields: f(20, 24)},
	R_CUDA_ABS16_20:             {Who: ByLinker, Fields: f(20, 16)},
	R_CUDA_CONST_FIELD19_20:     {Who: ByLinker, Shift: 2, Fields: f(20, 14), Bank: Field{34, 5}},
	R_CUDA_CONST_FIELD21_20:     {Who: ByLinker, Fields: f(20, 16), Bank: Field{36, 5}},
	R_CUDA_ABS32_32:             {Who: ByEither, Fields: f(32, 32)},
	R_CUDA_ABS32_LO_32:          {Who: ByEither, Fields: f(32, 32), Part: 1},
	R_CUDA_ABS32_HI_32:          {Who: ByEither, Fields: f(32, 32), Part: 2},
	R_CUDA_ABS47_34:             {Who: ByDriver, Shift: 2, Fields: f(34, 47)},
	R_CUDA_ABS16_32:             {Who: ByLinker, Fields: f(32, 16)},
	R_CUDA_ABS24_32:             {Who: ByLinker, Fields: f(32, 24)},
	R_CUDA_CONST_FIELD19_40:     {Who: ByLinker, Shift: 2, Fields: f(40, 14), Bank: Field{54, 5}},
	R_CUDA_CONST_FIELD21_38:     {Who: ByLinker, Fields: f(38, 16), Bank: Field{54, 5}},
	R_CUDA_32_LO:                {Who: ByEither, Fields: f(0, 32), Part: 1},
	R_CUDA_32_HI:                {Who: ByEither, Fields: f(0, 32), Part: 2},
	R_CUDA_UNUSED_CLEAR32:       {Who: ByLinker, Fields: f(0, 32)},
	R_CUDA_UNUSED_CLEAR64:       {Who: ByLinker, Fields: f(0, 64)},
	R_CUDA_YIELD_OPCODE9_0:      {Who: ByLinker, Fields: f(0, 9)},  // the addend, NOP's opcode
	R_CUDA_YIELD_CLEAR_PRED4_87: {Who: ByLinker, Fields: f(87, 4)}, // cleared
	R_CUDA_ABS24_40:             {Who: ByLinker, Fields: f(40, 24)},
	R_CUDA_ABS55_16_34:          {Who: ByDriver, Shift: 2, Fields: []Field{{16, 8}, {34, 47}}},
	R_CUDA_ABS20_44:             {Who: ByLinker, Fields: f(44, 20)},
	R_CUDA_8_0:                  {Who: ByEither, Fields: f(0, 8), Part: 3},
	R_CUDA_8_8:                  {Who: ByEither, Fields: f(0, 8), Part: 4},
	R_CUDA_8_16:                 {Who: ByEither, Fields: f(0, 8), Part: 5},
	R_CUDA_8_24:                 {Who: ByEither, Fields: f(0, 8), Part: 6},
	R_CUDA_8_32:                 {Who: ByEither, Fields: f(0, 8), Part: 7},
	R_CUDA_8_40:                 {Who: ByEither, Fields: f(0, 8), Part: 8},
	R_CUDA_8_48:                 {Who: ByEither, Fields: f(0, 8), Part: 9},
	R_CUDA_8_56:                 {Who: ByEither, Fields: f(0, 8), Part: 10},
	// Bindless texture and surface references: the word offset of the
	// slot nvlink gives the texture in bank 0 (see linker/bindless.go).
	R_CUDA_BINDLESSOFF13_36:     {Who: ByLinker, Shift: 2, Fields: f(36, 13)},
	R_CUDA_BINDLESSOFF14_40:     {Who: ByLinker, Shift: 2, Fields: f(40, 14)},
	R_CUDA_TEX_BINDLESSOFF13_32: {Who: ByLinker, Shift: 2, Fields: f(32, 13)},
	R_CUDA_TEX_BINDLESSOFF13_47: {Who: ByLinker, Shift: 2, Fields: f(47, 13)},
	R_CUDA_TEX_BINDLESSOFF13_41: {Who: ByLinker, Shift: 2, Fields: f(41, 13)},
	R_CUDA_TEX_BINDLESSOFF13_45: {Who: ByLinker, Shift: 2, Fields: f(45, 13)},
}

// HowToRelocate returns how a relocation type patches. Types not in the
// table are applied by the driver and passed through unchanged.
func HowToRelocate(t RelocType) RelocHow {
	if t < relocTypes && relocHow[t].Who != 0 {
		return relocHow[t]
	}
	return RelocHow{Who: ByDriver}
}

// relocTypes bounds the relocation types relocHow can hold.
const relocTypes = 128

// Span is the number of bytes a relocation's fields touch from r_offset.
func (h RelocHow) Span() uint64 {
	var end uint
	for _, fl := range h.Fields {
		end = max(end, fl.Pos+fl.Width)
	}
	if h.Bank.Width > 0 {
		end = max(end, h.Bank.Pos+h.Bank.Width)
	}
	return uint64(end+7) / 8
}

// Extract reads the value the fields hold (the implicit addend of a REL
// relocation), undoing Shift.
func (h RelocHow) Extract(b []byte) uint64 {
	var v uint64
	var at uint
	for _, fl := range h.Fields {
		v |= getBits(b, fl.Pos, fl.Width) << at
		at += fl.Width
	}
	return v << h.Shift
}

// Insert writes value into the fields (after Shift), and bank into the bank
// field if the type has one. Bits of value beyond the fields are dropped.
func (h RelocHow) Insert(b []byte, value uint64, bank uint64) {
	value >>= h.Shift
	for _, fl := range h.Fields {
		setBits(b, fl.Pos, fl.Width, value)
		value >>= fl.Width
	}
	if h.Bank.Width > 0 {
		setBits(b, h.Bank.Pos, h.Bank.Width, bank)
	}
}

// ExtractBank reads the constant bank number of a CONST_FIELD type's
// field; 0 for a type without one.
func (h RelocHow) ExtractBank(b []byte) uint64 {
	if h.Bank.Width == 0 {
		return 0
	}
	return getBits(b, h.Bank.Pos, h.Bank.Width)
}

// Select applies Part to a 64-bit value: the low or high half, or one byte.
func (h RelocHow) Select(v uint64) uint64 {
	switch {
	case h.Part == 1:
		return v & 0xffffffff
	case h.Part == 2:
		return v >> 32
	case h.Part >= 3:
		return (v >> (8 * uint(h.Part-3))) & 0xff
	}
	return v
}

// Fits says whether value, after Shift, fits the fields' total width as an
// unsigned or a two's-complement negative number (OCG constant offsets
// carry an addend of -0x8000 that wraps in a 16-bit field).
func (h RelocHow) Fits(value uint64) bool {
	var width uint
	for _, fl := range h.Fields {
		width += fl.Width
	}
	if width >= 64 {
		return true
	}
	v := int64(value) >> h.Shift
	return v >= -(1<<(width-1)) && v < 1<<width
}

// getBits reads the width bits of b from bit pos (bit 0 is the low bit of
// b[0]), a byte at a time: relocation reads a field for every .rel entry
// and the writer writes every patch, some hundred thousand in a large link.
// Bits past the 64th are dropped.
func getBits(b []byte, pos, width uint) uint64 {
	if pos%8 == 0 && pos/8 < uint(len(b)) {
		// A whole 32- or 64-bit field at a byte (R_CUDA_32, R_CUDA_64:
		// most of a -G link's relocations, in its debug sections) is
		// one load: the loop took 4.7% of a -G 100-object link's
		// instructions (docs/benchmarks.md, perf23).
		switch f := b[pos/8:]; {
		case width == 32 && len(f) >= 4:
			return uint64(le.Uint32(f))
		case width == 64 && len(f) >= 8:
			return le.Uint64(f)
		}
	}
	var v uint64
	for i := uint(0); i < width; {
		bit := pos + i
		shift := bit % 8
		n := min(8-shift, width-i)
		v |= uint64(b[bit/8]>>shift) & (1<<n - 1) << i
		i += n
	}
	return v
}

// setBits writes v into the width bits of b from bit pos, a byte at a time
// (see getBits); bits past v's 64th are cleared.
func setBits(b []byte, pos, width uint, v uint64) {
	if pos%8 == 0 && pos/8 < uint(len(b)) {
		// See getBits. Only the field's own bytes are written.
		switch f := b[pos/8:]; {
		case width == 32 && len(f) >= 4:
			le.PutUint32(f, uint32(v))
			return
		case width == 64 && len(f) >= 8:
			le.PutUint64(f, v)
			return
		}
	}
	for i := uint(0); i < width; {
		bit := pos + i
		shift := bit % 8
		n := min(8-shift, width-i)
		mask := byte((1<<n - 1) << shift)
		b[bit/8] = b[bit/8]&^mask | byte(v>>i)<<shift&mask
		i += n
	}
}
