package linker

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// FuzzLink runs the whole link on a mutated input next to an intact one:
// every input must give a clean success or a clean failure, never a panic.
func FuzzLink(f *testing.F) {
	for _, p := range []string{
		"../tests/corpus/cases/two-file-cross-calls/a.cubin",
		"../tests/corpus/cases/function-pointers/kernel.cubin",
		"../tests/corpus/cases/shared-in-device-functions/a.cubin",
		"../examples/saxpy/kernel.cubin",
	} {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	intact := "../examples/saxpy/math.cubin"
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		in := filepath.Join(dir, "in.cubin")
		if err := os.WriteFile(in, data, 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "out.cubin")
		err := Run(&Config{Arch: 80, Output: out, Inputs: []Input{{Path: in}, {Path: intact}},
			Stdout: io.Discard, Stderr: io.Discard, Parallelism: 1})
		if _, statErr := os.Stat(out); err != nil && statErr == nil {
			t.Fatalf("failed link (%v) left an output", err)
		}
	})
}
