package linker

import (
	"sync/atomic"
	"testing"
)

// TestForEachIndex: every index is visited once, whatever the number of
// workers, and no more goroutines run at once than asked for.
func TestForEachIndex(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 100} {
		for _, workers := range []int{0, 1, 2, 3, 16} {
			seen := make([]atomic.Int32, n)
			var running, most atomic.Int32
			forEachIndex(n, workers, func(i int) {
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
