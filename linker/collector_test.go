package linker

import (
	"os"
	"runtime/debug"
	"testing"

	"github.com/cudalink/cudalink/linker/cubin"
)

// TestOffCollectorLimit checks the memory limit a one-shot link with the
// collector off runs under: 64 MiB for small inputs, and room for four
// times the inputs' bytes for more, so that a link of many small files
// (the flat 1,600-object benchmark program, 26.6 MB) does not run the
// collector again and again at the limit.
func TestOffCollectorLimit(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT set: tuneCollector leaves the collector to them")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	for _, c := range []struct {
		inputs []int // bytes of each input
		limit  int64
	}{
		{[]int{1 << 20, 2 << 20}, 64 << 20},
		{[]int{8 << 20, 8 << 20}, 64 << 20},
		{[]int{10 << 20, 10 << 20, 6 << 20}, 4 * 26 << 20},
		{[]int{31 << 20}, 4 * 31 << 20},
	} {
		ctx := &linkContext{config: &Config{OneShot: true}}
		for _, n := range c.inputs {
			ctx.added = append(ctx.added, &inputFile{Object: &Object{ELF: &cubin.File{Data: make([]byte, n)}}})
		}
		tuneCollector(ctx)
		if !ctx.gc.off {
			t.Errorf("inputs %v: collector not off", c.inputs)
		}
		if got := debug.SetMemoryLimit(-1); got != c.limit {
			t.Errorf("inputs %v: memory limit %d MiB, want %d MiB", c.inputs, got>>20, c.limit>>20)
		}
	}
}
