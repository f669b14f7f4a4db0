package linkworker

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/cudalink/cudalink/linker/cli"
	"github.com/cudalink/cudalink/linker/worker"
	"github.com/cudalink/cudalink/linker/worker/internal/fakebazel"
	"github.com/cudalink/cudalink/linker/worker/objcache"
)

// BenchmarkRelink relinks an unchanged many-object program (the 24 files
// of many-files-24): as a fresh cudalink process each time (what Bazel does
// without a worker), as cli.Run in this process, and as requests to a
// worker, without a cache and with a warm one.
//
//	go test -run '^$' -bench Relink ./linker/worker/linkworker
func BenchmarkRelink(b *testing.B) {
	c := loadCase(b, "many-files-24")
	dir := b.TempDir()
	out := filepath.Join(dir, "out.cubin")
	args := c.Args(c.AbsInputs(), out)
	ins := digestInputs(b, c.AbsInputs())

	b.Run("cli-process", func(b *testing.B) {
		bin := filepath.Join(dir, "cudalink")
		build := exec.Command("go", "build", "-o", bin, "github.com/cudalink/cudalink/linker/cmd/cudalink")
		if msg, err := build.CombinedOutput(); err != nil {
			b.Skipf("cannot build cudalink: %v\n%s", err, msg)
		}
		for b.Loop() {
			if msg, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
				b.Fatalf("%v: %s", err, msg)
			}
		}
	})
	b.Run("cli-inprocess", func(b *testing.B) {
		for b.Loop() {
			var buf bytes.Buffer
			if code := cli.Run(args, &buf, &buf); code != 0 {
				b.Fatalf("exit %d: %s", code, buf.String())
			}
		}
	})
	relink := func(b *testing.B, l *Linker) {
		cl := serve(b, worker.Proto, l)
		req := fakebazel.Request{Args: args, Inputs: ins}
		cl.do(req) // warm up
		for b.Loop() {
			if r := cl.do(req)[0]; r.ExitCode != 0 {
				b.Fatalf("%v", r)
			}
		}
		cl.close()
	}
	b.Run("worker-nocache", func(b *testing.B) { relink(b, &Linker{}) })
	b.Run("worker-warm", func(b *testing.B) { relink(b, &Linker{Cache: objcache.New(64 << 20)}) })
}
