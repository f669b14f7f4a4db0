package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// TestEmptyInputArgument: an empty argument among the inputs (a build
// script's unset variable, `nvlink ... "$EXTRA"`) is an input that cannot be
// opened. nvlink 11.8, 12.4 and 12.5 stop there ("Could not open input file"
// with the empty name quoted), exit status 1, no output, whether it comes
// before, between or after real objects (checked with the cubins below and
// with nvcc -dc host objects); cudalink linked the others and exited 0.
func TestEmptyInputArgument(t *testing.T) {
	dir := filepath.Join("..", "..", "tests", "corpus", "cases", "call-chain-three-files")
	a, b, c := filepath.Join(dir, "a.cubin"), filepath.Join(dir, "b.cubin"), filepath.Join(dir, "c.cubin")
	if _, err := os.Stat(a); err != nil {
		t.Fatalf("corpus case missing: %v", err)
	}
	tmp := t.TempDir()
	for _, inputs := range [][]string{{"", a, b, c}, {a, b, "", c}, {a, b, c, ""}} {
		out := filepath.Join(tmp, "out.cubin")
		status, stdout, stderr := run(append([]string{"-arch=sm_80", "-o", out}, inputs...)...)
		want := "cudalink: error: cannot open input file: the name is empty\n>>> in ''\n"
		if status != 1 || stdout != "" || stderr != want {
			t.Errorf("inputs %q: status %d, stdout %q, stderr %q; want 1, nothing, %q", inputs, status, stdout, stderr, want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("inputs %q: an output was written", inputs)
			os.Remove(out)
		}
	}
}
