package cli

import (
	"os"
	"path/filepath"
	"strings"
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

// TestLTOMissingLibNVVM links the -dlto objects of error-lto-missing-libnvvm
// with the -nvvmpath Debian's nvcc 11.8 passes nvlink (the toolkit's root,
// which holds no lib64/libnvvm.so: nvlink stops with "elfLink linker library
// load error", exit status 1, so nvcc -dlink -dlto fails as written there).
// The message says what to pass, and how to make the directory on Debian.
func TestLTOMissingLibNVVM(t *testing.T) {
	dir := filepath.Join("..", "..", "tests", "corpus", "cases", "error-lto-missing-libnvvm")
	util, kern := filepath.Join(dir, "util.o"), filepath.Join(dir, "kern.o")
	if _, err := os.Stat(util); err != nil {
		t.Fatalf("corpus case missing: %v", err)
	}
	root := t.TempDir() // a toolkit root: no lib64/libnvvm.so in it
	out := filepath.Join(t.TempDir(), "out.cubin")
	status, stdout, stderr := run("-arch=sm_80", "-dlto", "-nvvmpath="+root, util, kern, "-o", out)
	for _, want := range []string{
		"cudalink: error: -dlto needs the CUDA toolkit's libnvvm, which cannot be loaded from " + filepath.Join(root, "lib64", "libnvvm.so"),
		">>> pass -nvvmpath=<CUDA toolkit>/nvvm",
		">>> Debian's nvidia-cuda-toolkit has no such directory",
		"docs/ptx-and-lto.md",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr %q lacks %q", stderr, want)
		}
	}
	if status != 1 || stdout != "" {
		t.Errorf("status %d, stdout %q; want 1 and nothing", status, stdout)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("an output was written")
	}
}

// TestUndefinedNamesNoRDCInput links error-undefined-defined-in-nvcc-c-object
// as each release built it: a.o calls scale, which b.o defines in
// whole-program code (nvcc -c, no -rdc). nvlink only says scale is undefined
// in a.o; cudalink's error also names b.o as skipped, and how to compile it.
func TestUndefinedNamesNoRDCInput(t *testing.T) {
	for _, base := range []string{"", "cuda-12.4", "cuda-12.5"} {
		dir := filepath.Join("..", "..", "tests", "corpus", base, "cases", "error-undefined-defined-in-nvcc-c-object")
		a, b := filepath.Join(dir, "a.o"), filepath.Join(dir, "b.o")
		if _, err := os.Stat(b); err != nil {
			t.Fatalf("corpus case missing: %v", err)
		}
		out := filepath.Join(t.TempDir(), "out.cubin")
		status, stdout, stderr := run("-arch=sm_80", a, b, "-o", out)
		want := "cudalink: error: undefined device symbol: scale(float) (_Z5scalef)\n" +
			">>> referenced by " + a + "\n" +
			">>> note: " + b + " was skipped: it holds no relocatable device code (compiled with nvcc -c, without -rdc?); if it defines this, compile it with nvcc -dc or -rdc=true\n"
		if status != 255 || stdout != "" || stderr != want {
			t.Errorf("%s: status %d, stdout %q, stderr %q; want 255, nothing, %q", dir, status, stdout, stderr, want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: an output was written", dir)
		}
	}
}

// TestDirectoryInput gives a directory as an input, a typo a new user makes
// (the object directory instead of an object in it). nvlink 11.8 stops with
// "Could not open input file '<dir>'", exit status 1, no output; cudalink
// said "cannot read input file: read <dir>: is a directory", the path twice.
func TestDirectoryInput(t *testing.T) {
	dir := filepath.Join("..", "..", "tests", "corpus", "cases", "call-chain-three-files")
	a := filepath.Join(dir, "a.cubin")
	if _, err := os.Stat(a); err != nil {
		t.Fatalf("corpus case missing: %v", err)
	}
	tmp := t.TempDir()
	out := filepath.Join(tmp, "out.cubin")
	status, stdout, stderr := run("-arch=sm_80", a, tmp, "-o", out)
	want := "cudalink: error: cannot open input file: is a directory\n>>> in " + tmp + "\n"
	if status != 1 || stdout != "" || stderr != want {
		t.Errorf("status %d, stdout %q, stderr %q; want 1, nothing, %q", status, stdout, stderr, want)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("an output was written")
	}
}
