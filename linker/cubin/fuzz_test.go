package cubin

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse: no input makes Parse panic or allocate beyond what the input
// justifies; whatever it accepts has consistent windows.
func FuzzParse(f *testing.F) {
	paths, _ := filepath.Glob("../../tests/corpus/cases/*/*.cubin")
	for i, p := range paths {
		if i%4 != 0 { // a spread of the corpus keeps the seed set small
			continue
		}
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse("fuzz.cubin", data)
		if err != nil {
			return
		}
		for _, s := range file.Sections {
			if s.Data != nil && uint64(len(s.Data)) != s.Size {
				t.Fatalf("section %d: %d bytes for size %d", s.Index, len(s.Data), s.Size)
			}
		}
		for _, rs := range file.Relocs {
			for r := range rs.All() {
				if r.Sym >= uint32(len(file.Symbols)) {
					t.Fatalf("relocation names symbol %d of %d", r.Sym, len(file.Symbols))
				}
			}
		}
	})
}
