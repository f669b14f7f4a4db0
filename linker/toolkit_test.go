package linker

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestParseToolkit: --cuda-version takes the releases cudalink reproduces
// and refuses the others, naming the supported ones.
func TestParseToolkit(t *testing.T) {
	for in, want := range map[string]uint32{"11.8": 118, "12.4": 124, "12.5": 125} {
		if got, err := ParseToolkit(in); err != nil || got != want {
			t.Errorf("ParseToolkit(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "12", "12.3", "12.6", "11.8.1", "x.y", "-12.4", "12.10"} {
		if _, err := ParseToolkit(in); err == nil || !strings.Contains(err.Error(), "11.8 12.4 12.5") {
			t.Errorf("ParseToolkit(%q): err %v, want one naming the supported versions", in, err)
		}
	}
}

// TestToolkitFor: the inputs' newest e_version picks the newest release
// not newer than it; anything older than 11.8 links as 11.8, anything
// newer than 12.5 as 12.5.
func TestToolkitFor(t *testing.T) {
	for v, want := range map[uint32]uint32{0: 118, 0x6e: 118, 0x76: 118, 0x78: 118, 0x7c: 124, 0x7d: 125, 0x80: 125} {
		if got := toolkitFor(v).version; got != want {
			t.Errorf("toolkitFor(0x%x) = %d, want %d", v, got, want)
		}
	}
}

// TestForcedToolkit links the corpus's CUDA 12.4 cubins with --cuda-version:
// 12.5 writes e_version 0x7d (nvlink 12.5 on 12.4 objects, checked byte for
// byte against it), 11.8 refuses them as nvlink 11.8 does ("newer than
// toolkit (124 vs 118)"), naming the file.
func TestForcedToolkit(t *testing.T) {
	dir := "../tests/corpus/cuda-12.4/cases/two-file-cross-calls"
	inputs := []Input{{Path: filepath.Join(dir, "a.cubin")}, {Path: filepath.Join(dir, "b.cubin")}}
	if _, err := os.Stat(inputs[0].Path); err != nil {
		t.Fatalf("corpus case missing: %v (go run ./tests/corpus/regen -cuda 12.4 two-file-cross-calls)", err)
	}
	link := func(version uint32) ([]byte, string, error) {
		var stderr bytes.Buffer
		out := filepath.Join(t.TempDir(), "out.cubin")
		err := Run(&Config{Arch: 80, Output: out, Inputs: inputs, CUDAVersion: version, Stdout: &stderr, Stderr: &stderr})
		data, _ := os.ReadFile(out)
		return data, stderr.String(), err
	}
	data, msgs, err := link(125)
	if err != nil {
		t.Fatalf("--cuda-version=12.5: %v\n%s", err, msgs)
	}
	if v := binary.LittleEndian.Uint32(data[20:]); v != 0x7d {
		t.Errorf("--cuda-version=12.5: e_version 0x%x, want 0x7d", v)
	}
	auto, _, err := link(0)
	if err != nil {
		t.Fatal(err)
	}
	if v := binary.LittleEndian.Uint32(auto[20:]); v != 0x7c {
		t.Errorf("12.4 inputs: e_version 0x%x, want 0x7c (the release the inputs record)", v)
	}
	if want, err := os.ReadFile(filepath.Join(dir, "expected.cubin")); err != nil || !bytes.Equal(auto, want) {
		t.Errorf("12.4 inputs without --cuda-version: not nvlink 12.4's output (%v)", err)
	}
	// The only difference nvlink 12.5 makes for these inputs is its release.
	binary.LittleEndian.PutUint32(data[20:], 0x7c)
	if !bytes.Equal(data, auto) {
		t.Errorf("--cuda-version=12.5 differs from 12.4 in more than e_version")
	}
	if _, msgs, err = link(118); err == nil || !strings.Contains(msgs, "newer than toolkit (124 vs 118)") || !strings.Contains(msgs, "a.cubin") {
		t.Errorf("--cuda-version=11.8 on 12.4 inputs: err %v, messages %q; want nvlink 11.8's refusal naming a.cubin", err, msgs)
	}
}

// TestForcedToolkitStopsAtFirstNewer: nvlink 11.8 stops at the first
// input newer than itself, in command-line order: it names that one only
// (not b.cubin, also 12.4's), and reads nothing after it: the PTX-only
// 11.8 object after it is not compiled, so a ptxas that cannot be found
// is not reported (measured with nvlink 11.8: a 12.4 object before an
// object whose PTX its ptxas refuses gives only "newer than toolkit").
// Before it, the same object's missing ptxas is the error.
func TestForcedToolkitStopsAtFirstNewer(t *testing.T) {
	newer := "../tests/corpus/cuda-12.4/cases/two-file-cross-calls"
	ptx := "../tests/corpus/cases/ptx-only-host-objects/a.o"
	for _, p := range []string{filepath.Join(newer, "a.cubin"), ptx} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("corpus file missing: %v", err)
		}
	}
	link := func(paths ...string) (string, error) {
		var inputs []Input
		for _, p := range paths {
			inputs = append(inputs, Input{Path: p})
		}
		var stderr bytes.Buffer
		out := filepath.Join(t.TempDir(), "out.cubin")
		err := Run(&Config{Arch: 80, Output: out, Inputs: inputs, CUDAVersion: 118, Ptxas: "/no/such/ptxas", Stdout: &stderr, Stderr: &stderr})
		if _, serr := os.Stat(out); serr == nil {
			t.Errorf("%v: the failed link wrote its output", paths)
		}
		return stderr.String(), err
	}
	a, b := filepath.Join(newer, "a.cubin"), filepath.Join(newer, "b.cubin")
	msgs, err := link(a, b, ptx)
	if err == nil || strings.Count(msgs, "newer than toolkit") != 1 || !strings.Contains(msgs, "in "+a) ||
		strings.Contains(msgs, b) || strings.Contains(msgs, "ptxas") {
		t.Errorf("a.cubin b.cubin a.o: err %v, messages %q; want only nvlink 11.8's refusal of a.cubin", err, msgs)
	}
	msgs, err = link(ptx, a)
	if err == nil || !strings.Contains(msgs, "/no/such/ptxas") || strings.Contains(msgs, "newer than toolkit") {
		t.Errorf("a.o a.cubin: err %v, messages %q; want the missing ptxas of a.o, which comes first", err, msgs)
	}
}
