package linker

import (
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
