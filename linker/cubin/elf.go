// Package cubin reads and describes CUDA device ELF files (cubins): ELF64,
// little-endian, e_machine 190. Parsing is zero-copy: section contents are
// windows into the file's bytes. Every size, offset, count and index read
// from a file is checked before use, so a hostile input gives a *FormatError,
// never a panic or an allocation larger than the input justifies.
package cubin

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"iter"
	"math"
	"slices"
	"strings"
	"sync"
	"unsafe"
)

// ELF constants used by cubins.
const (
	EM_CUDA       = 190
	ELFOSABI_CUDA = 0x33
	ET_REL        = 1
	ET_EXEC       = 2
	// ET_CUDA_EWP (0xff00) is a cubin ptxas writes with -ewp (executable
	// with patches, nvcc -c -ewp): relocatable code nvlink links as it
	// links an ET_REL cubin.
	ET_CUDA_EWP = 0xff00

	SHN_UNDEF     = 0
	SHN_LORESERVE = 0xff00
	SHN_ABS       = 0xfff1
	SHN_COMMON    = 0xfff2
	SHN_XINDEX    = 0xffff

	ehdrSize = 64
	shdrSize = 64
	symSize  = 24
	relSize  = 16
	relaSize = 24
	PhdrSize = 56
)

// Standard section types.
const (
	SHT_NULL         = 0
	SHT_PROGBITS     = 1
	SHT_SYMTAB       = 2
	SHT_STRTAB       = 3
	SHT_RELA         = 4
	SHT_NOBITS       = 8
	SHT_REL          = 9
	SHT_SYMTAB_SHNDX = 18
)

// CUDA section types (SHT_LOPROC range).
const (
	SHT_CUDA_INFO          = 0x70000000
	SHT_CUDA_CALLGRAPH     = 0x70000001
	SHT_CUDA_PROTOTYPE     = 0x70000002
	SHT_CUDA_RESOLVED_RELA = 0x70000003
	SHT_CUDA_METADATA      = 0x70000004
	SHT_CUDA_CONSTANT      = 0x70000006
	SHT_CUDA_GLOBAL        = 0x70000007
	SHT_CUDA_GLOBAL_INIT   = 0x70000008
	SHT_CUDA_LOCAL         = 0x70000009
	SHT_CUDA_SHARED        = 0x7000000a
	SHT_CUDA_RELOCINFO     = 0x7000000b
	SHT_CUDA_CONSTANT_B0   = 0x70000064
	SHT_CUDA_CONSTANT_B17  = 0x70000075
)

// Section flags.
const (
	SHF_WRITE     = 0x1
	SHF_ALLOC     = 0x2
	SHF_EXECINSTR = 0x4
	SHF_INFO_LINK = 0x40
	// Barrier count of a .text section lives in bits 20..27 of sh_flags.
	shfBarrierShift = 20
	shfBarrierMask  = 0xff << shfBarrierShift
)

// Symbol bindings, types and st_other bits.
const (
	STB_LOCAL  = 0
	STB_GLOBAL = 1
	STB_WEAK   = 2

	STT_NOTYPE       = 0
	STT_OBJECT       = 1
	STT_FUNC         = 2
	STT_SECTION      = 3
	STT_FILE         = 4
	STT_CUDA_TEXTURE = 10
	STT_CUDA_SAMPLER = 11
	STT_CUDA_SURFACE = 12
	STT_CUDA_OBJECT  = 13

	STO_CUDA_MANAGED    = 0x04
	STO_CUDA_OBSCURE    = 0x08
	STO_CUDA_ENTRY      = 0x10
	STO_CUDA_GLOBAL     = 0x20
	STO_CUDA_SHARED     = 0x40
	STO_CUDA_LOCAL      = 0x60
	STO_CUDA_CONSTANT   = 0x80
	STO_CUDA_SPACE_MASK = 0xe0
)

// e_flags fields (ABI version 7).
const (
	EF_CUDA_SM_MASK         = 0xff
	EF_CUDA_TEXMODE_UNIFIED = 0x100
	EF_CUDA_64BIT_ADDRESS   = 0x400
	// EF_CUDA_ARCH_SPECIFIC marks CUDA 12's arch-specific code (sm_90a:
	// e_flags 0x5a0d5a); its fatbinary entries carry 0x100000.
	EF_CUDA_ARCH_SPECIFIC = 0x800
	EF_CUDA_VIRTUAL_SHIFT = 16
	EF_CUDA_VIRTUAL_MASK  = 0xff0000
)

// MaxAlign is the largest section alignment accepted. Real cubins use at
// most 128; a larger value in an input is taken as corruption rather than
// honoured with a huge padded output.
const MaxAlign = 1 << 12

// FormatError reports a malformed input: the file, the byte offset where the
// problem was found, and what was wrong.
type FormatError struct {
	File string // the cubin as named on the command line
	Off  uint64 // where in it the problem was found
	Msg  string // what is wrong
}

// Error names the file, the byte offset and what is wrong there.
func (e *FormatError) Error() string {
	return fmt.Sprintf("%s: malformed cubin at offset 0x%x: %s", e.File, e.Off, e.Msg)
}

// Header is the ELF header of a cubin.
type Header struct {
	OSABI      uint8  // EI_OSABI (ELFOSABI_CUDA)
	ABIVersion uint8  // EI_ABIVERSION: the CUDA ABI version
	Type       uint16 // e_type: ET_EXEC, ET_REL or ET_CUDA_EWP
	Machine    uint16 // e_machine: EM_CUDA
	Version    uint32 // e_version: the toolkit's version (see linker/toolkit.go)
	Entry      uint64 // e_entry
	Flags      uint32 // e_flags: the SM, the virtual SM and EF_CUDA_* bits
}

// SM returns the real SM number encoded in e_flags (80 for sm_80).
func (h Header) SM() int { return int(h.Flags & EF_CUDA_SM_MASK) }

// ArchCompatible is the one rule for which machine code a link for
// sm_<target> takes, as nvlink applies it: code compiled for sm_<sm> of the
// same major architecture and an equal or lower minor (sm_80 code for
// sm_86, never sm_86 code for sm_80 nor sm_70 code for sm_80). The
// integrated (Tegra) architectures sm_53, sm_62, sm_72 and sm_87 take
// only their own code and their code goes nowhere else: nvlink refuses
// sm_52 code for sm_53 and sm_72 code for sm_75 (measured with nvlink
// 11.8 over every pair of sm_5x to sm_8x). The linker's check of its
// inputs and the choice among a fatbinary's images both ask it.
func ArchCompatible(sm, target int) bool {
	if sm == target {
		return true
	}
	return sm/10 == target/10 && sm < target && !integrated(sm) && !integrated(target)
}

// integrated reports the Tegra architectures, which share a major
// number with discrete GPUs but not their machine code.
func integrated(sm int) bool {
	switch sm {
	case 53, 62, 72, 87:
		return true
	}
	return false
}

// VirtualSM returns the virtual architecture (compute_XY) encoded in e_flags.
func (h Header) VirtualSM() int {
	return int(h.Flags&EF_CUDA_VIRTUAL_MASK) >> EF_CUDA_VIRTUAL_SHIFT
}

// Section is one section header with a zero-copy window on its contents.
// (A large link has tens of thousands: sh_addr, which no pass reads, and
// sh_offset and sh_entsize, which only messages and partial links read
// (File.Offset, File.Entsize), are not kept, and Parse allocates a file's
// Sections in one slab.)
type Section struct {
	Name string // from .shstrtab
	// Data is the section's bytes in the file; nil for sections without
	// file contents (SHT_NOBITS and the CUDA memory spaces that behave so).
	Data      []byte
	Flags     uint64
	Size      uint64
	Addralign uint64
	Index     uint32 // sh_link and st_shndx are 32 bits wide too
	Type      uint32
	Link      uint32
	Info      uint32
}

// Barriers returns the barrier count stored in a .text section's flags.
func (s *Section) Barriers() int { return int(s.Flags&shfBarrierMask) >> shfBarrierShift }

// HasFileData says whether sections of type t occupy bytes in the file.
func HasFileData(t uint32) bool {
	switch t {
	case SHT_NULL, SHT_NOBITS, SHT_CUDA_GLOBAL, SHT_CUDA_SHARED, SHT_CUDA_LOCAL:
		return false
	}
	return true
}

// Symbol is one .symtab entry, with SHN_XINDEX already resolved.
type Symbol struct {
	Name  string // from the symbol string table
	Info  uint8  // st_info: binding and type (Bind, Type)
	Other uint8  // st_other: visibility and the CUDA bits (STO_CUDA_*)
	// Shndx is the section index; SHN_XINDEX is replaced by the value from
	// .symtab_shndx. Special values (SHN_ABS, SHN_COMMON) are kept.
	Shndx uint32
	Value uint64
	Size  uint64
}

// Bind is the symbol's binding, STB_*.
func (s *Symbol) Bind() uint8 { return s.Info >> 4 }

// Type is the symbol's type, STT_*.
func (s *Symbol) Type() uint8 { return s.Info & 0xf }

// IsEntry says whether the symbol is a kernel.
func (s *Symbol) IsEntry() bool { return s.Other&STO_CUDA_ENTRY != 0 }

// Reloc is one relocation, from a .rel or .rela section, as
// RelocSection.At decodes it.
type Reloc struct {
	// Offset is r_offset. It is 32 bits wide: Parse rejects a relocation
	// beyond 4 GiB into its section, which no cubin has.
	Offset uint32
	Sym    uint32
	Type   RelocType
	Rela   bool // from a .rela section, with Addend explicit
	Addend int64
}

// RelocSection is a .rel/.rela section: the section it patches and its
// entries, which are decoded from the section's bytes as they are read
// (At, All), so that a large link's hundreds of thousands of relocations
// take no memory of their own.
type RelocSection struct {
	Section *Section // the .rel or .rela section itself
	Target  uint32   // section index the relocations apply to
	Rela    bool     // entries carry an explicit addend (.rela)
	// next is the index in File.Relocs of the next relocation section
	// with the same target, or -1.
	next int32
}

// entSize is the size of one entry: 24 bytes with an explicit addend, 16
// without.
func (rs *RelocSection) entSize() int {
	if rs.Rela {
		return relaSize
	}
	return relSize
}

// Len returns the number of entries.
func (rs *RelocSection) Len() int { return len(rs.Section.Data) / rs.entSize() }

// At returns entry i. Parse checked every entry: its symbol index is in
// range and its offset inside the target section.
func (rs *RelocSection) At(i int) Reloc {
	size := rs.entSize()
	b := rs.Section.Data[i*size : (i+1)*size]
	info := le.Uint64(b[8:])
	r := Reloc{Offset: uint32(le.Uint64(b)), Type: RelocType(uint32(info)), Sym: uint32(info >> 32), Rela: rs.Rela}
	if rs.Rela {
		r.Addend = int64(le.Uint64(b[16:]))
	}
	return r
}

// All returns the entries in order.
func (rs *RelocSection) All() iter.Seq[Reloc] {
	return func(yield func(Reloc) bool) {
		for i, n := 0, rs.Len(); i < n; i++ {
			if !yield(rs.At(i)) {
				return
			}
		}
	}
}

// File is a parsed cubin.
type File struct {
	Name     string     // as given to Parse, for messages
	Data     []byte     // the whole file, which sections are windows into
	Header   Header     // the ELF header
	Sections []*Section // in section header order
	Symbols  []Symbol   // index 0 is the null symbol
	// FirstGlobal is .symtab's sh_info: the index of the first non-local symbol.
	FirstGlobal int
	Symtab      *Section
	Relocs      []RelocSection // the .rel and .rela sections, in file order

	// relocFirst[i] is 1 + the index in Relocs of the first relocation
	// section that patches section i, 0 if none (nil when the file has no
	// relocation sections).
	relocFirst []int32

	shoff uint64 // e_shoff, checked: the section headers are in Data
	// offsets holds each section's sh_offset and sh_entsize, in pairs,
	// once DropSectionHeaders has cut the section headers off Data.
	offsets []uint64
	// moved: DropTables moved the sections, which are no longer at
	// their offsets in Data.
	moved bool
}

// Offset returns sh_offset of a section of f, which Section does not keep
// (messages name it), from its header in the file.
func (f *File) Offset(s *Section) uint64 {
	if f.offsets != nil {
		return f.offsets[2*s.Index]
	}
	return le.Uint64(f.Data[f.shoff+uint64(s.Index)*shdrSize+24:])
}

// Entsize returns sh_entsize of a section of f, which Section does not
// keep (only partial links copy it), from its header in the file.
func (f *File) Entsize(s *Section) uint64 {
	if f.offsets != nil {
		return f.offsets[2*s.Index+1]
	}
	return le.Uint64(f.Data[f.shoff+uint64(s.Index)*shdrSize+56:])
}

// DropSectionHeaders cuts the section header table off the end of Data,
// keeping of it what Offset and Entsize return (16 bytes a section instead
// of 64), when the table is the file's last bytes and no section's
// contents lie in or after it, as in every cubin nvcc writes; it returns
// how many bytes it cut, 0 if it cut none. Parse has read everything else
// of the table. The caller may then reuse those bytes: a small one-shot
// link reads its cubins one after the other into one buffer, and each
// file's table is a sixth of a 16 KB cubin.
func (f *File) DropSectionHeaders() int {
	n := uint64(len(f.Sections))
	if f.offsets != nil || f.shoff+n*shdrSize != uint64(len(f.Data)) {
		return 0
	}
	offsets := make([]uint64, 2*n)
	for i, s := range f.Sections {
		off := f.Offset(s)
		if len(s.Data) > 0 && off+uint64(len(s.Data)) > f.shoff {
			return 0
		}
		offsets[2*i], offsets[2*i+1] = off, f.Entsize(s)
	}
	f.offsets = offsets
	f.Data = f.Data[:f.shoff:f.shoff]
	return int(n * shdrSize)
}

// DropTables moves the bytes of every section still in Data but the
// symbol and string tables, which Parse has decoded (the names copied, the
// symbols in Symbols), down to just after the ELF header, one after the
// other (each at its file offset modulo 16), over those tables, the
// padding between sections and the bytes of sections copied out of Data
// since; it cuts Data after them and returns how many bytes it cut, 0 if
// it moved nothing. The tables' sections keep no bytes. It needs
// DropSectionHeaders first (Offset keeps each section's place in the file
// for messages), and moves nothing when two sections share bytes. In a
// 16 KB cubin nvcc writes, .shstrtab, .strtab and .symtab come first (2.7
// KB) and the code's alignment leaves gaps between functions.
func (f *File) DropTables() int {
	const header = 64 // the ELF header, which Data keeps
	if f.offsets == nil || f.moved || len(f.Data) <= header {
		return 0
	}
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(f.Data)))
	in := func(b []byte) bool {
		p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
		return len(b) > 0 && p >= lo+header && p-lo+uintptr(len(b)) <= uintptr(len(f.Data))
	}
	isTable := func(s *Section) bool {
		return s.Type == SHT_SYMTAB || s.Type == SHT_STRTAB || s.Type == SHT_SYMTAB_SHNDX
	}
	// The sections to move, in file order: f.Sections itself when they
	// lie in index order, as nvcc writes them (no list to allocate for
	// each file: a link that reads its cubins into one buffer keeps every
	// allocation to its end), else a sorted list of them.
	kept := f.Sections
	var last uint64
	for _, s := range f.Sections {
		if in(s.Data) && !isTable(s) {
			if off := f.Offset(s); off >= last {
				last = off
				continue
			}
			kept = nil
			break
		}
	}
	if kept == nil {
		for _, s := range f.Sections {
			if in(s.Data) && !isTable(s) {
				kept = append(kept, s)
			}
		}
		slices.SortFunc(kept, func(a, b *Section) int { return cmp.Compare(f.Offset(a), f.Offset(b)) })
	}
	end := uint64(0) // of the last section to move so far
	for _, s := range kept {
		if !in(s.Data) || isTable(s) {
			continue
		}
		if f.Offset(s) < end {
			return 0 // two sections share bytes
		}
		end = f.Offset(s) + uint64(len(s.Data))
	}
	p := uint64(header)
	for _, s := range kept {
		if !in(s.Data) || isTable(s) {
			continue
		}
		off, n := f.Offset(s), uint64(len(s.Data))
		dst := p + (off-p)&15 // <= off: the sections before it end there
		copy(f.Data[dst:dst+n], f.Data[off:off+n])
		s.Data = f.Data[dst : dst+n : dst+n]
		p = dst + n
	}
	for _, s := range f.Sections {
		if isTable(s) && in(s.Data) {
			s.Data = nil
		}
	}
	cut := uint64(len(f.Data)) - p
	f.Data = f.Data[:p:p]
	f.moved = true
	return int(cut)
}

// SectionRelocs returns the relocations that patch section i, from all
// its .rel and .rela sections, in file order.
func (f *File) SectionRelocs(i int) iter.Seq[Reloc] {
	return func(yield func(Reloc) bool) {
		if i < 0 || i >= len(f.relocFirst) {
			return
		}
		for k := f.relocFirst[i] - 1; k >= 0; k = f.Relocs[k].next {
			rs := &f.Relocs[k]
			for j, n := 0, rs.Len(); j < n; j++ {
				if !yield(rs.At(j)) {
					return
				}
			}
		}
	}
}

// RelocSectionOf returns the entry of Relocs that is the relocation
// section s, or nil when s is not one of f's relocation sections. It
// follows the chain of the sections patching s's target, not all of Relocs.
func (f *File) RelocSectionOf(s *Section) *RelocSection {
	i := int(s.Info)
	if i < 0 || i >= len(f.relocFirst) {
		return nil
	}
	for k := f.relocFirst[i] - 1; k >= 0; k = f.Relocs[k].next {
		if f.Relocs[k].Section == s {
			return &f.Relocs[k]
		}
	}
	return nil
}

// HasRelocs says whether any relocation patches section i.
func (f *File) HasRelocs(i int) bool {
	if i < 0 || i >= len(f.relocFirst) {
		return false
	}
	for k := f.relocFirst[i] - 1; k >= 0; k = f.Relocs[k].next {
		if f.Relocs[k].Len() > 0 {
			return true
		}
	}
	return false
}

var le = binary.LittleEndian

// IsCubin says whether data starts like an ELF64 CUDA object.
func IsCubin(data []byte) bool {
	return len(data) >= 20 && string(data[:4]) == "\x7fELF" && data[4] == 2 &&
		le.Uint16(data[18:]) == EM_CUDA
}

// ParseHeader reads only the ELF header of a cubin, for a caller that needs
// no more of the file than that (the release an image was written by).
// name is used in errors only.
func ParseHeader(name string, data []byte) (Header, error) {
	var h Header
	err := parseHeader(&h, data, func(off uint64, format string, args ...any) error {
		return &FormatError{File: name, Off: off, Msg: fmt.Sprintf(format, args...)}
	})
	return h, err
}

// parseHeader checks the ELF identification and machine of data and
// decodes its header into h.
func parseHeader(h *Header, data []byte, bad badFunc) error {
	if len(data) < ehdrSize {
		if len(data) == 0 {
			return bad(0, "empty file")
		}
		return bad(0, "file is %d bytes, shorter than an ELF header", len(data))
	}
	if string(data[:4]) != "\x7fELF" {
		return bad(0, "not an ELF file")
	}
	if data[4] != 2 {
		return bad(4, "ELF class %d is not ELF64", data[4])
	}
	if data[5] != 1 {
		return bad(5, "ELF data encoding %d is not little-endian", data[5])
	}
	h.OSABI = data[7]
	h.ABIVersion = data[8]
	h.Type = le.Uint16(data[16:])
	h.Machine = le.Uint16(data[18:])
	h.Version = le.Uint32(data[20:])
	h.Entry = le.Uint64(data[24:])
	h.Flags = le.Uint32(data[48:])
	if h.Machine != EM_CUDA {
		return bad(18, "e_machine %d is not EM_CUDA (190)", h.Machine)
	}
	return nil
}

// Parse reads a cubin from data. name is used in errors only.
func Parse(name string, data []byte) (*File, error) {
	f := &File{Name: name, Data: data}
	bad := func(off uint64, format string, args ...any) error {
		return &FormatError{File: name, Off: off, Msg: fmt.Sprintf(format, args...)}
	}
	if err := parseHeader(&f.Header, data, bad); err != nil {
		return nil, err
	}
	shoff := le.Uint64(data[40:])
	shentsize := le.Uint16(data[58:])
	shnum := uint64(le.Uint16(data[60:]))
	shstrndx := uint32(le.Uint16(data[62:]))
	if shoff == 0 {
		return nil, bad(40, "no section header table")
	}
	if shentsize != shdrSize {
		return nil, bad(58, "e_shentsize %d, want %d", shentsize, shdrSize)
	}
	if shoff > uint64(len(data)) || uint64(len(data))-shoff < shdrSize {
		return nil, bad(40, "section header table at 0x%x is outside the file (0x%x bytes: truncated? rebuild it)", shoff, len(data))
	}
	// Extended numbering: section 0 holds the real count and string index.
	if shnum == 0 {
		shnum = le.Uint64(data[shoff+32:])
	}
	if shstrndx == SHN_XINDEX {
		shstrndx = le.Uint32(data[shoff+44:])
	}
	if shnum == 0 || shnum > (uint64(len(data))-shoff)/shdrSize {
		return nil, bad(60, "%d section headers do not fit in the file (0x%x bytes: truncated? rebuild it)", shnum, len(data))
	}
	f.Sections = make([]*Section, shnum)
	slab := make([]Section, shnum)
	for i := range f.Sections {
		off := shoff + uint64(i)*shdrSize
		b := data[off : off+shdrSize]
		s := &slab[i]
		*s = Section{
			Index:     uint32(i), // shnum < len(data)/64
			Type:      le.Uint32(b[4:]),
			Flags:     le.Uint64(b[8:]),
			Size:      le.Uint64(b[32:]),
			Link:      le.Uint32(b[40:]),
			Info:      le.Uint32(b[44:]),
			Addralign: le.Uint64(b[48:]),
		}
		if i == 0 && s.Type != SHT_NULL {
			// The null section: no pass looks at its other fields (a
			// large file keeps its section count in sh_size).
			return nil, bad(off+4, "section 0: type 0x%x, want SHT_NULL", s.Type)
		}
		if s.Addralign > MaxAlign || s.Addralign&(s.Addralign-1) != 0 {
			return nil, bad(off+48, "section %d: alignment 0x%x is not a power of two up to 0x%x", i, s.Addralign, MaxAlign)
		}
		if offset := le.Uint64(b[24:]); i > 0 && HasFileData(s.Type) {
			if offset > uint64(len(data)) || s.Size > uint64(len(data))-offset {
				return nil, bad(off+24, "section %d: contents [0x%x, +0x%x) are outside the file (0x%x bytes: truncated? rebuild it)", i, offset, s.Size, len(data))
			}
			s.Data = data[offset : offset+s.Size : offset+s.Size]
		}
		f.Sections[i] = s
	}
	if shstrndx >= uint32(len(f.Sections)) {
		return nil, bad(62, "e_shstrndx %d out of range", shstrndx)
	}
	shstr := f.Sections[shstrndx]
	names := nameTables.Get().(*nameTable)
	defer names.free()
	n := len(f.Sections)
	for _, s := range f.Sections {
		if s.Type == SHT_SYMTAB {
			n += len(s.Data) / symSize
		}
	}
	names.names = slices.Grow(names.names[:0], n)
	for i, s := range f.Sections {
		nameOff := le.Uint32(data[shoff+uint64(i)*shdrSize:])
		name, ok := cstring(shstr.Data, nameOff)
		if !ok {
			return nil, bad(shoff+uint64(i)*shdrSize, "section %d: name offset 0x%x outside .shstrtab", i, nameOff)
		}
		names.add(&s.Name, name, -1)
	}
	for _, s := range f.Sections {
		// .text.f may be the end of .rela.text.f.
		if (s.Type == SHT_REL || s.Type == SHT_RELA) && s.Info < uint32(len(f.Sections)) {
			if t := &names.names[s.Info]; t.in < 0 && len(t.b) < len(names.names[s.Index].b) {
				t.in = int32(s.Index)
			}
		}
	}
	f.shoff = shoff
	if err := f.parseSymbols(bad, names); err != nil {
		return nil, err
	}
	names.set()
	if err := f.parseRelocs(bad); err != nil {
		return nil, err
	}
	return f, nil
}

type badFunc func(off uint64, format string, args ...any) error

func (f *File) parseSymbols(bad badFunc, names *nameTable) error {
	var shndx *Section
	for _, s := range f.Sections {
		switch s.Type {
		case SHT_SYMTAB:
			if f.Symtab != nil {
				return bad(f.Offset(s), "more than one symbol table")
			}
			f.Symtab = s
		case SHT_SYMTAB_SHNDX:
			shndx = s
		}
	}
	if f.Symtab == nil {
		return nil
	}
	st := f.Symtab
	if es := f.Entsize(st); es != symSize {
		return bad(f.Offset(st), ".symtab entry size %d, want %d", es, symSize)
	}
	if st.Link >= uint32(len(f.Sections)) {
		return bad(f.Offset(st), ".symtab links to section %d, out of range", st.Link)
	}
	strtab := f.Sections[st.Link].Data
	n := len(st.Data) / symSize
	if int(st.Info) > n {
		return bad(f.Offset(st), ".symtab sh_info %d exceeds its %d symbols", st.Info, n)
	}
	f.FirstGlobal = int(st.Info)
	if shndx != nil && uint64(len(shndx.Data)) < uint64(n)*4 {
		return bad(f.Offset(shndx), ".symtab_shndx holds fewer than %d entries", n)
	}
	f.Symbols = make([]Symbol, n)
	for i := range f.Symbols {
		b := st.Data[i*symSize:]
		name, ok := cstring(strtab, le.Uint32(b))
		if !ok {
			return bad(f.Offset(st)+uint64(i*symSize), "symbol %d: name offset outside the string table", i)
		}
		sym := Symbol{
			Info:  b[4],
			Other: b[5],
			Shndx: uint32(le.Uint16(b[6:])),
			Value: le.Uint64(b[8:]),
			Size:  le.Uint64(b[16:]),
		}
		if sym.Shndx == SHN_XINDEX && shndx != nil {
			sym.Shndx = le.Uint32(shndx.Data[i*4:])
		}
		if sym.Shndx != SHN_UNDEF && sym.Shndx < SHN_LORESERVE && sym.Shndx >= uint32(len(f.Sections)) ||
			sym.Shndx >= SHN_LORESERVE && sym.Shndx != SHN_ABS && sym.Shndx != SHN_COMMON && shndx == nil && sym.Shndx != SHN_XINDEX {
			if sym.Shndx >= uint32(len(f.Sections)) {
				return bad(f.Offset(st)+uint64(i*symSize)+6, "symbol %d (%s): section index %d out of range", i, name, sym.Shndx)
			}
		}
		if shndx != nil && sym.Shndx >= uint32(len(f.Sections)) && sym.Shndx != SHN_ABS && sym.Shndx != SHN_COMMON {
			return bad(f.Offset(st)+uint64(i*symSize)+6, "symbol %d (%s): section index %d out of range", i, name, sym.Shndx)
		}
		f.Symbols[i] = sym
		in := -1 // f may be the end of .text.f
		if sym.Shndx < uint32(len(f.Sections)) {
			in = int(sym.Shndx)
		}
		names.add(&f.Symbols[i].Name, name, in)
	}
	return nil
}

func (f *File) parseRelocs(bad badFunc) error {
	nrel := 0
	for _, s := range f.Sections {
		if s.Type == SHT_REL || s.Type == SHT_RELA {
			nrel++
		}
	}
	if nrel == 0 {
		return nil
	}
	f.Relocs = make([]RelocSection, 0, nrel)
	f.relocFirst = make([]int32, len(f.Sections))
	for _, s := range f.Sections {
		if s.Type != SHT_REL && s.Type != SHT_RELA {
			continue
		}
		rs := RelocSection{Section: s, Target: s.Info, Rela: s.Type == SHT_RELA, next: -1}
		size := uint64(rs.entSize())
		if es := f.Entsize(s); es != size {
			return bad(f.Offset(s), "%s: entry size %d, want %d", s.Name, es, size)
		}
		if s.Info == 0 || s.Info >= uint32(len(f.Sections)) {
			return bad(f.Offset(s), "%s: target section %d out of range", s.Name, s.Info)
		}
		// The linker names an output relocation section as its inputs'
		// (.rel<target>, .rela<target>); by another name it could take the
		// place of a section the linker makes (.nv.callgraph).
		prefix := ".rel"
		if rs.Rela {
			prefix = ".rela"
		}
		if !strings.HasPrefix(s.Name, prefix) {
			return bad(f.Offset(s), "%s: a relocation section whose name does not start with %s", s.Name, prefix)
		}
		// Every entry is checked now, so that reading one later (At)
		// cannot fail: its symbol, r_info's high word, and its place,
		// r_offset, read where they are rather than through At (a
		// large link has a hundred thousand entries).
		target := f.Sections[s.Info]
		nsym := uint64(len(f.Symbols))
		e := s.Data
		for i, n := 0, rs.Len(); i < n; i, e = i+1, e[size:] {
			if sym := uint64(le.Uint32(e[12:16])); sym >= nsym {
				return bad(f.Offset(s)+uint64(i)*size+8, "%s: relocation %d names symbol %d, out of range", s.Name, i, sym)
			}
			if off := le.Uint64(e[:8]); target.Size < 4 || off > target.Size-4 || off > math.MaxUint32 {
				return bad(f.Offset(s)+uint64(i)*size, "%s: relocation %d at offset 0x%x is outside %s", s.Name, i, off, target.Name)
			}
		}
		// Chain the relocation sections of one target in file order.
		k := int32(len(f.Relocs))
		if f.relocFirst[s.Info] == 0 {
			f.relocFirst[s.Info] = k + 1
		} else {
			last := f.relocFirst[s.Info] - 1
			for f.Relocs[last].next >= 0 {
				last = f.Relocs[last].next
			}
			f.Relocs[last].next = k
		}
		f.Relocs = append(f.Relocs, rs)
	}
	return nil
}

// cstring returns the NUL-terminated string at off in tab, as a window of
// tab.
func cstring(tab []byte, off uint32) ([]byte, bool) {
	if uint64(off) >= uint64(len(tab)) {
		return nil, off == 0
	}
	if n := bytes.IndexByte(tab[off:], 0); n >= 0 {
		return tab[off : int(off)+n : int(off)+n], true
	}
	return nil, false
}

// nameTable collects the section and symbol names of a file as windows of
// its string tables, then makes them strings in one allocation (set),
// where a name ends another sharing its bytes: a cubin names a function's
// code .text.f, its relocations .rel.text.f and .rela.text.f, and its
// symbol f, and gives section symbols their section's name. Sharing halves
// the bytes (and allocations) the names of a large link take.
//
// A nameTable's lists are scratch, reused from file to file (nameTables):
// made per file, they were a third of what parsing allocated (0.3 MB of
// garbage in a 100-object link).
type nameTable struct {
	names []pendingName
	end   []int32 // set's: where each name written out ends
}

// nameTables holds the nameTables of the files parsed so far, for Parse
// to reuse.
var nameTables = sync.Pool{New: func() any { return new(nameTable) }}

// free drops what t points to and returns it to nameTables.
func (t *nameTable) free() {
	clear(t.names)
	t.names = t.names[:0]
	nameTables.Put(t)
}

type pendingName struct {
	b   []byte
	dst *string
	// in is a name that may end with this one (a symbol's section, a
	// section's relocation section), or -1. Names of sections are only in
	// longer ones, so following in always ends.
	in int32
}

// add makes *dst the name b when set is called and returns the name's
// index; in is as in pendingName.
func (t *nameTable) add(dst *string, b []byte, in int) int {
	t.names = append(t.names, pendingName{b, dst, int32(in)})
	return len(t.names) - 1
}

// set stores the names. Whether a name is the end of its in is decided
// once, first (in is -1 where it is not).
func (t *nameTable) set() {
	names := t.names
	size := 0
	for k := range names {
		n := &names[k]
		if n.in >= 0 && !bytes.HasSuffix(names[n.in].b, n.b) {
			n.in = -1
		}
		if n.in < 0 {
			size += len(n.b)
		}
	}
	var sb strings.Builder
	sb.Grow(size)
	end := slices.Grow(t.end[:0], len(names))[:len(names)]
	t.end = end
	for k, n := range names {
		if n.in < 0 {
			sb.Write(n.b)
			end[k] = int32(sb.Len())
		}
	}
	all := sb.String()
	for k, n := range names {
		r := k
		for names[r].in >= 0 {
			r = int(names[r].in) // n ends names[r], which ends ...
		}
		e := int(end[r])
		*n.dst = all[e-len(n.b) : e]
	}
}
