package cubin

import (
	"errors"
	"os"
	"strings"
	"testing"
)

const sample = "../../examples/saxpy/kernel.cubin"

func TestParseSample(t *testing.T) {
	data, err := os.ReadFile(sample)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse(sample, data)
	if err != nil {
		t.Fatal(err)
	}
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
