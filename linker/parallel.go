package linker

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// forEachIndex calls fn(i) for every i in [0, n), on at most workers
// goroutines at once: the caller's own and workers-1 more, each taking the
// next index as it finishes one. Goroutines are started only for the work
// there is (never more than n), so a small link does not pay for waking
// threads it has nothing to give. fn must write only what index i owns;
// the result then does not depend on the scheduling.
func forEachIndex(n, workers int, fn func(i int)) {
	forEachIndexOn(n, workers, func(_, i int) { fn(i) })
}

// forEachIndexOn is forEachIndex for an fn that keeps state per
// goroutine: it gets the number of the goroutine that runs it, in [0,
// workers), which runs one index at a time.
func forEachIndexOn(n, workers int, fn func(w, i int)) {
	workers = min(workers, n)
	if workers <= 1 {
		for i := range n {
			fn(0, i)
		}
		return
	}
	var next atomic.Int64
	work := func(w int) {
		for {
			i := int(next.Add(1) - 1)
			if i >= n {
				return
			}
			fn(w, i)
		}
	}
	var wg sync.WaitGroup
	for w := range workers - 1 {
		wg.Go(func() { work(w + 1) })
	}
	work(0)
	wg.Wait()
}

// useParallelism gives a one-shot process (Config.OneShot) the
// Config.Parallelism processors before a pass works on several goroutines:
// cmd/cudalink runs on one P until then (its start package), which is all a
// link of less than serialReadBytes of inputs needs.
func (ctx *linkContext) useParallelism() {
	if n := ctx.config.Parallelism; ctx.config.OneShot && n > runtime.GOMAXPROCS(0) {
		runtime.GOMAXPROCS(n)
	}
}

// yieldBetweenPasses lets the scheduler run between two passes of a
// one-shot link on one P, so that the runtime's monitor does not preempt
// the link with a signal: it does so to a goroutine that has run for 10 ms
// without a pass through the scheduler, whether another is waiting or
// not, and the signal handler reads the function tables of the
// interrupted code (up to nine windows of 64 KiB resident to the end of a
// flat 100-object link, docs/benchmarks.md perf14). On one P the link's
// goroutine runs on at once; on more it could move to another P, and a
// larger link loses nothing to the signal.
func (ctx *linkContext) yieldBetweenPasses() {
	if ctx.config.OneShot && runtime.GOMAXPROCS(0) == 1 {
		runtime.Gosched()
	}
}
