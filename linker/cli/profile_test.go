package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProfiles: -cpuprofile and -memprofile write pprof profiles (gzipped
// protocol buffers) and leave the link's output as it is without them.
func TestProfiles(t *testing.T) {
	dir := filepath.Join("..", "..", "tests", "corpus", "cases", "call-chain-three-files")
	want, err := os.ReadFile(filepath.Join(dir, "expected.cubin"))
	if err != nil {
		t.Skipf("corpus case missing: %v", err)
	}
	tmp := t.TempDir()
	out := filepath.Join(tmp, "out.cubin")
	cpu, mem := filepath.Join(tmp, "cpu.prof"), filepath.Join(tmp, "mem.prof")
	status, _, stderr := run("-arch=sm_80", "-o", out, "-cpuprofile", cpu, "--memprofile="+mem,
		filepath.Join(dir, "a.cubin"), filepath.Join(dir, "b.cubin"), filepath.Join(dir, "c.cubin"))
	if status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	if stderr != "" {
		t.Errorf("stderr: %q", stderr)
	}
	got, err := os.ReadFile(out)
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("the output differs from nvlink's (expected.cubin): err %v", err)
	}
	for _, p := range []string{cpu, mem} {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(p), err)
			continue
		}
		if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
			t.Errorf("%s: not a pprof profile (gzip): % x", filepath.Base(p), data[:min(len(data), 4)])
		}
	}

	// A profile that cannot be written stops the link before it starts.
	status, _, stderr = run("-arch=sm_80", "-o", filepath.Join(tmp, "no.cubin"), "-cpuprofile", filepath.Join(tmp, "missing", "cpu.prof"),
		filepath.Join(dir, "a.cubin"), filepath.Join(dir, "b.cubin"), filepath.Join(dir, "c.cubin"))
	if status == 0 || !bytes.Contains([]byte(stderr), []byte("-cpuprofile")) {
		t.Errorf("unwritable -cpuprofile: status %d, stderr %q", status, stderr)
	}
	if _, err := os.Stat(filepath.Join(tmp, "no.cubin")); err == nil {
		t.Errorf("unwritable -cpuprofile: the link ran")
	}
}

// TestTimeToStdout: --time=- writes the table on standard output, as
// nvlink does (measured with nvlink 11.8, 12.4 and 12.5: the header on
// stdout, nothing on stderr), while the -v report stays on standard error.
func TestTimeToStdout(t *testing.T) {
	dir := filepath.Join("..", "..", "tests", "corpus", "cases", "call-chain-three-files")
	if _, err := os.Stat(filepath.Join(dir, "expected.cubin")); err != nil {
		t.Skipf("corpus case missing: %v", err)
	}
	out := filepath.Join(t.TempDir(), "out.cubin")
	status, stdout, stderr := run("-arch=sm_80", "-o", out, "-v", "-time", "-",
		filepath.Join(dir, "a.cubin"), filepath.Join(dir, "b.cubin"), filepath.Join(dir, "c.cubin"))
	if status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	const header = "source file name , phase name , phase input files , phase output file , arch , tool, metric , unit\n"
	if !strings.HasPrefix(stdout, header) {
		t.Errorf("stdout does not start with the --time header:\n%s", stdout)
	}
	if strings.Contains(stderr, "phase name") {
		t.Errorf("the --time table went to stderr:\n%s", stderr)
	}
	if !strings.Contains(stderr, "Function properties for") || strings.Contains(stdout, "Function properties for") {
		t.Errorf("the -v report is not on stderr alone:\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
}

// TestMapToStdout: --map=- prints the link map on standard output, as
// --time=- prints its table, once the link has written its outputs (a
// failed link prints none, as it leaves no map file), while -o - stays
// nvlink's: a file named "-" (nvlink 11.8, 12.4 and 12.5 write one).
func TestMapToStdout(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "tests", "corpus", "cases", "call-chain-three-files"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(dir, "expected.cubin"))
	if err != nil {
		t.Skipf("corpus case missing: %v", err)
	}
	t.Chdir(t.TempDir())
	inputs := []string{filepath.Join(dir, "a.cubin"), filepath.Join(dir, "b.cubin"), filepath.Join(dir, "c.cubin")}
	status, stdout, stderr := run(append([]string{"-arch=sm_80", "-o", "-", "--map=-"}, inputs...)...)
	if status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	if !strings.HasPrefix(stdout, "# cudalink link map: sm_80, 3 inputs, output -\n") || !strings.Contains(stdout, "\n## Sections\n") {
		t.Errorf("stdout is not the link map:\n%.300s", stdout)
	}
	if got, err := os.ReadFile("-"); err != nil || !bytes.Equal(got, want) {
		t.Errorf("-o -: the file named \"-\" is not nvlink's output (err %v)", err)
	}
	if err := os.Remove("-"); err != nil {
		t.Fatal(err)
	}

	// Two architectures: both maps, in -arch order, and no file "-".
	status, stdout, stderr = run(append([]string{"-arch=sm_80", "-arch=sm_86", "--fatbin=out.fatbin", "--map", "-"}, inputs...)...)
	if status != 0 {
		t.Fatalf("two architectures: status %d: %s", status, stderr)
	}
	i80, i86 := strings.Index(stdout, "# cudalink link map: sm_80,"), strings.Index(stdout, "# cudalink link map: sm_86,")
	if i80 != 0 || i86 < 0 {
		t.Errorf("two architectures: the maps on stdout are not sm_80's then sm_86's:\n%.300s", stdout)
	}
	if _, err := os.Stat("-"); err == nil {
		t.Errorf("--map=-: a file named \"-\" was written")
	}

	// A link that fails once the cubin is written prints no map.
	status, stdout, _ = run(append([]string{"-arch=sm_80", "-o", "out.cubin", "--map=-", "--register-link-binaries=missing/reg.h"}, inputs...)...)
	if status == 0 || stdout != "" {
		t.Errorf("failed link: status %d, stdout %.200q; want a failure and nothing on stdout", status, stdout)
	}
	if _, err := os.Stat("out.cubin"); err == nil {
		t.Errorf("failed link: out.cubin left behind")
	}
}
