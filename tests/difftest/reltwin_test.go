package difftest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRelTwinNames checks, for every ok case, that cudalink's output names
// the same .rel sections in .shstrtab as nvlink's, in the same order. Most
// of them are names only: nvlink names a .rela section's .rel twin when an
// entry other than the first has addend 0, and drops the twin if it stays
// empty, so the normal form does not see them. The cases
// sm90-rel-twin-calls and sm90-rel-twin-constant-reads must have kernels
// with and without a twin.
func TestRelTwinNames(t *testing.T) {
	pinned := map[string]bool{"sm90-rel-twin-calls": false, "sm90-rel-twin-constant-reads": false}
	for _, c := range loadCorpus(t) {
		if c.Expect != "ok" || c.Differs {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			t.Chdir(c.Dir)
			out := filepath.Join(t.TempDir(), "out.cubin")
			if status, _, stderr := link(t, c.Args(c.Inputs, out)); status != 0 {
				t.Fatalf("cudalink: exit status %d:\n%s", status, stderr)
			}
			want := relNames(t, filepath.Join(c.Dir, "expected.cubin"))
			got := relNames(t, out)
			if !slices.Equal(got, want) {
				t.Errorf(".rel names in .shstrtab differ\nnvlink:   %v\ncudalink: %v", want, got)
			}
			if _, ok := pinned[c.Name]; ok {
				// A twin for some .rela.text section but not for all.
				var twins, relas int
				for _, n := range want {
					if strings.HasPrefix(n, ".rel.text.") {
						twins++
					}
					if strings.HasPrefix(n, ".rela.text.") {
						relas++
					}
				}
				pinned[c.Name] = twins > 0 && twins < relas
			}
		})
	}
	for name, ok := range pinned {
		if !ok {
			t.Errorf("case %s missing or without both kinds of .rela.text section", name)
		}
	}
}

// relNames returns the names in a cubin's .shstrtab that start with ".rel",
// in the order they appear.
func relNames(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := NewCubin(data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	sec := f.Section(".shstrtab")
	if sec == nil {
		t.Fatalf("%s: no .shstrtab", path)
	}
	tab, err := sec.Data()
	if err != nil {
		t.Fatalf("%s: .shstrtab: %v", path, err)
	}
	var names []string
	for _, s := range strings.Split(string(tab), "\x00") {
		if strings.HasPrefix(s, ".rel") {
			names = append(names, s)
		}
	}
	return names
}
