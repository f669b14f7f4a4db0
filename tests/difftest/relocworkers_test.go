package difftest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/cudalink/cudalink/linker"
	"github.com/cudalink/cudalink/linker/cli"
)

// TestRelocWorkers: every corpus case of every toolkit, relocated on
// several goroutines, exits, prints and writes what it does relocated on
// one. Only a link with many relocations relocates in parallel
// (applyRelocations), more than any corpus case has, so here the cases
// are linked both ways (linker.WithRelocWorkers); TestCorpus compares the
// one-goroutine link with nvlink's. Cases that compile PTX or IR are left
// out: their relocation is that of the cubin ptxas makes, and their
// compilers take most of the corpus's time.
func TestRelocWorkers(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.cubin")
	linkOn := func(c *Case, workers int) (status int, msgs string, output []byte) {
		var buf bytes.Buffer
		ctx := linker.WithRelocWorkers(context.Background(), workers)
		status = cli.RunContext(ctx, cudalinkArgs(t, c, c.AbsInputs(), out), &buf, &buf, nil)
		output, err := os.ReadFile(out)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		os.Remove(out)
		os.Remove(RegFile(out))
		return status, buf.String(), output
	}
	n := 0
	for _, c := range loadEveryToolkit(t) {
		if c.Ptxas || c.LTO() {
			continue
		}
		n++
		t.Run("cuda-"+c.Toolkit+"/"+c.Name, func(t *testing.T) {
			status, msgs, output := linkOn(c, 1)
			for _, workers := range []int{2, 5} {
				s, m, o := linkOn(c, workers)
				if s != status || m != msgs {
					t.Errorf("on %d goroutines: exit %d, messages:\n%s\non one: exit %d, messages:\n%s", workers, s, m, status, msgs)
				}
				if !bytes.Equal(o, output) {
					t.Errorf("on %d goroutines: output of %d bytes differs from the one-goroutine link's %d (first at %d)", workers, len(o), len(output), firstDiff(o, output))
				}
			}
		})
	}
	if n == 0 {
		t.Fatal("no corpus case to link")
	}
}
