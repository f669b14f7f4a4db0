package difftest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRegisterFileExisting links every corpus case that writes a
// --register-link-binaries file (nvcc -dlink's way) with that file already
// there, holding something else: cudalink replaces it with nvlink's list.
// nvlink itself, given libcudadevrt that it does not take, stats the path
// once its cubin is written and writes the file only when no regular file
// is there, so the stale one stays (strace: stat, then no open); without
// libcudadevrt among its inputs, or with its module listed, it rewrites
// the file (measured with nvlink 11.8, 12.4 and 12.5 on each case this
// test links: 11.8 50 kept, 18 rewritten; 12.4 and 12.5 17 kept, 15 and 16
// rewritten). A stale list registers another link's modules with the new
// device image, so cudalink deliberately rewrites it (docs/toolkits.md).
func TestRegisterFileExisting(t *testing.T) {
	const stale = "stale: written before the link\n"
	n := 0
	for _, c := range loadEveryToolkit(t) {
		if !c.RegisterLinkBinaries || c.Expect != "ok" || c.Differs || c.LTO() || c.Ptxas {
			continue
		}
		n++
		t.Run(c.Toolkit+"/"+c.Name, func(t *testing.T) {
			t.Chdir(c.Dir)
			out := filepath.Join(t.TempDir(), "out.cubin")
			reg := RegFile(out)
			if err := os.WriteFile(reg, []byte(stale), 0o644); err != nil {
				t.Fatal(err)
			}
			args := cudalinkArgs(t, c, c.Inputs, out)
			if status, _, stderr := link(t, args); status != 0 {
				t.Fatalf("exit status %d, nvlink's 0; stderr:\n%s", status, stderr)
			}
			if !c.Virtual() {
				if _, err := os.Stat(out); err != nil {
					t.Errorf("no cubin: %v", err)
				}
			}
			checkRegFile(t, c, reg)
		})
	}
	if n == 0 {
		t.Fatal("no corpus case writes a --register-link-binaries file")
	}
}

// TestRegisterFileSameModulesKept: a --register-link-binaries file already
// at the path that registers the same modules as the link's list, in
// another order, stays as it is where nvlink leaves it, and is rewritten
// with nvlink's list where nvlink rewrites it. nvlink is run on each case
// with the same file in place: given libcudadevrt, it keeps the file
// unless it takes the library and the file lacks "_cuda_device_runtime_"
// (an object named cudadevrt_helpers.o is taken for libcudadevrt); without
// it, it rewrites the file. nvcc -dlink with several targets gives every
// nvlink run one path, so a later run that leaves the file keeps the first
// run's order: with -dlto, a partial link for sm_80 and a whole program for
// sm_90 list the same modules in opposite orders (hunt67's
// multiarch-dlto-regc-kept-by-second-nvlink.sh, 12.5), and cudalink rewrote
// the file with the second list. Cases that compile PTX or IR are left out
// (nvlink would need their ptxas and libnvvm set up as the corpus run does).
func TestRegisterFileSameModulesKept(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP: -short: the runs of nvlink are skipped")
	}
	kept, rewritten := 0, 0
	for _, c := range loadEveryToolkit(t) {
		if !c.RegisterLinkBinaries || c.Expect != "ok" || c.Differs || c.Ptxas || c.LTO() || c.Virtual() {
			continue
		}
		nvlink := nvlinkOf(c.Toolkit)
		want, err := os.ReadFile(filepath.Join(c.Dir, "expected.reg.c"))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(string(want), "\n")
		ids := slices.DeleteFunc(lines[1:], func(l string) bool { return l == "" })
		reversed := slices.Clone(ids)
		slices.Reverse(reversed)
		if slices.Equal(ids, reversed) {
			continue
		}
		before := lines[0] + strings.Join(reversed, "")
		t.Run(c.Toolkit+"/"+c.Name, func(t *testing.T) {
			if nvlink == "" {
				t.Skipf("SKIP: the nvlink of CUDA %s is not installed (scripts/setup.sh)", c.Toolkit)
			}
			tmp := t.TempDir()
			nvOut := filepath.Join(tmp, "nvlink.cubin")
			if err := os.WriteFile(RegFile(nvOut), []byte(before), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(nvlink, c.Args(c.Inputs, nvOut)...)
			cmd.Dir = c.Dir
			if msg, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("nvlink: %v\n%s", err, msg)
			}
			nvReg, err := os.ReadFile(RegFile(nvOut))
			if err != nil {
				t.Fatal(err)
			}
			keeps := string(nvReg) == before
			if keeps {
				kept++
			} else {
				rewritten++
			}
			t.Chdir(c.Dir)
			out := filepath.Join(tmp, "out.cubin")
			if err := os.WriteFile(RegFile(out), []byte(before), 0o644); err != nil {
				t.Fatal(err)
			}
			if status, _, stderr := link(t, cudalinkArgs(t, c, c.Inputs, out)); status != 0 {
				t.Fatalf("exit status %d, nvlink's 0; stderr:\n%s", status, stderr)
			}
			if got, _ := os.ReadFile(RegFile(out)); !bytes.Equal(got, nvReg) {
				t.Errorf("nvlink kept the file of the same modules in another order: %v; cudalink's file differs from nvlink's:\n--- nvlink\n%s--- cudalink\n%s", keeps, nvReg, got)
			}
		})
	}
	t.Logf("%d cases where nvlink keeps the file, %d where it rewrites it", kept, rewritten)
	if kept == 0 || rewritten == 0 {
		t.Fatalf("kept %d, rewritten %d: the corpus must have both", kept, rewritten)
	}
}

// nvlinkOf is the nvlink of a toolkit's cases: 11.8's on PATH, a CUDA 12
// version's in /opt/cuda-<version>/usr/bin; "" when it is not installed.
func nvlinkOf(toolkit string) string {
	name := "nvlink"
	if toolkit != "" && toolkit != DefaultToolkit {
		name = filepath.Join("/opt/cuda-"+toolkit, "usr", "bin", name)
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return ""
	}
	return path
}
