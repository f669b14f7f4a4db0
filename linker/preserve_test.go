package linker

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPreserveRelocsRefusesPrunedKernels: nvlink -preserve-relocs keeps a
// kernel that -kernels-used leaves out as an ordinary function, but lays
// out its own static shared memory as a kernel's, which cudalink does not
// reproduce: it refuses the link, naming the kernel, and writes nothing.
// The same link naming every kernel goes through.
func TestPreserveRelocsRefusesPrunedKernels(t *testing.T) {
	dir := "../tests/corpus/cases/kernels-used-no-match"
	var inputs []Input
	for _, name := range []string{"a.cubin", "b.cubin", "c.cubin"} {
		inputs = append(inputs, Input{Path: filepath.Join(dir, name)})
	}
	out := filepath.Join(t.TempDir(), "out.cubin")
	var stderr bytes.Buffer
	cfg := &Config{Arch: 80, Output: out, Inputs: inputs, PreserveRelocs: true,
		KernelsUsed: []string{"nonexistent"}, Stdout: io.Discard, Stderr: &stderr}
	if err := Run(cfg); !errors.Is(err, ErrFailed) {
		t.Fatalf("Run = %v, want ErrFailed", err)
	}
	if msg := stderr.String(); !strings.Contains(msg, "-preserve-relocs") || !strings.Contains(msg, "(_Z6k_mainPi)") {
		t.Errorf("message does not name the option and the kernel:\n%s", msg)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("output written: %v", err)
	}
	cfg.KernelsUsed, cfg.Stderr = []string{"k_"}, io.Discard
	if err := Run(cfg); err != nil {
		t.Fatalf("every kernel named: %v", err)
	}
}
