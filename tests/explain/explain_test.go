// Package explain tests cudalink's link explanations, --map and
// --why-live, against golden files (go test ./tests/explain -update
// rewrites them after a deliberate change).
package explain

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudalink/cudalink/linker/cli"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// testdata and cases are absolute: the tests change directory into
// corpus cases.
var (
	testdata, _ = filepath.Abs("testdata")
	cases, _    = filepath.Abs(filepath.Join("..", "corpus", "cases"))
	cases124, _ = filepath.Abs(filepath.Join("..", "corpus", "cuda-12.4", "cases"))
)

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join(testdata, name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

// link runs cudalink from a corpus case directory (an 11.8 case's name, or
// a directory's absolute path) and returns its stderr.
func link(t *testing.T, caseName string, args ...string) string {
	t.Helper()
	if !filepath.IsAbs(caseName) {
		caseName = filepath.Join(cases, caseName)
	}
	t.Chdir(caseName)
	var stdout, stderr bytes.Buffer
	if status := cli.Run(args, &stdout, &stderr); status != 0 {
		t.Fatalf("cudalink %s: exit %d\n%s", strings.Join(args, " "), status, stderr.String())
	}
	return stderr.String()
}

// TestWhyLive: the chain of calls that keeps a function, by mangled and by
// demangled name; a removed function; an unknown name.
func TestWhyLive(t *testing.T) {
	out := t.TempDir()
	got := link(t, "call-chain-three-files", "-arch=sm_80", "-o", filepath.Join(out, "x.cubin"),
		"--why-live=_Z6level3PVii", "--why-live", "level2(int *, int)", "--why-live=no_such_function",
		"a.cubin", "b.cubin", "c.cubin")
	golden(t, "why-live-call-chain.txt", []byte(got))

	got = link(t, "dead-device-functions", "-arch=sm_80", "-o", filepath.Join(out, "y.cubin"),
		"--why-live=_Z9dead_leafi", "a.cubin", "b.cubin")
	golden(t, "why-live-dead.txt", []byte(got))
}

// TestWhyLiveNames: the names --why-live takes (plain, without
// parameters, demangled with them, as --dump-callgraph spells them,
// mangled), overloads and template instances (every match), variables
// (global, __constant__, file-static), near misses ("did you mean": a
// typo, a swap, a case slip, a mangled name, a wrong parameter list), and
// the reason for each removal: host-reference pruning, -kernels-used,
// -variables-used alone, unreachable; and -preserve-relocs, which keeps
// what they would remove.
func TestWhyLiveNames(t *testing.T) {
	out := t.TempDir()
	questions := []string{
		"bump", "transform<float>", "T1 transform<int>(T1)", "bump(int *)", "_Z4bumpPf", "ns::f", "f",
		"counter", "coeffs", "secret", "k_unlaunched", "only_unlaunched", "dead_helper",
		"bunp", "tranform<flot>", "no_such_name",
		"bump(double *)", "float transform<float>(int)", "ns::g()", "COUNTER", "secrte", "_Z4bumpPd",
	}
	var args []string
	for _, q := range questions {
		args = append(args, "--why-live="+q)
	}
	for _, tt := range []struct{ golden, flag string }{
		{"why-live-names.txt", ""},
		{"why-live-kernels-used.txt", "-kernels-used=k_main"},
		{"why-live-variables-used.txt", "-variables-used=counter"},
		{"why-live-preserve-relocs.txt", "-preserve-relocs"},
	} {
		cmd := []string{"-arch=sm_80", "-o", filepath.Join(out, "x.cubin")}
		if tt.flag != "" {
			cmd = append(cmd, tt.flag)
		}
		if tt.flag != "" && tt.flag != "-preserve-relocs" {
			cmd = append(cmd, "--why-live=k_unlaunched", "--why-live=k_other", "--why-live=bump(int*)", "--why-live=counter")
		} else {
			cmd = append(cmd, args...)
		}
		got := link(t, "overloads-templates-host-launch", append(cmd, "b.o", "a.o")...)
		golden(t, tt.golden, []byte(got))
	}
}

// TestWhyLiveBank3Rebuild: with 12.x objects whose __constant__ data
// passes 64 KiB, --why-live says which variables nvlink's rebuild of bank
// 3 leaves out in a pruned link (and that -preserve-relocs keeps their
// symbols) and where it places those it keeps.
func TestWhyLiveBank3Rebuild(t *testing.T) {
	out := t.TempDir()
	got := link(t, filepath.Join(cases124, "cuda12-constant-bank3-rebuild-kernels-used-sm80"), "-arch=sm_80", "-kernels-used=ka",
		"-o", filepath.Join(out, "x.cubin"), "--why-live=pad", "--why-live=s7", "--why-live=ydev", "a.cubin", "b.cubin", "p.cubin")
	got += link(t, filepath.Join(cases124, "cuda12-constant-bank3-rebuild-preserve-relocs-sm80"), "-arch=sm_80", "-kernels-used=ka", "-preserve-relocs",
		"-o", filepath.Join(out, "y.cubin"), "--why-live=padq", "b.cubin", "a.cubin")
	golden(t, "why-live-bank3-rebuild.txt", []byte(got))
}

// TestMap: the link map of a three-file link with dead code and merged
// data, and of host objects linked with -kernels-used.
func TestMap(t *testing.T) {
	out := t.TempDir()
	link(t, "multi-file-sm80", "-arch=sm_80", "-o", filepath.Join(out, "x.cubin"),
		"--map="+filepath.Join(out, "x.map"), "a.cubin", "b.cubin", "c.cubin")
	got, err := os.ReadFile(filepath.Join(out, "x.map"))
	if err != nil {
		t.Fatal(err)
	}
	// The map names the output by the path given; make it stable.
	got = bytes.ReplaceAll(got, []byte(filepath.Join(out, "x.cubin")), []byte("OUT/x.cubin"))
	golden(t, "map-multi-file-sm80.txt", got)

	// Host objects with -kernels-used: removed kernels and functions with
	// their reasons, demangled names beside mangled ones.
	link(t, "overloads-templates-host-launch", "-arch=sm_80", "-o", filepath.Join(out, "y.cubin"), "-kernels-used=k_main",
		"--map="+filepath.Join(out, "y.map"), "b.o", "a.o")
	got, err = os.ReadFile(filepath.Join(out, "y.map"))
	if err != nil {
		t.Fatal(err)
	}
	got = bytes.ReplaceAll(got, []byte(filepath.Join(out, "y.cubin")), []byte("OUT/y.cubin"))
	golden(t, "map-kernels-used-host-objects.txt", got)
}

// TestMultiArch: a link for several architectures (--fatbin) answers
// --why-live under a line naming each architecture and writes every
// architecture's map into the one --map file, in -arch order (each was
// written over the one before).
func TestMultiArch(t *testing.T) {
	out := t.TempDir()
	mapFile := filepath.Join(out, "x.map")
	got := link(t, "call-chain-three-files", "-arch=sm_80", "-arch=sm_86", "--fatbin", filepath.Join(out, "x.fatbin"),
		"-o", filepath.Join(out, "x.cubin"), "--map", mapFile, "--why-live=level2", "--why-live=levl3",
		"a.cubin", "b.cubin", "c.cubin")
	m, err := os.ReadFile(mapFile)
	if err != nil {
		t.Fatal(err)
	}
	got += "--- map\n" + strings.ReplaceAll(string(m), out+string(filepath.Separator), "OUT/")
	golden(t, "multi-arch.txt", []byte(got))
}

// TestMapCannotBeWritten: a --map file that cannot be written fails the
// link (exit status 1, the file named) and leaves none of its outputs, for
// one architecture and for several (whose map is written after every
// architecture's link).
func TestMapCannotBeWritten(t *testing.T) {
	t.Chdir(filepath.Join(cases, "call-chain-three-files"))
	for _, multi := range []bool{false, true} {
		out := t.TempDir()
		mapFile := filepath.Join(out, "missing", "x.map")
		args := []string{"-arch=sm_80"}
		if multi {
			args = append(args, "-arch=sm_86", "--fatbin", filepath.Join(out, "x.fatbin"))
		}
		args = append(args, "-o", filepath.Join(out, "x.cubin"), "--map", mapFile, "a.cubin", "b.cubin", "c.cubin")
		var stdout, stderr bytes.Buffer
		status := cli.Run(args, &stdout, &stderr)
		if status != 1 || !strings.Contains(stderr.String(), "cannot write link map") || !strings.Contains(stderr.String(), mapFile) {
			t.Errorf("%v: exit %d, %q; want exit 1 and the map file named", args, status, stderr.String())
		}
		if ents, _ := os.ReadDir(out); len(ents) != 0 {
			t.Errorf("%v: the link left %v", args, ents)
		}
	}
}
