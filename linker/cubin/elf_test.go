package cubin

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

const sample = "../../examples/saxpy/kernel.cubin"

// parseSample parses the saxpy sample.
func parseSample(t *testing.T) *File {
	t.Helper()
	data, err := os.ReadFile(sample)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse(sample, data)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestParseSample(t *testing.T) {
	f := parseSample(t)
	if f.Header.Type != ET_REL || f.Header.SM() != 80 || f.Header.VirtualSM() != 80 {
		t.Errorf("header: type %d sm %d virtual %d", f.Header.Type, f.Header.SM(), f.Header.VirtualSM())
	}
	var kernel *Symbol
	for i := range f.Symbols {
		if f.Symbols[i].Name == "_Z5saxpyifPKfPf" {
			kernel = &f.Symbols[i]
		}
	}
	if kernel == nil || !kernel.IsEntry() || kernel.Type() != STT_FUNC {
		t.Fatalf("kernel symbol missing or not an entry: %+v", kernel)
	}
	if s := f.Sections[kernel.Shndx]; s.Name != ".text._Z5saxpyifPKfPf" || len(s.Data) != int(s.Size) {
		t.Errorf("kernel section %q with %d of %d bytes", s.Name, len(s.Data), s.Size)
	}
	if len(f.Relocs) == 0 {
		t.Error("no relocation sections decoded")
	}
}

// TestParseMalformed: every class of damage gives a *FormatError naming the
// file, never a panic.
func TestParseMalformed(t *testing.T) {
	good, err := os.ReadFile(sample)
	if err != nil {
		t.Fatal(err)
	}
	edit := func(f func(b []byte) []byte) []byte { return f(append([]byte(nil), good...)) }
	cases := map[string][]byte{
		"empty":          {},
		"short":          good[:40],
		"not ELF":        []byte(strings.Repeat("not an elf file ", 8)),
		"ELF32":          edit(func(b []byte) []byte { b[4] = 1; return b }),
		"big-endian":     edit(func(b []byte) []byte { b[5] = 2; return b }),
		"x86-64":         edit(func(b []byte) []byte { b[18] = 62; b[19] = 0; return b }),
		"shoff past end": edit(func(b []byte) []byte { le.PutUint64(b[40:], uint64(len(b))); return b }),
		"truncated":      good[:len(good)/2],
		"shstrndx":       edit(func(b []byte) []byte { le.PutUint16(b[62:], 999); return b }),
		"align":          edit(func(b []byte) []byte { le.PutUint64(b[le.Uint64(b[40:])+64*5+48:], 3); return b }),
	}
	for name, data := range cases {
		_, err := Parse("bad.cubin", data)
		var fe *FormatError
		if !errors.As(err, &fe) || fe.File != "bad.cubin" {
			t.Errorf("%s: got %v, want a FormatError naming bad.cubin", name, err)
		}
	}
}

// TestTruncatedSaysSize: a cubin cut short (a build stopped while writing
// it) says the file's size and that it may be truncated, wherever the cut
// falls: before the section header table or inside it.
func TestTruncatedSaysSize(t *testing.T) {
	good, err := os.ReadFile(sample)
	if err != nil {
		t.Fatal(err)
	}
	shoff := le.Uint64(good[40:])
	for _, n := range []uint64{0x100, shoff + 100} {
		_, err := Parse("bad.cubin", good[:n])
		if want := fmt.Sprintf("the file (0x%x bytes: truncated? rebuild it)", n); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("cut at 0x%x: got %v, want it to contain %q", n, err, want)
		}
	}
}

// TestParseHeader: the header alone reads as Parse reads it, from the
// header's bytes only, and a damaged identification is a *FormatError.
func TestParseHeader(t *testing.T) {
	f := parseSample(t)
	h, err := ParseHeader(sample, f.Data[:ehdrSize])
	if err != nil || h != f.Header {
		t.Errorf("ParseHeader: %+v, %v; Parse: %+v", h, err, f.Header)
	}
	if h.Version == 0 {
		t.Error("the sample's e_version reads 0")
	}
	for name, data := range map[string][]byte{"empty": {}, "short": f.Data[:ehdrSize-1], "not ELF": []byte(strings.Repeat("x", ehdrSize))} {
		var fe *FormatError
		if _, err := ParseHeader("bad.cubin", data); !errors.As(err, &fe) || fe.File != "bad.cubin" {
			t.Errorf("%s: got %v, want a FormatError naming bad.cubin", name, err)
		}
	}
}

// TestSectionRelocs: a section's relocations are those of every .rel and
// .rela section that targets it, in file order, and HasRelocs agrees. The
// sample has sections patched by both a .rel and a .rela section, which
// SectionRelocs follows through its chain.
func TestSectionRelocs(t *testing.T) {
	f := parseSample(t)
	both := 0
	for i := range f.Sections {
		var want []Reloc
		sections := 0
		for k := range f.Relocs {
			if rs := &f.Relocs[k]; int(rs.Target) == i {
				sections++
				for j := 0; j < rs.Len(); j++ {
					want = append(want, rs.At(j))
				}
			}
		}
		if sections == 2 {
			both++
		}
		var got []Reloc
		for r := range f.SectionRelocs(i) {
			got = append(got, r)
		}
		if !slices.Equal(got, want) {
			t.Errorf("section %d (%s): SectionRelocs gives %v, want %v", i, f.Sections[i].Name, got, want)
		}
		if f.HasRelocs(i) != (len(want) > 0) {
			t.Errorf("section %d (%s): HasRelocs = %v with %d relocations", i, f.Sections[i].Name, f.HasRelocs(i), len(want))
		}
	}
	if both == 0 {
		t.Error("no section of the sample is patched by both a .rel and a .rela section")
	}
	if f.HasRelocs(-1) || f.HasRelocs(len(f.Sections)) {
		t.Error("HasRelocs of an index out of range")
	}
}

// TestRelocSectionOf: each relocation section of the sample finds its own
// entry of Relocs, including the second section of a chain (a target
// patched by both a .rel and a .rela section); other sections find none.
func TestRelocSectionOf(t *testing.T) {
	f := parseSample(t)
	found := 0
	for _, s := range f.Sections {
		rs := f.RelocSectionOf(s)
		if s.Type != SHT_REL && s.Type != SHT_RELA {
			if rs != nil {
				t.Errorf("%s: RelocSectionOf gives %s, want none", s.Name, rs.Section.Name)
			}
			continue
		}
		if rs == nil || rs.Section != s || rs.Target != s.Info || rs.Rela != (s.Type == SHT_RELA) {
			t.Errorf("%s: RelocSectionOf gives %+v", s.Name, rs)
			continue
		}
		found++
	}
	if found != len(f.Relocs) || found < 2 {
		t.Errorf("found %d relocation sections of %d", found, len(f.Relocs))
	}
}

// TestDropSectionHeaders: cutting the section header table off the saxpy
// sample leaves every section's bytes, offset and entry size as they were
// and Data ending where the table began; the bytes after it may then be
// overwritten (as a small link's next input is read over them) without
// changing what the file returns. A second call cuts nothing.
func TestDropSectionHeaders(t *testing.T) {
	f := parseSample(t)
	type sec struct {
		data         []byte
		off, entsize uint64
	}
	var before []sec
	for _, s := range f.Sections {
		before = append(before, sec{slices.Clone(s.Data), f.Offset(s), f.Entsize(s)})
	}
	orig := f.Data
	size := len(orig)
	n := f.DropSectionHeaders()
	if want := len(f.Sections) * 64; n != want || len(f.Data) != size-n || cap(f.Data) != len(f.Data) {
		t.Fatalf("DropSectionHeaders = %d, Data %d of %d bytes (cap %d); want %d cut", n, len(f.Data), size, cap(f.Data), want)
	}
	table := orig[len(f.Data):]
	for i := range table {
		table[i] = 0xa5
	}
	for i, s := range f.Sections {
		if b := before[i]; !slices.Equal(s.Data, b.data) || f.Offset(s) != b.off || f.Entsize(s) != b.entsize {
			t.Errorf("section %d (%s): offset %d entsize %d, %d bytes; before %d, %d, %d bytes", i, s.Name, f.Offset(s), f.Entsize(s), len(s.Data), b.off, b.entsize, len(b.data))
		}
	}
	if n := f.DropSectionHeaders(); n != 0 {
		t.Errorf("second DropSectionHeaders = %d, want 0", n)
	}
}

// TestDropTables: with the section headers cut, moving the saxpy sample's
// sections down over its symbol and string tables leaves every other
// section's bytes and every relocation as they were, the tables without
// bytes, and nothing read from the bytes cut (overwritten here).
func TestDropTables(t *testing.T) {
	f := parseSample(t)
	type sec struct {
		data []byte
		off  uint64
	}
	var before []sec
	for _, s := range f.Sections {
		before = append(before, sec{slices.Clone(s.Data), f.Offset(s)})
	}
	var relocs []Reloc
	for i := range f.Relocs {
		relocs = slices.AppendSeq(relocs, f.Relocs[i].All())
	}
	orig := f.Data
	f.DropSectionHeaders()
	size := len(f.Data)
	n := f.DropTables()
	if n <= 0 || len(f.Data) != size-n || cap(f.Data) != len(f.Data) {
		t.Fatalf("DropTables = %d, Data %d of %d bytes (cap %d)", n, len(f.Data), size, cap(f.Data))
	}
	for i := range orig[len(f.Data):] {
		orig[len(f.Data)+i] = 0xa5
	}
	for i, s := range f.Sections {
		table := s.Type == SHT_SYMTAB || s.Type == SHT_STRTAB || s.Type == SHT_SYMTAB_SHNDX
		b := before[i]
		switch {
		case table && s.Data != nil:
			t.Errorf("section %d (%s): a table keeps %d bytes", i, s.Name, len(s.Data))
		case !table && (!slices.Equal(s.Data, b.data) || f.Offset(s) != b.off):
			t.Errorf("section %d (%s): offset %d, %d bytes changed; before %d, %d bytes", i, s.Name, f.Offset(s), len(s.Data), b.off, len(b.data))
		}
	}
	var after []Reloc
	for i := range f.Relocs {
		after = slices.AppendSeq(after, f.Relocs[i].All())
	}
	if len(relocs) == 0 || !slices.Equal(after, relocs) {
		t.Errorf("relocations: %d after, %d before (or changed)", len(after), len(relocs))
	}
	if n := f.DropTables(); n != 0 {
		t.Errorf("second DropTables = %d, want 0", n)
	}
}
