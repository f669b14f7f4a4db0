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

// link runs cudalink from a corpus case directory and returns its stderr.
func link(t *testing.T, caseName string, args ...string) string {
	t.Helper()
	t.Chdir(filepath.Join(cases, caseName))
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

// TestMap: the link map of a three-file link with dead code and merged data.
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
}
