package difftest

import (
	"os"
	"path/filepath"
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
