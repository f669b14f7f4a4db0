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
