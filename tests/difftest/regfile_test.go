package difftest

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRegisterFileExisting links every corpus case that writes a
// --register-link-binaries file (nvcc -dlink's way) with that file already
// there, holding something else. nvlink, given libcudadevrt that it does
// not take, stats the path once its cubin is written and writes the file
// only when no regular file is there: the stale one stays (strace: stat,
// then no open). Without libcudadevrt among its inputs, or with its module
// listed, it rewrites the file, as it does for a compute_NN link. The
// cubin is written either way. Measured with nvlink 11.8, 12.4 and 12.5 on
// each case this test links (11.8: 50 kept, -lcudadevrt not taken; 12
// rewritten, libcudadevrt or an object named after it listed; 6
// rewritten, no libcudadevrt; 12.4 and 12.5: 17 kept, 9 and 10 rewritten
// with it listed, 6 without it), and on a hunt46 program.
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
			want, err := os.ReadFile(filepath.Join(c.Dir, "expected.reg.c"))
			if err != nil {
				t.Fatal(err)
			}
			// libcudadevrt's module, or that of an object nvlink takes
			// for it by its name (devrt-named-object-on-demand).
			listed := bytes.Contains(want, []byte("_cuda_device_runtime_cu_")) || bytes.Contains(want, []byte("cudadevrt"))
			given := slices.ContainsFunc(c.Inputs, func(in string) bool { return strings.Contains(in, "cudadevrt") })
			if !c.Virtual() && given && !listed {
				got, err := os.ReadFile(reg)
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != stale {
					t.Errorf("nvlink leaves an existing --register-link-binaries file as it is when it does not take libcudadevrt; cudalink wrote:\n%s", got)
				}
				return
			}
			checkRegFile(t, c, reg)
		})
	}
	if n == 0 {
		t.Fatal("no corpus case writes a --register-link-binaries file")
	}
}
