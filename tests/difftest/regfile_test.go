package difftest

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRegisterFileExisting links every corpus case that writes a
// --register-link-binaries file (nvcc -dlink's way) with that file already
// there, holding something else. nvlink 11.8, once its cubin is written,
// stats the path and writes the file only when no regular file is there:
// the stale one stays (strace: stat, then no open). nvlink 12.4 and 12.5
// rewrite it, and so does 11.8 for a compute_NN link, which writes nothing
// else. The cubin is written either way. Measured on a hunt46 program with
// each nvlink: an existing file, empty or not, left as it was by 11.8 and
// replaced by 12.4 and 12.5.
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
			if c.Toolkit == DefaultToolkit && !c.Virtual() {
				got, err := os.ReadFile(reg)
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != stale {
					t.Errorf("nvlink 11.8 leaves an existing --register-link-binaries file as it is; cudalink wrote:\n%s", got)
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
