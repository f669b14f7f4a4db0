package cubin

import (
	"bytes"
	"testing"
)

// TestRelocFieldsRoundTrip writes a value into each relocation type's
// fields and reads it back, and checks that no bit outside the fields moves.
func TestRelocFieldsRoundTrip(t *testing.T) {
	for i, how := range relocHow {
		typ := RelocType(i)
		if len(how.Fields) == 0 {
			continue
		}
		var width uint
		for _, f := range how.Fields {
			width += f.Width
		}
		v := uint64(0x5a5a5a5a5a5a5a5a)
		if width < 64 {
			v &= 1<<width - 1
		}
		v <<= how.Shift
		word := bytes.Repeat([]byte{0xff}, 16)
		how.Insert(word, v, 0x15)
		if got := how.Extract(word); got != v {
			t.Errorf("%v: wrote 0x%x, read 0x%x", typ, v, got)
		}
		// Clearing the fields must leave exactly the other bits set.
		how.Insert(word, 0, 0)
		for bit := uint(0); bit < 128; bit++ {
			inField := false
			for _, f := range append(how.Fields, how.Bank) {
				inField = inField || bit >= f.Pos && bit < f.Pos+f.Width
			}
			set := word[bit/8]>>(bit%8)&1 == 1
			if set == inField {
				t.Errorf("%v: bit %d is %v after clearing (in a field: %v)", typ, bit, set, inField)
				break
			}
		}
	}
}

// TestBitsByBit: getBits and setBits, which move a byte at a time, read
// and write what a bit-by-bit definition does, at every position and
// width of a 16-byte instruction word (widths past 64 included: the bits
// past v's 64th read as dropped and write as zeros).
func TestBitsByBit(t *testing.T) {
	getBit := func(b []byte, bit uint) uint64 { return uint64(b[bit/8] >> (bit % 8) & 1) }
	word := make([]byte, 16)
	for i := range word {
		word[i] = byte(i*37 + 11)
	}
	for pos := uint(0); pos < 128; pos++ {
		for width := uint(0); pos+width <= 128; width++ {
			var want uint64
			for i := uint(0); i < width && i < 64; i++ {
				want |= getBit(word, pos+i) << i
			}
			if got := getBits(word, pos, width); got != want {
				t.Fatalf("getBits(pos %d, width %d) = 0x%x, want 0x%x", pos, width, got, want)
			}
			v := uint64(0xa5c3_96f0_1e2d_3c4b) ^ uint64(pos*width)
			b := bytes.Clone(word)
			setBits(b, pos, width, v)
			for bit := uint(0); bit < 128; bit++ {
				want := getBit(word, bit)
				if bit >= pos && bit < pos+width {
					want = 0
					if i := bit - pos; i < 64 {
						want = v >> i & 1
					}
				}
				if got := getBit(b, bit); got != want {
					t.Fatalf("setBits(pos %d, width %d, 0x%x): bit %d is %d, want %d", pos, width, v, bit, got, want)
				}
			}
		}
	}
}

// TestABS55_16_34 checks the split sm_90 call field against the layout
// nvlink's .nv.rel.action describes: value>>2, low 8 bits at 16, next 47
// bits at 34.
func TestABS55_16_34(t *testing.T) {
	how := HowToRelocate(R_CUDA_ABS55_16_34)
	word := make([]byte, 16)
	how.Insert(word, 0x1234_5678<<2, 0)
	if got := getBits(word, 16, 8); got != 0x78 {
		t.Errorf("low byte at bit 16 = 0x%x, want 0x78", got)
	}
	if got := getBits(word, 34, 47); got != 0x123456 {
		t.Errorf("bits 34..80 = 0x%x, want 0x123456", got)
	}
}

// TestFitsNegativeOffset: OCG constant relocations carry an addend of
// -0x8000 that wraps in a 16-bit field; a value past the field does not fit.
func TestFitsNegativeOffset(t *testing.T) {
	how := HowToRelocate(R_CUDA_CONST_FIELD21_38)
	negative := int64(0xc - 0x8000)
	if !how.Fits(uint64(negative)) {
		t.Error("-0x7ff4 should fit a 16-bit field")
	}
	if how.Fits(0x10000) {
		t.Error("0x10000 should not fit a 16-bit field")
	}
}

func TestNames(t *testing.T) {
	if got := R_CUDA_ABS47_34.String(); got != "R_CUDA_ABS47_34" {
		t.Errorf("R_CUDA_ABS47_34.String() = %q", got)
	}
	if got := RelocType(200).String(); got != "R_CUDA_200" {
		t.Errorf("RelocType(200).String() = %q", got)
	}
	if got := EIATTR_REGCOUNT.String(); got != "EIATTR_REGCOUNT" {
		t.Errorf("EIATTR_REGCOUNT.String() = %q", got)
	}
	if got := Attr(0x56).String(); got != "EIATTR_0x56" {
		t.Errorf("Attr(0x56).String() = %q", got)
	}
}

// TestAttrNamesFollowTheRelease: from 0x41 on, the names are the release's
// (cuobjdump -elf of 11.8, 12.4 and 12.5), not 11.8's for every input.
func TestAttrNamesFollowTheRelease(t *testing.T) {
	for _, c := range []struct {
		a       Attr
		version uint32
		want    string
	}{
		{EIATTR_INSTR_REG_MAP, 118, "EIATTR_INSTR_REG_MAP"},
		{EIATTR_INSTR_REG_MAP, 124, "EIATTR_INSTR_REG_MAP"},
		{0x41, 118, "EIATTR_0x41"},
		{0x41, 124, "EIATTR_RESERVED_SMEM_USED"},
		{0x41, 125, "EIATTR_RESERVED_SMEM_USED"},
		{0x45, 118, "EIATTR_0x45"},
		{0x45, 124, "EIATTR_KPARAM_INFO_V2"},
		{0x50, 124, "EIATTR_SPARSE_MMA_MASK"},
		{0x51, 124, "EIATTR_0x51"},
		{0x51, 125, "EIATTR_TCGEN05_1CTA_USED"},
		{0x53, 125, "EIATTR_GEN_ERRBAR_AT_EXIT"},
		{0x55, 125, "EIATTR_ANNOTATIONS"},
		{0x56, 125, "EIATTR_0x56"},
	} {
		if got := c.a.Name(c.version); got != c.want {
			t.Errorf("Attr(%#x).Name(%d) = %q, want %q", uint8(c.a), c.version, got, c.want)
		}
	}
}
