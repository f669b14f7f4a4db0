package linker

import (
	"sync/atomic"
	"testing"
)

// TestForEachIndex: every index is visited once, whatever the number of
// workers, and no more goroutines run at once than asked for; under
// forEachIndexOn, each call gets a worker number below workers that no
// other call running at the same time has.
func TestForEachIndex(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 100} {
		for _, workers := range []int{0, 1, 2, 3, 16} {
			seen := make([]atomic.Int32, n)
			busy := make([]atomic.Int32, max(workers, 1))
			var running, most atomic.Int32
			forEachIndexOn(n, workers, func(w, i int) {
				if w < 0 || w >= max(workers, 1) {
					t.Errorf("n %d, workers %d: worker number %d", n, workers, w)
					return
				}
				if busy[w].Add(1) != 1 {
					t.Errorf("n %d, workers %d: worker %d runs two calls at once", n, workers, w)
				}
				defer busy[w].Add(-1)
				r := running.Add(1)
				for {
					m := most.Load()
					if r <= m || most.CompareAndSwap(m, r) {
						break
					}
				}
				seen[i].Add(1)
				running.Add(-1)
			})
			for i := range seen {
				if c := seen[i].Load(); c != 1 {
					t.Errorf("n %d, workers %d: index %d visited %d times", n, workers, i, c)
				}
			}
			if m := int(most.Load()); m > max(workers, 1) {
				t.Errorf("n %d, workers %d: %d calls at once", n, workers, m)
			}
		}
	}
}
