package difftest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestStringTableNames checks, for every ok case, that cudalink's output
// has nvlink's .rel section names in .shstrtab, and nvlink's .rel names and
// prototype strings (#...) in .strtab, in the same order among the other
// names. Neither shows in the normal form: nvlink names a .rela section's
// .rel twin when an entry other than the first has addend 0 and drops the
// twin if it stays empty, and it adds an indirect call site's prototype
// string when it meets the file's .nv.callgraph. The pinned cases must have
// kernels with and without a twin, and prototype strings before the
// .rela.text names.
func TestStringTableNames(t *testing.T) {
	pinned := map[string]bool{"sm90-rel-twin-calls": false, "sm90-rel-twin-constant-reads": false, "indirect-call-prototypes": false}
	relOrProto := func(s string) bool { return strings.HasPrefix(s, ".rel") || strings.HasPrefix(s, "#") }
	for _, c := range loadCorpus(t) {
		if c.Expect != "ok" || c.Differs || c.Virtual() {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			t.Chdir(c.Dir)
			out := filepath.Join(t.TempDir(), "out.cubin")
			if status, _, stderr := link(t, cudalinkArgs(t, c, c.Inputs, out)); status != 0 {
				t.Fatalf("cudalink: exit status %d:\n%s", status, stderr)
			}
			expected := filepath.Join(c.Dir, "expected.cubin")
			if data, err := os.ReadFile(expected); err != nil {
				t.Fatal(err)
			} else if isPTX(data) {
				t.Skip("the output is PTX (-emit-ptx): no string tables; TestCorpus compares it byte for byte")
			}
			for _, tab := range []string{".shstrtab", ".strtab"} {
				want := tableNames(t, expected, tab, relOrProto)
				got := tableNames(t, out, tab, relOrProto)
				if !slices.Equal(got, want) {
					t.Errorf(".rel names and prototypes in %s differ\nnvlink:   %v\ncudalink: %v", tab, want, got)
				}
			}
			if _, ok := pinned[c.Name]; ok {
				var twins, relas, protoFirst int
				for _, n := range tableNames(t, expected, ".strtab", relOrProto) {
					switch {
					case strings.HasPrefix(n, ".rel.text."):
						twins++
					case strings.HasPrefix(n, ".rela.text."):
						relas++
					case strings.HasPrefix(n, "#") && relas == 0:
						protoFirst++
					}
				}
				pinned[c.Name] = twins > 0 && twins < relas || protoFirst > 0
			}
		})
	}
	for name, ok := range pinned {
		if !ok {
			t.Errorf("case %s is missing or shows neither kind of .rela.text section nor a prototype first", name)
		}
	}
}

// tableNames returns the strings of a cubin's string table section that
// keep accepts, in the order they appear.
func tableNames(t *testing.T, path, section string, keep func(string) bool) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := NewCubin(data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	sec := f.Section(section)
	if sec == nil {
		t.Fatalf("%s: no %s", path, section)
	}
	tab, err := sec.Data()
	if err != nil {
		t.Fatalf("%s: %s: %v", path, section, err)
	}
	var names []string
	for _, s := range strings.Split(string(tab), "\x00") {
		if keep(s) {
			names = append(names, s)
		}
	}
	return names
}
