package difftest

import (
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/cudalink/cudalink/linker/cli"
)

// TestNoReleaseEmptyCubin links a g++ object alone, which records no CUDA
// release: cudalink writes nvlink 11.8's empty cubin by default, and with
// --cuda-version=12.4 or 12.5 that nvlink's, byte for byte (checked against
// the real nvlink 12.x where /opt/cuda-<v> has it). nvlink 12.4 and 12.5
// write the same 872 bytes but for e_version (0x7c, 0x7d); 11.8's is
// another cubin (1,072 bytes, its 224-byte .nv.rel.action).
func TestNoReleaseEmptyCubin(t *testing.T) {
	dir := filepath.Join(corpusDir, "no-device-code-host-object-only-sm52")
	want118, err := os.ReadFile(filepath.Join(dir, "expected.cubin"))
	if err != nil {
		t.Fatal(err)
	}
	link := func(extra ...string) []byte {
		t.Helper()
		out := filepath.Join(t.TempDir(), "out.cubin")
		var stdout, stderr bytes.Buffer
		args := append([]string{"-arch=sm_52"}, extra...)
		args = append(args, filepath.Join(dir, "main.o"), "-o", out)
		if st := cli.Run(args, &stdout, &stderr); st != 0 || stdout.Len()+stderr.Len() != 0 {
			t.Fatalf("cudalink %v: exit %d, %s%s", args, st, stdout.String(), stderr.String())
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if got := link(); !bytes.Equal(got, want118) {
		t.Errorf("default: %d bytes, not nvlink 11.8's %d", len(got), len(want118))
	}
	if got := link("--cuda-version=11.8"); !bytes.Equal(got, want118) {
		t.Errorf("--cuda-version=11.8: %d bytes, not nvlink 11.8's %d", len(got), len(want118))
	}
	got := map[string][]byte{}
	for _, v := range []string{"12.4", "12.5"} {
		got[v] = link("--cuda-version=" + v)
		if bytes.Equal(got[v], want118) {
			t.Errorf("--cuda-version=%s gives 11.8's cubin", v)
		}
		if ev := binary.LittleEndian.Uint32(got[v][0x14:]); ev != map[string]uint32{"12.4": 0x7c, "12.5": 0x7d}[v] {
			t.Errorf("--cuda-version=%s: e_version %#x", v, ev)
		}
		nvlink := filepath.Join("/opt/cuda-"+v, "usr/bin/nvlink")
		if _, err := os.Stat(nvlink); err != nil {
			t.Logf("SKIP: no nvlink %s (%v): cudalink's cubin not compared with it", v, err)
			continue
		}
		out := filepath.Join(t.TempDir(), "nv.cubin")
		cmd := exec.Command(nvlink, "-arch=sm_52", filepath.Join(dir, "main.o"), "-o", out)
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("nvlink %s: %v\n%s", v, err, msg)
		}
		want, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got[v], want) {
			t.Errorf("--cuda-version=%s: %d bytes, not nvlink %s's %d", v, len(got[v]), v, len(want))
		}
	}
	a, b := got["12.4"], got["12.5"]
	if len(a) != len(b) {
		t.Fatalf("12.4's empty cubin is %d bytes, 12.5's %d", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] && (i < 0x14 || i >= 0x18) {
			t.Errorf("12.4's and 12.5's empty cubins differ at %#x, outside e_version", i)
			break
		}
	}
}
