package linker

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
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
			cfg.Archs = []ArchTarget{{SM: 80}, {SM: 90}}
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

// TestTimeNamesEachPassOnce: the --time table has one row per pass, each
// under a name of its own, so a row says which pass it times (the two
// undefined-reference checks, before and after the call graph, were both
// "check undefined").
func TestTimeNamesEachPassOnce(t *testing.T) {
	var out bytes.Buffer
	cfg := &Config{
		Arch:     80,
		Output:   filepath.Join(t.TempDir(), "out.cubin"),
		Inputs:   []Input{{Path: "../examples/saxpy/kernel.cubin"}, {Path: "../examples/saxpy/math.cubin"}},
		TimeFile: "-",
		Stdout:   &out,
		Stderr:   io.Discard,
	}
	if err := Run(cfg); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) < 2 || lines[0]+"\n" != timeHeader {
		t.Fatalf("--time output does not start with nvlink's header:\n%s", out.String())
	}
	seen := map[string]bool{}
	for _, line := range lines[1:] {
		cols := strings.Split(line, " , ")
		if len(cols) < 2 {
			t.Fatalf("--time row %q has no pass name", line)
		}
		if seen[cols[1]] {
			t.Errorf("--time names two passes %q", cols[1])
		}
		seen[cols[1]] = true
	}
	for _, name := range []string{"undefined (12.x)", "check undefined"} {
		if !seen[name] {
			t.Errorf("--time has no row for %q", name)
		}
	}
}
