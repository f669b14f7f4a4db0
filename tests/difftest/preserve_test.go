package difftest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cudalink/cudalink/tests/normalize"
)

// TestPreserveRelocsCorpus links every ok case of the corpus once more with
// -preserve-relocs added, with the real nvlink and with cudalink, and
// requires the same normal form and the same bytes; byte-identical outputs are counted
// (summary line `byte-identical with -preserve-relocs: N of M`). It needs
// nvlink on PATH (the corpus holds nvlink's outputs only for the flags each
// case names) and is skipped with -short.
func TestPreserveRelocsCorpus(t *testing.T) {
	nvlink, err := exec.LookPath("nvlink")
	if err != nil {
		t.Skip("SKIP: nvlink not on PATH; the -preserve-relocs corpus run needs it")
	}
	if testing.Short() {
		t.Skip("SKIP: -short: the -preserve-relocs corpus run is skipped")
	}
	var total, same, identical int
	var differ []string
	for _, c := range loadCorpus(t) {
		if c.Expect != "ok" || c.Differs || c.LTO() || c.Virtual() {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			flags := c.Flags
			if !slices.Contains(flags, "-preserve-relocs") {
				flags = append(slices.Clone(flags), "-preserve-relocs")
			}
			pc := *c
			pc.Flags = flags
			tmp := t.TempDir()
			want := filepath.Join(tmp, "nvlink.cubin")
			cmd := exec.Command(nvlink, pc.Args(c.Inputs, want)...)
			cmd.Dir = c.Dir
			cmd.Env = append(os.Environ(), "LC_ALL=C")
			msg, nvErr := cmd.CombinedOutput()
			deletedSymbol := nvErr != nil && bytes.Contains(msg, []byte("Internal error: reference to deleted symbol"))
			if nvErr != nil && bytes.Contains(msg, []byte("Internal error")) && !deletedSymbol {
				t.Skipf("nvlink -preserve-relocs fails with its own internal error (%v): %s", nvErr, msg)
			}
			t.Chdir(c.Dir)
			got := filepath.Join(tmp, "out.cubin")
			args := cudalinkArgs(t, &pc, c.Inputs, got)
			status, _, stderr := link(t, args)
			if deletedSymbol {
				// cudalink refuses those links as nvlink does
				// (checkUnreachedDynamic), with its exit status.
				if status != cmd.ProcessState.ExitCode() {
					t.Errorf("nvlink -preserve-relocs: exit %d (reference to deleted symbol); cudalink: exit %d\n%s", cmd.ProcessState.ExitCode(), status, stderr)
				}
				if _, err := os.Stat(got); err == nil {
					t.Errorf("cudalink failed but wrote %s", got)
				}
				return
			}
			if nvErr != nil {
				if status == 0 {
					t.Errorf("nvlink -preserve-relocs fails (%v), cudalink succeeds; nvlink said:\n%s", nvErr, msg)
				}
				return
			}
			total++
			if status != 0 {
				t.Fatalf("cudalink %s: exit status %d, nvlink's 0; stderr:\n%s", strings.Join(args, " "), status, stderr)
			}
			wantB, err := os.ReadFile(want)
			if err != nil {
				t.Fatal(err)
			}
			gotB, err := os.ReadFile(got)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Equal(gotB, wantB) {
				identical++
				same++
				return
			}
			differ = append(differ, c.Name)
			wantN, err := normalize.Normalize(wantB)
			if err != nil {
				t.Fatalf("nvlink's output: %v", err)
			}
			gotN, err := normalize.Normalize(gotB)
			if err != nil {
				t.Fatalf("cudalink's output: %v", err)
			}
			if d := normalize.Diff(wantN, gotN); d != "" {
				t.Errorf("cudalink's output differs from nvlink's (- nvlink, + cudalink):\n%s", d)
				return
			}
			same++
			t.Errorf("same normal form as nvlink's output, but not byte-identical (%d vs %d bytes); first difference at byte %d",
				len(gotB), len(wantB), firstDiff(gotB, wantB))
		})
	}
	t.Logf("ok cases linked with -preserve-relocs: %d; same normal form as nvlink: %d; byte-identical with -preserve-relocs: %d of %d",
		total, same, identical, total)
	if len(differ) > 0 {
		t.Logf("not byte-identical (%d): %s", len(differ), strings.Join(differ, " "))
	}
}
