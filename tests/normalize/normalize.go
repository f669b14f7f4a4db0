// Package normalize renders a cubin (CUDA device ELF) in a canonical text
// form for differential testing against NVIDIA's nvlink: two cubins
// normalize to the same text iff they are the same link result up to
// section order, symbol order, file layout and symbol/section indices.
//
// The package is deliberately independent of the linker's own cubin parser
// (a test oracle must not share its bugs): it uses only the standard library,
// debug/elf for the ELF structure, and its own decoding of the CUDA-specific
// contents described in /work/shared/notes/cuda-formats.md.
//
// # Normal form
//
// One fact per line. Top-level lines start in column 0; detail lines that
// belong to the preceding top-level line are indented by two spaces. An
// excerpt (nvlink output for sm_80):
//
//	elf class=ELFCLASS64 data=ELFDATA2LSB type=ET_EXEC machine=190 version=0x76 osabi=0x33 abiversion=7 flags=0x500550 entry=0x0 ehsize=64 phentsize=56 shentsize=64
//	phnum 4
//	phdr 0 type=PHDR flags=RX vaddr=0x0 paddr=0x0 filesz=span memsz=filesz+0x0 align=0x8 covers=[<phdrs>]
//	phdr 1 type=LOAD flags=RX vaddr=0x0 paddr=0x0 filesz=span memsz=filesz+0x0 align=0x8 covers=[.nv.constant0._Z2kaPii .nv.constant3 .text._Z2kaPii .text._Z3fooi]
//	phdr 2 type=LOAD flags=RW vaddr=0x0 paddr=0x0 filesz=span memsz=filesz+0x90 align=0x8 covers=[.nv.global .nv.global.init .nv.shared._Z2kaPii]
//	section .nv.callgraph type=CUDA_CALLGRAPH flags=0x0 addr=0x0 align=4 entsize=8 size=0x68 link=.symtab info=0
//	  addrtaken _Z3bari proto="#ii"
//	  call _Z2kaPii -> _Z3fooi
//	  indirect _Z3fooi proto="#ii"
//	  marker -1
//	section .nv.info type=CUDA_INFO flags=0x0 addr=0x0 align=4 entsize=0 size=0x90 link=.symtab info=0
//	  EIATTR_FRAME_SIZE SVAL size=8 _Z2kaPii 0x8
//	  EIATTR_REGCOUNT SVAL size=8 _Z2kaPii 0x18
//	section .nv.info._Z2kaPii type=CUDA_INFO flags=0x0 addr=0x0 align=4 entsize=0 size=0x50 link=.symtab info=.text._Z2kaPii
//	  EIATTR_EXTERNS SVAL size=4 vprintf
//	  EIATTR_PARAM_CBANK SVAL size=8 section(.nv.constant0._Z2kaPii) 0xc0160
//	section .nv.prototype type=CUDA_PROTOTYPE flags=0x0 addr=0x0 align=4 entsize=8 size=0x10 link=.symtab info=0
//	  vprintf "#ill"
//	section .rel.text._Z2kaPii type=REL flags=0x0 addr=0x0 align=8 entsize=16 size=0x60 link=.symtab info=.text._Z2kaPii
//	  0x00000100 R_CUDA_ABS47_34 _Z3fooi
//	section .rela.text._Z2kaPii type=RELA flags=0x0 addr=0x0 align=8 entsize=24 size=0x60 link=.symtab info=.text._Z2kaPii
//	  0x000000e0 R_CUDA_ABS32_LO_32 _Z2kaPii +0x110
//	section .strtab type=STRTAB flags=0x0 addr=0x0 align=1 entsize=0 link=0 info=0
//	section .text._Z2kaPii type=PROGBITS flags=0x6 bar=1 addr=0x0 align=128 entsize=0 size=0x380 link=.symtab regs=24 sym=_Z2kaPii
//	  0x00000000: 027a0100000a0000 000f000000c40f00 1979030000000000 0021000000220e00
//	symbol _Z2kaPii bind=GLOBAL type=FUNC other=0x10 sec=.text._Z2kaPii value=0x0 size=0x380
//	symbol section(.nv.constant3) bind=LOCAL type=SECTION other=0x0 sec=.nv.constant3 value=0x0 size=0x0
//	symbol vprintf bind=GLOBAL type=FUNC other=0x0 sec=UND value=0x0 size=0x0
//
// Sections are sorted by name (then type); symbols are a sorted multiset
// (the null symbol and unnamed non-section symbols are left out).
// Everything that refers to a section or symbol by index is rendered by name:
// sh_link, sh_info (by meaning: register count and function symbol for
// .text.*, a section for .nv.info.*, .nv.constant*, .nv.shared.*, .rel*),
// symbol st_shndx, relocation symbols, EIATTR payload words that hold symbol
// indices, .nv.callgraph and .nv.prototype entries. A reference to a symbol
// whose name is not unique is disambiguated with its binding, section and
// value ("$str{LOCAL .nv.global.init+0x22}"); a section symbol is rendered as
// "section(<section name>)". The barrier count (sh_flags bits 20-27) of a
// .text section is split off as bar=N.
//
// Section contents are rendered as hex (32 bytes per line, with the offset)
// except for string and symbol tables (represented by the names and symbol
// lines), relocation sections (one line per entry, sorted by offset;
// REL/RELA is in the section's name and type, RELA entries carry the
// addend), .nv.info* (decoded records, sorted: their order is cosmetic),
// .nv.callgraph and .nv.prototype (decoded, sorted). Sections without file
// bytes (NOBITS, .nv.global, .nv.shared.*) only have a size.
//
// Nothing that depends on the file layout is rendered: no file offsets, no
// string-table sizes (they depend on which unreferenced strings are kept),
// and program headers are rendered by the sections they cover, with
// "filesz=span" when p_filesz is the extent of the covered sections rounded
// up to p_align (the raw value depends on the 128-byte alignment of .text in
// the file, hence on everything before it) and memsz relative to filesz.
package normalize

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Normalize renders a cubin in a canonical text form in which two cubins
// compare equal iff they are the same link result up to section order,
// symbol order and symbol/section indices. It never panics on malformed
// input: it returns an error.
func Normalize(data []byte) (out string, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = "", fmt.Errorf("normalize: internal error: panic: %v", r)
		}
	}()
	c, err := parse(data)
	if err != nil {
		return "", fmt.Errorf("normalize: %w", err)
	}
	lines, err := c.render()
	if err != nil {
		return "", fmt.Errorf("normalize: %w", err)
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String(), nil
}

// cubin is a parsed input.
type cubin struct {
	data    []byte // the original bytes
	f       *elf.File
	bo      binary.ByteOrder
	is64    bool
	version uint32 // e_version (debug/elf insists on 1; cubins carry the toolkit version)
	flags   uint32 // e_flags (not exposed by debug/elf)
	phoff   uint64
	phent   uint16
	ehsize  uint16
	shent   uint16
	secs    []*elf.Section
	secName []string // display name per section index
	syms    []symbol // symbol i is syms[i-1] (the null symbol is left out)
	symRef  []string // display name per symbol index (index 0 = the null symbol)
	strtab  []byte   // the string table of .symtab
}

func parse(data []byte) (*cubin, error) {
	if len(data) < 16 || string(data[:4]) != elf.ELFMAG {
		return nil, errors.New("not an ELF file")
	}
	c := &cubin{data: data}
	switch elf.Class(data[elf.EI_CLASS]) {
	case elf.ELFCLASS64:
		c.is64 = true
	case elf.ELFCLASS32:
	default:
		return nil, fmt.Errorf("unknown ELF class %d", data[elf.EI_CLASS])
	}
	switch elf.Data(data[elf.EI_DATA]) {
	case elf.ELFDATA2LSB:
		c.bo = binary.LittleEndian
	case elf.ELFDATA2MSB:
		c.bo = binary.BigEndian
	default:
		return nil, fmt.Errorf("unknown ELF data encoding %d", data[elf.EI_DATA])
	}
	hdrSize := 52
	if c.is64 {
		hdrSize = 64
	}
	if len(data) < hdrSize {
		return nil, fmt.Errorf("truncated ELF header (%d bytes)", len(data))
	}
	c.version = c.bo.Uint32(data[20:])
	if c.is64 {
		c.phoff = c.bo.Uint64(data[32:])
		c.flags = c.bo.Uint32(data[48:])
		c.ehsize = c.bo.Uint16(data[52:])
		c.phent = c.bo.Uint16(data[54:])
		c.shent = c.bo.Uint16(data[58:])
	} else {
		c.phoff = uint64(c.bo.Uint32(data[28:]))
		c.flags = c.bo.Uint32(data[36:])
		c.ehsize = c.bo.Uint16(data[40:])
		c.phent = c.bo.Uint16(data[42:])
		c.shent = c.bo.Uint16(data[46:])
	}
	// debug/elf rejects e_version != EI_VERSION; cubins store the toolkit
	// version (0x76 = 11.8) there. Hand it a copy with the field patched.
	patched := bytes.Clone(data)
	c.bo.PutUint32(patched[20:], uint32(data[elf.EI_VERSION]))
	f, err := elf.NewFile(bytes.NewReader(patched))
	if err != nil {
		return nil, err
	}
	c.f = f
	c.secs = f.Sections
	if len(c.secs) == 0 {
		return nil, errors.New("no section headers")
	}
	c.secName = make([]string, len(c.secs))
	for i, s := range c.secs {
		c.secName[i] = s.Name
	}
	// The symbol table is decoded here rather than with (*elf.File).Symbols:
	// that reads the string table through Section.Data, which for a
	// (malformed) link to a huge NOBITS section allocates without bound.
	if st := f.SectionByType(elf.SHT_SYMTAB); st != nil {
		if int(st.Link) <= 0 || int(st.Link) >= len(c.secs) {
			return nil, fmt.Errorf("symbol table links to bad section %d", st.Link)
		}
		c.strtab, err = c.contents(c.secs[st.Link])
		if err != nil {
			return nil, err
		}
		b, err := c.contents(st)
		if err != nil {
			return nil, err
		}
		if c.syms, err = c.symbols(b); err != nil {
			return nil, err
		}
		// Past 65,279 sections a symbol's st_shndx is SHN_XINDEX and its
		// section index is in .symtab_shndx: render the real section.
		// The table's other words carry no meaning (nvlink leaves
		// arbitrary values there), so the table itself is not printed.
		for _, sx := range c.secs {
			if sx.Type != elf.SHT_SYMTAB_SHNDX || int(sx.Link) >= len(c.secs) || c.secs[sx.Link] != st {
				continue
			}
			words, err := c.contents(sx)
			if err != nil {
				return nil, err
			}
			for i := range c.syms {
				at := 4 * (i + 1) // the null symbol has the first word
				if c.syms[i].Section == elf.SHN_XINDEX && at+4 <= len(words) {
					c.syms[i].Section = elf.SectionIndex(c.bo.Uint32(words[at:]))
				}
			}
		}
	}
	c.symRef = c.symbolRefs()
	return c, nil
}

// symbol is a symbol table entry.
type symbol struct {
	Name        string
	Info, Other uint8
	Section     elf.SectionIndex
	Value, Size uint64
}

// symbols decodes the entries of a symbol table after the null symbol.
func (c *cubin) symbols(b []byte) ([]symbol, error) {
	size := 16
	if c.is64 {
		size = 24
	}
	if len(b)%size != 0 {
		return nil, fmt.Errorf("symbol table size 0x%x is not a multiple of %d", len(b), size)
	}
	var syms []symbol
	for off := size; off < len(b); off += size {
		e := b[off : off+size]
		var s symbol
		var name uint32
		if c.is64 {
			name = c.bo.Uint32(e)
			s.Info, s.Other = e[4], e[5]
			s.Section = elf.SectionIndex(c.bo.Uint16(e[6:]))
			s.Value, s.Size = c.bo.Uint64(e[8:]), c.bo.Uint64(e[16:])
		} else {
			name = c.bo.Uint32(e)
			s.Value, s.Size = uint64(c.bo.Uint32(e[4:])), uint64(c.bo.Uint32(e[8:]))
			s.Info, s.Other = e[12], e[13]
			s.Section = elf.SectionIndex(c.bo.Uint16(e[14:]))
		}
		if int(name) < len(c.strtab) {
			n := c.strtab[name:]
			if i := bytes.IndexByte(n, 0); i >= 0 {
				n = n[:i]
			}
			s.Name = string(n)
		} else {
			s.Name = fmt.Sprintf("<bad name offset %d>", name)
		}
		syms = append(syms, s)
	}
	return syms, nil
}

// contents returns the file bytes of s (nil if it has none).
func (c *cubin) contents(s *elf.Section) ([]byte, error) {
	if noFileBytes(uint32(s.Type)) || s.Type == elf.SHT_NULL {
		return nil, nil
	}
	end := s.Offset + s.FileSize
	if end < s.Offset || end > uint64(len(c.data)) {
		return nil, fmt.Errorf("section %s: bytes [0x%x, +0x%x) outside the file (size 0x%x)", s.Name, s.Offset, s.FileSize, len(c.data))
	}
	return c.data[s.Offset:end], nil
}

// sec renders a section index as the section's name.
func (c *cubin) sec(i uint32) string {
	if i == 0 {
		return "0"
	}
	if int(i) < len(c.secName) {
		return c.secName[i]
	}
	return fmt.Sprintf("<bad section %d>", i)
}

// symShndx renders a symbol's st_shndx.
func (c *cubin) symShndx(i elf.SectionIndex) string {
	switch i {
	case elf.SHN_UNDEF:
		return "UND"
	case elf.SHN_ABS:
		return "ABS"
	case elf.SHN_COMMON:
		return "COMMON"
	}
	if int(i) < len(c.secName) {
		return c.secName[i]
	}
	return fmt.Sprintf("<bad section %d>", uint32(i))
}

// symbolRefs computes how each symbol index is rendered where it is
// referenced.
func (c *cubin) symbolRefs() []string {
	count := map[string]int{}
	for _, s := range c.syms {
		if elf.ST_TYPE(s.Info) != elf.STT_SECTION {
			count[s.Name]++
		}
	}
	refs := make([]string, len(c.syms)+1)
	refs[0] = "<null symbol>"
	for i, s := range c.syms {
		var r string
		switch {
		case elf.ST_TYPE(s.Info) == elf.STT_SECTION:
			r = "section(" + c.symShndx(s.Section) + ")"
		case s.Name == "":
			r = fmt.Sprintf("<unnamed %s %s %s+0x%x>", symBindName(uint8(elf.ST_BIND(s.Info))),
				symTypeName(uint8(elf.ST_TYPE(s.Info))), c.symShndx(s.Section), s.Value)
		case count[s.Name] > 1:
			r = fmt.Sprintf("%s{%s %s+0x%x}", s.Name, symBindName(uint8(elf.ST_BIND(s.Info))), c.symShndx(s.Section), s.Value)
		default:
			r = s.Name
		}
		refs[i+1] = r
	}
	return refs
}

// sym renders a reference to symbol index i.
func (c *cubin) sym(i uint32) string {
	if int(i) < len(c.symRef) {
		return c.symRef[i]
	}
	return fmt.Sprintf("<bad symbol %d>", i)
}

// str returns the NUL-terminated string at offset off of .strtab.
func (c *cubin) str(off uint32) string {
	if int(off) >= len(c.strtab) {
		return fmt.Sprintf("<bad strtab offset %d>", off)
	}
	s := c.strtab[off:]
	if i := bytes.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	return fmt.Sprintf("%q", s)
}

func (c *cubin) render() ([]string, error) {
	var out []string
	f := c.f
	out = append(out, fmt.Sprintf("elf class=%s data=%s type=%s machine=%d version=0x%x osabi=0x%x abiversion=%d flags=0x%x entry=0x%x ehsize=%d phentsize=%d shentsize=%d",
		f.Class, f.Data, elfTypeName(uint16(f.Type)), uint16(f.Machine), c.version, uint8(f.OSABI), f.ABIVersion, c.flags, f.Entry, c.ehsize, c.phent, c.shent))
	out = append(out, fmt.Sprintf("phnum %d", len(f.Progs)))
	for i, p := range f.Progs {
		covers, span := c.covered(p)
		out = append(out, fmt.Sprintf("phdr %d type=%s flags=%s vaddr=0x%x paddr=0x%x filesz=%s memsz=%s align=0x%x covers=[%s]",
			i, progTypeName(uint32(p.Type)), progFlagsName(uint32(p.Flags)), p.Vaddr, p.Paddr,
			fileszString(p, span), memszString(p), p.Align, strings.Join(covers, " ")))
	}

	// Sections, sorted by name then type, then by their rendered block:
	// two sections may share a name and a type (a static function of the
	// same name in two files, a local helper named as another file's weak
	// one), and their order in the file is not part of the link's result.
	type block struct {
		sec   *elf.Section
		lines []string
		text  string
	}
	blocks := make([]block, 0, len(c.secs))
	for i := 1; i < len(c.secs); i++ {
		lines, err := c.renderSection(c.secs[i])
		if err != nil {
			return nil, fmt.Errorf("section %s: %w", c.secs[i].Name, err)
		}
		blocks = append(blocks, block{c.secs[i], lines, strings.Join(lines, "\n")})
	}
	sort.SliceStable(blocks, func(x, y int) bool {
		a, b := blocks[x], blocks[y]
		if a.sec.Name != b.sec.Name {
			return a.sec.Name < b.sec.Name
		}
		if a.sec.Type != b.sec.Type {
			return a.sec.Type < b.sec.Type
		}
		return a.text < b.text
	})
	for _, b := range blocks {
		out = append(out, b.lines...)
	}

	var syms []string
	for _, s := range c.syms {
		typ := elf.ST_TYPE(s.Info)
		name := s.Name
		if typ == elf.STT_SECTION {
			name = "section(" + c.symShndx(s.Section) + ")"
		} else if name == "" {
			continue
		}
		syms = append(syms, fmt.Sprintf("symbol %s bind=%s type=%s other=0x%x sec=%s value=0x%x size=0x%x",
			name, symBindName(uint8(elf.ST_BIND(s.Info))), symTypeName(uint8(typ)), s.Other, c.symShndx(s.Section), s.Value, s.Size))
	}
	sort.Strings(syms)
	out = append(out, syms...)
	return out, nil
}

// covered lists the sections a program header covers, by name, sorted.
// A section with file bytes is covered if its bytes lie within the
// segment's file image; sections without file bytes (allocated NOBITS) are
// covered by a PT_LOAD segment whose memsz exceeds its filesz. "<phdrs>"
// stands for the program header table itself. span is the extent of the
// file image of what is covered: from the start of the first to the end of
// the last covered section or table (0 if nothing with file bytes).
func (c *cubin) covered(p *elf.Prog) (names []string, span uint64) {
	lo, hi := uint64(0), uint64(0)
	add := func(off, size uint64) {
		if hi == 0 || off < lo {
			lo = off
		}
		hi = max(hi, off+size)
	}
	if n := uint64(len(c.f.Progs)) * uint64(c.phent); n > 0 && p.Off == c.phoff && p.Filesz == n {
		names = append(names, "<phdrs>")
		add(c.phoff, n)
	}
	for i, s := range c.secs {
		if i == 0 {
			continue
		}
		if noFileBytes(uint32(s.Type)) {
			if p.Type == elf.PT_LOAD && p.Memsz > p.Filesz && s.Flags&elf.SHF_ALLOC != 0 {
				names = append(names, s.Name)
			}
			continue
		}
		if s.FileSize == 0 {
			continue
		}
		if s.Offset >= p.Off && s.Offset+s.FileSize <= p.Off+p.Filesz && s.Offset+s.FileSize > s.Offset {
			names = append(names, s.Name)
			add(s.Offset, s.FileSize)
		}
	}
	sort.Strings(names)
	return names, hi - lo
}

// fileszString renders p_filesz. The raw value depends on the file layout
// (.text sections are 128-byte aligned in the file, so the padding inside a
// segment depends on the sizes of everything before it, string tables
// included); when p_filesz is the span of the covered sections rounded up to
// p_align it is rendered as "span", else as the raw value with the span.
func fileszString(p *elf.Prog, span uint64) string {
	if p.Filesz == alignUp(span, p.Align) {
		return "span"
	}
	return fmt.Sprintf("0x%x(span=0x%x)", p.Filesz, span)
}

// memszString renders p_memsz relative to p_filesz: the difference is the
// size of the segment's NOBITS part, independent of the file layout.
func memszString(p *elf.Prog) string {
	if p.Memsz >= p.Filesz {
		return fmt.Sprintf("filesz+0x%x", p.Memsz-p.Filesz)
	}
	return fmt.Sprintf("filesz-0x%x", p.Filesz-p.Memsz)
}

func alignUp(v, a uint64) uint64 {
	if a <= 1 || v+a-1 < v {
		return v
	}
	return (v + a - 1) / a * a
}

func (c *cubin) renderSection(s *elf.Section) ([]string, error) {
	typ := uint32(s.Type)
	flags := uint64(s.Flags)
	isText := strings.HasPrefix(s.Name, ".text.")
	var head strings.Builder
	fmt.Fprintf(&head, "section %s type=%s", s.Name, sectionTypeName(typ))
	if isText {
		fmt.Fprintf(&head, " flags=0x%x bar=%d", flags&^(0xff<<20), (flags>>20)&0xff)
	} else {
		fmt.Fprintf(&head, " flags=0x%x", flags)
	}
	fmt.Fprintf(&head, " addr=0x%x align=%d entsize=%d", s.Addr, s.Addralign, s.Entsize)
	if s.Type != elf.SHT_STRTAB {
		// A string table's size depends on which unreferenced strings it
		// keeps; the strings that matter are rendered where they are used.
		fmt.Fprintf(&head, " size=0x%x", s.FileSize)
	}
	fmt.Fprintf(&head, " link=%s", c.sec(s.Link))
	switch {
	case isText:
		fmt.Fprintf(&head, " regs=%d sym=%s", s.Info>>24, c.sym(s.Info&0xffffff))
	case s.Type == elf.SHT_SYMTAB || s.Type == elf.SHT_DYNSYM:
		fmt.Fprintf(&head, " info=%d", s.Info)
	case s.Type == elf.SHT_REL || s.Type == elf.SHT_RELA || typ == shtCUDAResolvedRela ||
		hasAnyPrefix(s.Name, ".nv.info.", ".nv.constant", ".nv.shared.", ".nv.local.", ".rel", ".nv.resolvedrela"):
		fmt.Fprintf(&head, " info=%s", c.sec(s.Info))
	default:
		fmt.Fprintf(&head, " info=%d", s.Info)
	}
	out := []string{head.String()}

	b, err := c.contents(s)
	if err != nil {
		return nil, err
	}
	var detail []string
	switch {
	case noFileBytes(typ) || s.Type == elf.SHT_NULL:
		// size only
	case s.Type == elf.SHT_SYMTAB || s.Type == elf.SHT_STRTAB || s.Type == elf.SHT_SYMTAB_SHNDX:
		// represented by the symbol lines and names
	case s.Type == elf.SHT_REL:
		detail, err = c.relocs(b, false)
	case s.Type == elf.SHT_RELA || typ == shtCUDAResolvedRela:
		detail, err = c.relocs(b, true)
	case typ == shtCUDAInfo:
		detail, err = c.nvinfo(b)
	case typ == shtCUDACallgraph:
		detail, err = c.callgraph(b)
	case typ == shtCUDAPrototype:
		detail, err = c.prototype(b)
	default:
		return append(out, hexLines(b)...), nil
	}
	if err != nil {
		return nil, err
	}
	sort.Strings(detail)
	return append(out, detail...), nil
}

func hasAnyPrefix(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// hexLines renders b as hex, 32 bytes per line in four 8-byte groups,
// each line prefixed with its offset.
func hexLines(b []byte) []string {
	var out []string
	for off := 0; off < len(b); off += 32 {
		end := min(off+32, len(b))
		var l strings.Builder
		fmt.Fprintf(&l, "  0x%08x:", off)
		for g := off; g < end; g += 8 {
			fmt.Fprintf(&l, " %x", b[g:min(g+8, end)])
		}
		out = append(out, l.String())
	}
	return out
}

// relocs decodes a REL or RELA section into one line per entry:
// offset (zero-padded, so that lines sort by offset), type, symbol[, addend].
func (c *cubin) relocs(b []byte, rela bool) ([]string, error) {
	var size int
	switch {
	case c.is64 && rela:
		size = 24
	case c.is64:
		size = 16
	case rela:
		size = 12
	default:
		size = 8
	}
	if len(b)%size != 0 {
		return nil, fmt.Errorf("size 0x%x is not a multiple of the entry size %d", len(b), size)
	}
	var out []string
	for off := 0; off < len(b); off += size {
		e := b[off : off+size]
		var roff uint64
		var sym, typ uint32
		var addend int64
		if c.is64 {
			roff = c.bo.Uint64(e)
			info := c.bo.Uint64(e[8:])
			sym, typ = uint32(info>>32), uint32(info)
			if rela {
				addend = int64(c.bo.Uint64(e[16:]))
			}
		} else {
			roff = uint64(c.bo.Uint32(e))
			info := c.bo.Uint32(e[4:])
			sym, typ = info>>8, info&0xff
			if rela {
				addend = int64(int32(c.bo.Uint32(e[8:])))
			}
		}
		l := fmt.Sprintf("  0x%08x %s %s", roff, relocName(typ), c.sym(sym))
		if rela {
			l += " " + signedHex(addend)
		}
		out = append(out, l)
	}
	return out, nil
}

func signedHex(v int64) string {
	if v < 0 {
		return fmt.Sprintf("-0x%x", -uint64(v))
	}
	return fmt.Sprintf("+0x%x", v)
}

// nvinfo decodes the EIATTR records of a .nv.info or .nv.info.<f> section.
func (c *cubin) nvinfo(b []byte) ([]string, error) {
	var out []string
	for off := 0; off < len(b); {
		if len(b)-off < 4 {
			return nil, fmt.Errorf("truncated record header at 0x%x", off)
		}
		format, attr := b[off], b[off+1]
		name := eiattrName(attr, c.version)
		var l string
		switch format {
		case 1: // NVAL
			l = fmt.Sprintf("  %s NVAL", name)
			if v := c.bo.Uint16(b[off+2:]); v != 0 {
				l += fmt.Sprintf(" 0x%x", v)
			}
			off += 4
		case 2: // BVAL
			l = fmt.Sprintf("  %s BVAL 0x%x", name, b[off+2])
			if b[off+3] != 0 {
				l += fmt.Sprintf(" pad=0x%x", b[off+3])
			}
			off += 4
		case 3: // HVAL
			l = fmt.Sprintf("  %s HVAL 0x%x", name, c.bo.Uint16(b[off+2:]))
			off += 4
		case 4: // SVAL
			n := int(c.bo.Uint16(b[off+2:]))
			if len(b)-off-4 < n {
				return nil, fmt.Errorf("record %s at 0x%x: payload of %d bytes overruns the section", name, off, n)
			}
			l = fmt.Sprintf("  %s SVAL %s", name, c.svalPayload(attr, b[off+4:off+4+n]))
			off += 4 + n
		default:
			return nil, fmt.Errorf("record at 0x%x: unknown format %d (attribute 0x%x)", off, format, attr)
		}
		out = append(out, strings.TrimRight(l, " "))
	}
	return out, nil
}

// svalPayload renders an SVAL payload: u32 words in hex, those that carry
// symbol indices as symbol references, a trailing partial word as bytes.
func (c *cubin) svalPayload(attr uint8, p []byte) string {
	kind := symAttr(attr)
	var parts []string
	i := 0
	for ; i+4 <= len(p); i += 4 {
		w := c.bo.Uint32(p[i:])
		if kind == 2 || (kind == 1 && i == 0) {
			parts = append(parts, c.sym(w))
		} else {
			parts = append(parts, fmt.Sprintf("0x%x", w))
		}
	}
	if kind == 2 {
		// EXTERNS is a set to the driver: its order is cosmetic (nvlink's
		// follows its own walk of the call graph).
		sort.Strings(parts)
	}
	if i < len(p) {
		parts = append(parts, fmt.Sprintf("bytes=%x", p[i:]))
	}
	return fmt.Sprintf("size=%d %s", len(p), strings.Join(parts, " "))
}

// callgraph decodes .nv.callgraph: (u32, u32) pairs grouped by the markers
// (0, -1) call edges, (0, -2) address-taken functions, (0, -3) indirect call
// sites, (0, -4) functions whose address a function takes (CUDA 12: the
// targets of its indirect calls, the kernels it launches). The groups'
// contents are sorted.
func (c *cubin) callgraph(b []byte) ([]string, error) {
	if len(b)%8 != 0 {
		return nil, fmt.Errorf("size 0x%x is not a multiple of 8", len(b))
	}
	var out []string
	group := 0
	for off := 0; off < len(b); off += 8 {
		x, y := c.bo.Uint32(b[off:]), c.bo.Uint32(b[off+4:])
		if x == 0 && y >= 0xfffffffc {
			group = int(int32(y))
			out = append(out, fmt.Sprintf("  marker %d", group))
			continue
		}
		switch group {
		case -1:
			out = append(out, fmt.Sprintf("  call %s -> %s", c.sym(x), c.sym(y)))
		case -2:
			out = append(out, fmt.Sprintf("  addrtaken %s proto=%s", c.sym(x), c.str(y)))
		case -3:
			out = append(out, fmt.Sprintf("  indirect %s proto=%s", c.sym(x), c.str(y)))
		case -4:
			out = append(out, fmt.Sprintf("  addrref %s -> %s", c.sym(x), c.sym(y)))
		default:
			out = append(out, fmt.Sprintf("  group%d 0x%x 0x%x", group, x, y))
		}
	}
	return out, nil
}

// prototype decodes .nv.prototype: (function symbol, .strtab offset) pairs.
func (c *cubin) prototype(b []byte) ([]string, error) {
	if len(b)%8 != 0 {
		return nil, fmt.Errorf("size 0x%x is not a multiple of 8", len(b))
	}
	var out []string
	for off := 0; off < len(b); off += 8 {
		out = append(out, fmt.Sprintf("  %s %s", c.sym(c.bo.Uint32(b[off:])), c.str(c.bo.Uint32(b[off+4:]))))
	}
	return out, nil
}
