//go:build unix

package linkworker

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/cudalink/cudalink/linker/worker"
	"github.com/cudalink/cudalink/linker/worker/internal/fakebazel"
)

// TestOutputsFollowUmask: under umask 077 nvlink's outputs, the image and
// the --register-link-binaries file, are -rw-------; so are the CLI's and
// the worker's.
func TestOutputsFollowUmask(t *testing.T) {
	defer syscall.Umask(syscall.Umask(0o077))
	c := loadCase(t, "two-file-cross-calls")
	dir := t.TempDir()
	mode := func(path string) os.FileMode {
		t.Helper()
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Mode().Perm()
	}
	out, reg := filepath.Join(dir, "cli.cubin"), filepath.Join(dir, "cli.reg.c")
	if code, msg, _ := cliLink(append(c.AbsInputs(), "-arch=sm_80", "--register-link-binaries="+reg, "-o", out), out); code != 0 {
		t.Fatalf("CLI link: exit %d\n%s", code, msg)
	}
	for _, p := range []string{out, reg} {
		if m := mode(p); m != 0o600 {
			t.Errorf("CLI: %s has mode %v, want -rw-------", filepath.Base(p), m)
		}
	}
	l := &Linker{}
	cl := serve(t, worker.Proto, l)
	defer cl.close()
	out, reg = filepath.Join(dir, "worker.cubin"), filepath.Join(dir, "worker.reg.c")
	r := cl.do(fakebazel.Request{ID: 1, Args: append(c.AbsInputs(), "-arch=sm_80", "--register-link-binaries="+reg, "-o", out)})[1]
	if r.ExitCode != 0 {
		t.Fatalf("worker link: %v", r)
	}
	for _, p := range []string{out, reg} {
		if m := mode(p); m != 0o600 {
			t.Errorf("worker: %s has mode %v, want -rw-------", filepath.Base(p), m)
		}
	}
}
