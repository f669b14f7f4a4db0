package linker

import (
	"os"
	"strings"
	"testing"
)

// TestEDGNames checks edgName against cu++filt 11.8 (the demangler nvlink
// uses) on the function names of the corpus inputs, libcudadevrt.a's among
// them, on names of real programs (thrust, cub and libcu++ instances:
// enable_if'd templates, chrono operators, memory resources; lambdas,
// operators, member templates) and on hand-picked manglings of each
// construct (prefix substitutions as types, expressions, packs, decltype,
// literals, thunks): testdata/edgnames.tsv holds each mangled name and
// cu++filt's output, tab-separated.
func TestEDGNames(t *testing.T) {
	data, err := os.ReadFile("testdata/edgnames.tsv")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		mangled, want, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("bad line %q", line)
		}
		n++
		if got := edgName(mangled); got != want {
			t.Errorf("edgName(%q)\n got %q\nwant %q", mangled, got, want)
		}
	}
	if n < 100 {
		t.Fatalf("only %d names", n)
	}
}
