package linker

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestCancelledLinkWritesNothing: a link whose context is cancelled stops
// at a checkpoint, says so, and leaves no output file.
func TestCancelledLinkWritesNothing(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out := filepath.Join(t.TempDir(), "out.cubin")
	cfg := &Config{
		Arch:    80,
		Output:  out,
		Inputs:  []Input{{Path: "../examples/saxpy/kernel.cubin"}, {Path: "../examples/saxpy/math.cubin"}},
		Stdout:  io.Discard,
		Stderr:  io.Discard,
		Context: ctx,
	}
	if err := Run(cfg); !errors.Is(err, errCancelled) {
		t.Fatalf("Run = %v, want errCancelled", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("output exists after a cancelled link: %v", err)
	}
	entries, _ := os.ReadDir(filepath.Dir(out))
	if len(entries) != 0 {
		t.Errorf("cancelled link left %d files", len(entries))
	}

	// The same link, not cancelled, succeeds.
	cfg.Context = context.Background()
	if err := Run(cfg); err != nil {
		t.Fatalf("uncancelled link: %v", err)
	}
}

// TestFailedLinkRemovesItsOutputs: a link that fails after it wrote some
// of its outputs leaves none of them: the cubin of the first of two
// architectures when the second fails (the sm_80 cubins do not fit
// sm_90), and the cubin when --map, --register-link-binaries or --fatbin
// cannot be written. Before, the cubins stayed (out.sm_80.cubin beside a
// failed Bazel action's outputs).
func TestFailedLinkRemovesItsOutputs(t *testing.T) {
	inputs := []Input{{Path: "../examples/saxpy/kernel.cubin"}, {Path: "../examples/saxpy/math.cubin"}}
	for name, set := range map[string]func(cfg *Config, dir string){
		"second architecture fails": func(cfg *Config, dir string) {
			cfg.Archs = []int{80, 90}
			cfg.Fatbin = filepath.Join(dir, "out.fatbin")
		},
		"map not written": func(cfg *Config, dir string) {
			cfg.MapFile = filepath.Join(dir, "missing", "out.map")
		},
		"register-link-binaries not written": func(cfg *Config, dir string) {
			cfg.RegisterLinkBinaries = filepath.Join(dir, "missing", "out.reg.c")
		},
		"fatbin not written": func(cfg *Config, dir string) {
			cfg.Fatbin = filepath.Join(dir, "missing", "out.fatbin")
		},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			cfg := &Config{Arch: 80, Output: filepath.Join(dir, "out.cubin"), Inputs: inputs, Stdout: io.Discard, Stderr: io.Discard}
			set(cfg, dir)
			if err := Run(cfg); !errors.Is(err, ErrFailed) {
				t.Fatalf("Run = %v, want ErrFailed", err)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("the failed link left %v", entries)
			}
		})
	}
}
