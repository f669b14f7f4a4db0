package linker

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/cudalink/cudalink/linker/cubin"
)

// tuneCollectorAfter is the collector's hook between passes (afterPass):
// once the inputs are added it decides whether this link collects early; after
// relocation such a link collects the garbage relocation left.
//
// It also decides how long the inputs' mapped pages stay resident
// (fileMaps.hold): a link of less than smallInputBytes of inputs holds
// them from then to its end (readInputs held them while it read them one
// after the other; a larger link lets them go now). The passes after loading each walk every
// input (relocation and the writer once per output section), and
// releasing the pages between them costs a madvise and the page faults of
// reading them again every time. Holding them costs at most the inputs
// at the peak, which such a link reaches when writing. Side by side, 7
// runs each (CPU = user + system, median), against releasing them after
// "check undefined" as before: flat 100 objects CPU 19.8 -> 18.1 ms, peak
// RSS 11.45 -> 12.18 MiB; deep chain 100 CPU 24.3 -> 20.4 ms, 13.3 -> 14.2
// MiB; 10 objects 5.45 -> 5.06 ms, 5.75 -> 5.88 MiB. CPU time is what a
// build running many links at once waits for, and it falls below nvlink's
// (flat 100: 19.3 ms; deep chain 100: 22 ms); the peak of these links is
// above nvlink's either way, by the fixed size of a Go program.
func (ctx *linkContext) tuneCollectorAfter(pass string) {
	switch pass {
	case "add inputs":
		tuneCollector(ctx)
		ctx.maps.hold(inputBytes(ctx.added) < smallInputBytes)
	case "apply relocations":
		collectGarbage(ctx)
	}
}

// inputBytes is the size of files' device images.
func inputBytes(files []*inputFile) int {
	total := 0
	for _, file := range files {
		if file.ELF != nil {
			total += len(file.ELF.Data)
		}
	}
	return total
}

// heapInputBytes is inputBytes without the inputs' debug sections
// (.debug_*, .nv_debug_*: not allocated on the device). Their bytes are
// never copied into the heap (a merged debug section is composed of its
// members' bytes, sectionbytes.go) and they hold no symbols, so they
// hardly add to what a link allocates: the 100-object -G benchmark
// program (6.3 MB of inputs, 3.6 MB of them debug sections) allocates 6.8
// MB in all, as much as the 1.7 MB deep-chain program.
func heapInputBytes(files []*inputFile) int {
	total := 0
	for _, file := range files {
		if file.ELF == nil {
			continue
		}
		total += len(file.ELF.Data)
		for _, sec := range file.ELF.Sections {
			if sec.Flags&cubin.SHF_ALLOC == 0 && isDebugSection(sec.Name) {
				total -= len(sec.Data)
			}
		}
	}
	return total
}

// isDebugSection says whether name is a debug section's.
func isDebugSection(name string) bool {
	return strings.HasPrefix(name, ".debug_") || strings.HasPrefix(name, ".nv_debug")
}

// tuneCollector sets the Go collector for a one-shot link
// (Config.OneShot) by the size of its inputs. GOGC, when set, decides.
//
//   - Small inputs (under smallInputBytes, not counting debug sections:
//     heapInputBytes) and medium ones (under largeInputBytes, debug
//     sections included): the collector is off, with a
//     memory limit of offCollectorLimit as the safety net. Such a link
//     allocates a few times its inputs in all (5 MB for the 1.6 MB of the
//     100-object flat benchmark program), under the collector's own 4 MB
//     minimum target, so a collection frees nothing the process would
//     give back before it exits; it only costs starting the mark workers
//     and waking the threads they run on (about 3 ms of CPU in a 20 ms
//     link, the same peak resident set). From 4 MiB on most of what it
//     allocates stays live, and with the collector off the passes make
//     less garbage (ctx.gc.off: indexes sized once, string tables and
//     relocation lists not copied to their final size): flat 400 objects
//     (6.6 MB; under chrt -f 50, 9 interleaved runs, medians) wall 61.2
//     ms, CPU 76.8 ms, peak RSS 22764 KiB at the default 100%, 56.6, 66.8,
//     22616 at 400%, 52.2, 56.8, 22452 off (nvlink 107.8, 104.6, 23692);
//     the large program's 100 objects (9.9 MB, 7 runs) 44.2, 57.9, 17360
//     at 100%, 37.7, 41.1, 18248 at 400%, 36.9, 40.3, 17528 off (nvlink
//     336 ms, 26500 KiB). Only a link of less than smallInputBytes holds
//     its inputs' pages (tuneCollectorAfter): flat 400 holding them too
//     peaked at 29096 KiB. The limit is largeInputBytes: from 16 to 32
//     MiB of inputs the collector ran at the default 100% before, and off
//     it takes a fifth of the CPU time off for a few MiB more at the peak
//     (the large program's last 200 to 320 files, 19 to 30 MiB; 9
//     interleaved runs each, medians, load 8: CPU 118.8 -> 94.0 ms at 200
//     files and 195.1 -> 154.2 ms at 320, peak RSS 29920 -> 31320 KiB and
//     42656 -> 45808 KiB, where nvlink peaks at 49700 and 76544 KiB). Past
//     it the peak would go over half of nvlink's: the large program's 400
//     files (38 MiB) off, CPU 319 -> 194 ms but 46504 -> 55212 KiB (nvlink
//     about 96000; 5 runs each).
//   - Inputs mostly debug sections (more than half of their bytes: a
//     link of nvcc -G objects), of any size: the collector is off, under
//     the limit offCollectorLimit gives the bytes outside them. Their
//     debug sections never reach the heap, and nvlink holds them in its
//     memory (the -G benchmark program of 1,600 objects, 101 MB of which
//     42.6 outside debug sections: nvlink peaks at 183 MB). At 25% growth
//     (below) that link collected 13 times, marking up to 55 MB each time:
//     3,940 M of its instructions against 209 M at 400 objects (18.9
//     times; callgrind); off, 1,041 M, peak RSS 84 -> 106 MB
//     (docs/benchmarks.md, perf27).
//   - Large inputs (largeInputBytes and more): the collector runs at 25%
//     heap growth. Such a link's heap is nearly all live until the
//     process exits, so the garbage that the default target lets pile up
//     (as much again as the live heap) only raises the peak: collecting at
//     25% growth takes the peak resident set of the 400-object large
//     benchmark program from about 59 to 52 MiB for 0.08 s more time.
//   - Very large inputs (hugeInputBytes and more): 100% growth, the
//     runtime's default. The collector's work grows faster than the
//     link's (it marks a larger heap in each cycle), and nvlink's own
//     peak grows faster still: on the 1,600-object large program (159 MB
//     of inputs; nvlink 389 MB) 50% instead of 25% took the CPU time from
//     2.46 to 1.99 s and the peak from 172 to 191 MiB; once callTree no
//     longer made garbage in proportion to the link's functions, 100%
//     instead of 50% takes it from 1.50 to 1.40 s, the peak 150 MiB
//     either way (collectGarbage bounds it; 3 interleaved runs each).
func tuneCollector(ctx *linkContext) {
	if !ctx.config.OneShot || os.Getenv("GOGC") != "" {
		return
	}
	total, heap := inputBytes(ctx.added), heapInputBytes(ctx.added)
	switch {
	case heap < smallInputBytes || total < largeInputBytes || 2*heap < total:
		if os.Getenv("GOMEMLIMIT") == "" {
			debug.SetMemoryLimit(offCollectorLimit(heap))
		}
		debug.SetGCPercent(-1)
		ctx.gc.off = true
	case total >= hugeInputBytes:
		debug.SetGCPercent(hugeInputGCPercent)
		ctx.gc.early = true
	default: // total >= largeInputBytes
		debug.SetGCPercent(largeInputGCPercent)
		ctx.gc.early = true
	}
	if ctx.gc.early && ctx.gc.readingLimit {
		// The collector runs from here on, without the limit it had
		// while the files were read (collectWhileReading).
		debug.SetMemoryLimit(math.MaxInt64)
	}
}

// offCollectorLimit is the memory limit of a link that runs with the
// collector off, whose inputs hold heap bytes (heapInputBytes):
// smallLinkMemoryLimit, or offLimitPerInputByte times those bytes if that
// is more (at most 128 MiB for a link of less than largeInputBytes of
// inputs, or less than smallInputBytes outside debug sections; a link of
// inputs mostly debug sections may have more, see tuneCollector). A link of
// many small files holds more heap per input byte than one of few large
// ones: the flat 1,600-object benchmark program (26.6 MB of inputs)
// reached 64 MiB, where the collector runs again and again near the
// limit. With 4 times its inputs (101 MiB) it collects no more: CPU 443
// -> 267 ms, wall 358 -> 246 ms, peak RSS 61.0 -> 70.6 MiB (nvlink 1,006
// ms, 85.4 MiB; 7 interleaved runs, medians; docs/benchmarks.md, perf25).
func offCollectorLimit(heap int) int64 {
	return max(smallLinkMemoryLimit, offLimitPerInputByte*int64(heap))
}

// collectWhileReading turns the collector of a one-shot link off for
// reading its files (fileBytes, their sizes on disk), before tuneCollector
// knows what they hold, under the memory limit tuneCollector would give
// inputs of that many heap bytes (offCollectorLimit). Reading makes little
// garbage: what it allocates is the parsed inputs, which the link holds
// to its end. Larger files than largeInputBytes were read with the
// collector at its default, which collected three times while the -G
// benchmark program of 1,600 objects (101 MB) was read: 214 M of its 1,041
// M instructions; the large program's 400 and 1,600 objects peak as high
// either way (46.8 and 46.9 MiB, 165.8 and 164.8 MiB; docs/benchmarks.md,
// perf27). It used to set 400% heap growth
// instead, so that the collections the default target would start
// from 4 MiB of heap on did not happen before tuneCollector turned the
// collector off (flat 400 objects: CPU 72.7 -> 65.7 ms, peak 24160 ->
// 22396 KiB, 9 runs each). At 400% the flat 1,600-object program (26.6 MB)
// still collected twice while it read: 60 M of its 658 M instructions
// (callgrind), the reason its instructions grew 4.40 times from 400
// objects; with the collector off, 597.6 M (4.01 times), the same peak
// (70.6 -> 71.0 MiB; perf26, docs/benchmarks.md).
func collectWhileReading(ctx *linkContext, fileBytes int64) {
	if ctx.config.OneShot && os.Getenv("GOGC") == "" {
		if os.Getenv("GOMEMLIMIT") == "" {
			debug.SetMemoryLimit(offCollectorLimit(int(fileBytes)))
			ctx.gc.readingLimit = true
		}
		debug.SetGCPercent(-1)
	}
}

// collectGarbage runs the collector now in a link tuneCollector tuned:
// the passes before it leave garbage that the collector would otherwise
// let stand until the next passes' allocations reach its target. After
// applyRelocations that is the arrays the relocation and patch lists grew
// through (2 to 3 MB at 400 large objects), and collecting there lowers
// the peak resident set of that benchmark by about 2 MiB for 10 ms.
func collectGarbage(ctx *linkContext) {
	if ctx.gc.early {
		runtime.GC()
	}
}

// A link whose inputs hold largeInputBytes or more collects garbage at
// largeInputGCPercent heap growth, hugeInputGCPercent from hugeInputBytes
// on; one whose inputs hold less than
// largeInputBytes does not collect until the process holds
// offCollectorLimit (see tuneCollector); while the inputs are read, a
// one-shot link does not collect, whatever its files hold
// (collectWhileReading).
const (
	largeInputBytes      = 32 << 20
	largeInputGCPercent  = 25
	hugeInputBytes       = 128 << 20
	hugeInputGCPercent   = 100
	smallInputBytes      = 4 << 20
	smallLinkMemoryLimit = 64 << 20
	offLimitPerInputByte = 4
)
