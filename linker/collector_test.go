package linker

import (
	"math"
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

// TestCollectorOffWhileReading checks that a one-shot link reads its files
// with the collector off, under the memory limit offCollectorLimit gives
// their bytes (the flat 1,600-object benchmark program collected twice
// while reading at 400% growth, the -G one of 1,600 objects three times at
// the default), and that the limit goes when tuneCollector then turns the
// collector on.
func TestCollectorOffWhileReading(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT set: collectWhileReading leaves the collector to them")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	for _, c := range []struct {
		fileBytes int64
		percent   int
		limit     int64
	}{
		{1 << 20, -1, 64 << 20},
		{26 << 20, -1, 4 * 26 << 20},
		{largeInputBytes, -1, 4 * largeInputBytes},
		{100 << 20, -1, 4 * 100 << 20},
	} {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
		ctx := &linkContext{config: &Config{OneShot: true}}
		collectWhileReading(ctx, c.fileBytes)
		if got := debug.SetGCPercent(100); got != c.percent {
			t.Errorf("files of %d MiB: collector at %d%%, want %d%%", c.fileBytes>>20, got, c.percent)
		}
		if got := debug.SetMemoryLimit(math.MaxInt64); got != c.limit {
			t.Errorf("files of %d MiB: memory limit %d MiB, want %d MiB", c.fileBytes>>20, got>>20, c.limit>>20)
		}
	}
	// Files of 20 MiB that hold 40 MiB outside debug sections, and files
	// of 40 MiB: the collector runs at largeInputGCPercent, with no
	// memory limit.
	for _, fileBytes := range []int64{20 << 20, 40 << 20} {
		ctx := &linkContext{config: &Config{OneShot: true}}
		collectWhileReading(ctx, fileBytes)
		ctx.added = append(ctx.added, &inputFile{Object: &Object{ELF: &cubin.File{Data: make([]byte, 40<<20)}}})
		tuneCollector(ctx)
		if got := debug.SetGCPercent(100); got != largeInputGCPercent {
			t.Errorf("files of %d MiB, 40 MiB held: collector at %d%%, want %d%%", fileBytes>>20, got, largeInputGCPercent)
		}
		if got := debug.SetMemoryLimit(math.MaxInt64); got != math.MaxInt64 {
			t.Errorf("files of %d MiB, 40 MiB held: memory limit %d MiB, want none", fileBytes>>20, got>>20)
		}
	}
}

// TestDebugLinkCollectorOff checks that a one-shot link of inputs that are
// mostly debug sections (nvcc -G objects) runs with the collector off
// whatever their size, under the limit offCollectorLimit gives the bytes
// outside them, and that one whose debug sections are less than half of
// its inputs collects as other large links do.
func TestDebugLinkCollectorOff(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT set: tuneCollector leaves the collector to them")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	for _, c := range []struct {
		size, debug int // bytes of the input and of its debug section
		off         bool
		limit       int64
	}{
		{100 << 20, 58 << 20, true, 4 * 42 << 20},
		{40 << 20, 30 << 20, true, 64 << 20},
		{40 << 20, 19 << 20, false, math.MaxInt64},
	} {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
		data := make([]byte, c.size)
		obj := &Object{ELF: &cubin.File{Data: data, Sections: []*cubin.Section{
			{Name: ".text.k", Flags: cubin.SHF_ALLOC, Data: data[:1<<20]},
			{Name: ".debug_info", Data: data[c.size-c.debug:]},
		}}}
		ctx := &linkContext{config: &Config{OneShot: true}}
		ctx.added = append(ctx.added, &inputFile{Object: obj})
		tuneCollector(ctx)
		if ctx.gc.off != c.off {
			t.Errorf("%d MiB, %d MiB of debug sections: collector off %v, want %v", c.size>>20, c.debug>>20, ctx.gc.off, c.off)
		}
		percent := -1
		if !c.off {
			percent = largeInputGCPercent
		}
		if got := debug.SetGCPercent(100); got != percent {
			t.Errorf("%d MiB, %d MiB of debug sections: collector at %d%%, want %d%%", c.size>>20, c.debug>>20, got, percent)
		}
		if got := debug.SetMemoryLimit(math.MaxInt64); got != c.limit {
			t.Errorf("%d MiB, %d MiB of debug sections: memory limit %d MiB, want %d MiB", c.size>>20, c.debug>>20, got>>20, c.limit>>20)
		}
	}
}
