package objcache

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cudalink/cudalink/linker"
	"github.com/cudalink/cudalink/linker/cubin"
)

// objects makes parsed objects standing for a file of n bytes.
func objects(n int) []*linker.Object {
	return []*linker.Object{{Name: "f", ELF: &cubin.File{Data: make([]byte, n)}}}
}

// loader counts the loads of a file.
type loader struct {
	n    atomic.Int32
	size int
}

func (l *loader) load() ([]*linker.Object, error) {
	l.n.Add(1)
	return objects(l.size), nil
}

// TestHit: the second request for a path and digest is served from the
// cache, with the very objects of the first.
func TestHit(t *testing.T) {
	c := New(1 << 20)
	l := &loader{size: 100}
	a, _ := c.Objects("a.cubin", "d1", l.load)
	b, _ := c.Objects("a.cubin", "d1", l.load)
	if l.n.Load() != 1 || a[0] != b[0] {
		t.Errorf("%d loads, same objects %v; want 1 load and the same objects", l.n.Load(), a[0] == b[0])
	}
	if s := c.Stats(); s.Hits != 1 || s.Misses != 1 || s.Entries != 1 || s.Bytes != Size(a) {
		t.Errorf("stats %+v", s)
	}
}

// TestDigestChange: a new digest for a path reloads it and drops the old
// entry; the old digest is not served again.
func TestDigestChange(t *testing.T) {
	c := New(1 << 20)
	l := &loader{size: 100}
	c.Objects("a.cubin", "d1", l.load)
	c.Objects("a.cubin", "d2", l.load)
	c.Objects("a.cubin", "d2", l.load)
	c.Objects("a.cubin", "d1", l.load)
	if n := l.n.Load(); n != 3 {
		t.Errorf("%d loads; want 3", n)
	}
	if s := c.Stats(); s.Invalidations != 2 || s.Entries != 1 || s.Hits != 1 {
		t.Errorf("stats %+v", s)
	}
}

// TestNoDigest: a file without a digest is loaded every time and not kept.
func TestNoDigest(t *testing.T) {
	c := New(1 << 20)
	l := &loader{size: 100}
	c.Objects("a.cubin", "", l.load)
	c.Objects("a.cubin", "", l.load)
	if s := c.Stats(); l.n.Load() != 2 || s.Uncached != 2 || s.Entries != 0 {
		t.Errorf("%d loads, stats %+v", l.n.Load(), s)
	}
}

// TestDisabled: a cache with no room keeps nothing.
func TestDisabled(t *testing.T) {
	c := New(0)
	l := &loader{size: 100}
	c.Objects("a.cubin", "d", l.load)
	c.Objects("a.cubin", "d", l.load)
	if l.n.Load() != 2 {
		t.Errorf("%d loads; want 2", l.n.Load())
	}
}

// TestEviction: over the bound, the least recently used entry goes first;
// the memory held stays under the bound.
func TestEviction(t *testing.T) {
	one := Size(objects(1000))
	c := New(2*one + one/2) // room for two
	a, b, d := &loader{size: 1000}, &loader{size: 1000}, &loader{size: 1000}
	c.Objects("a", "1", a.load)
	c.Objects("b", "1", b.load)
	c.Objects("a", "1", a.load) // a is now the most recently used
	c.Objects("d", "1", d.load) // evicts b
	c.Objects("a", "1", a.load)
	c.Objects("b", "1", b.load) // reloaded; evicts d
	c.Objects("d", "1", d.load) // reloaded; evicts a
	if a.n.Load() != 1 || b.n.Load() != 2 || d.n.Load() != 2 {
		t.Errorf("loads a %d b %d d %d; want 1 2 2", a.n.Load(), b.n.Load(), d.n.Load())
	}
	s := c.Stats()
	if s.Evictions != 3 || s.Entries != 2 || s.Bytes != 2*one {
		t.Errorf("stats %+v", s)
	}
}

// TestBoundHolds: many distinct files never take the cache over its bound.
func TestBoundHolds(t *testing.T) {
	const limit = 1 << 20
	c := New(limit)
	for i := range 1000 {
		l := &loader{size: 1000 + i*37%5000}
		c.Objects(string(rune('a'+i%26))+string(rune(i)), "d", l.load)
		if s := c.Stats(); s.Bytes > limit {
			t.Fatalf("after %d files the cache holds %d bytes, over its bound %d", i+1, s.Bytes, limit)
		}
	}
	if s := c.Stats(); s.Evictions == 0 || s.Entries == 0 {
		t.Errorf("stats %+v", s)
	}
}

// TestTooLarge: a file bigger than the whole bound is served but not kept.
func TestTooLarge(t *testing.T) {
	c := New(1000)
	l := &loader{size: 10000}
	objs, err := c.Objects("big", "d", l.load)
	if err != nil || len(objs) != 1 {
		t.Fatal(objs, err)
	}
	c.Objects("big", "d", l.load)
	if s := c.Stats(); l.n.Load() != 2 || s.Entries != 0 || s.Bytes != 0 {
		t.Errorf("%d loads, stats %+v", l.n.Load(), s)
	}
}

// TestErrorsNotKept: a failed load is reported and tried again next time.
func TestErrorsNotKept(t *testing.T) {
	c := New(1 << 20)
	fail := true
	n := 0
	load := func() ([]*linker.Object, error) {
		n++
		if fail {
			return nil, errors.New("cannot read")
		}
		return objects(10), nil
	}
	if _, err := c.Objects("a", "d", load); err == nil {
		t.Fatal("no error")
	}
	fail = false
	if _, err := c.Objects("a", "d", load); err != nil || n != 2 {
		t.Errorf("err %v after %d loads", err, n)
	}
}

// TestSizeWithoutImage: an object without a device image (a host object
// with no device code) still counts, and does not crash the estimate.
func TestSizeWithoutImage(t *testing.T) {
	if n := Size([]*linker.Object{{Name: "host.o"}}); n <= 0 {
		t.Errorf("Size = %d", n)
	}
}

// TestConcurrent: links asking at once for the same file share one load;
// under -race, the cache is safe for concurrent use.
func TestConcurrent(t *testing.T) {
	c := New(1 << 20)
	var n atomic.Int32
	load := func() ([]*linker.Object, error) {
		n.Add(1)
		time.Sleep(20 * time.Millisecond)
		return objects(10), nil
	}
	var wg sync.WaitGroup
	results := make([][]*linker.Object, 16)
	for i := range results {
		wg.Go(func() {
			results[i], _ = c.Objects("shared", "d", load)
			c.Objects(string(rune('a'+i)), "d", (&loader{size: 10}).load)
		})
	}
	wg.Wait()
	if n.Load() != 1 {
		t.Errorf("%d loads of the shared file; want 1", n.Load())
	}
	for _, r := range results {
		if r[0] != results[0][0] {
			t.Fatal("concurrent callers got different objects")
		}
	}
}

// TestFailedSharedLoad: when the load others wait for fails, each of them
// loads for itself.
func TestFailedSharedLoad(t *testing.T) {
	c := New(1 << 20)
	started := make(chan struct{})
	release := make(chan struct{})
	go c.Objects("a", "d", func() ([]*linker.Object, error) {
		close(started)
		<-release
		return nil, errors.New("cancelled")
	})
	<-started
	done := make(chan error)
	go func() {
		_, err := c.Objects("a", "d", (&loader{size: 10}).load)
		done <- err
	}()
	time.Sleep(10 * time.Millisecond) // let it wait for the first load
	close(release)
	if err := <-done; err != nil {
		t.Errorf("waiting caller got %v; want its own successful load", err)
	}
}

// TestCompiled: ptxas results are kept by key, counted with the parsed
// inputs against the bound, and failures are not kept.
func TestCompiled(t *testing.T) {
	c := New(1 << 20)
	runs := 0
	compile := func() (*linker.Compiled, error) {
		runs++
		return &linker.Compiled{Cubin: make([]byte, 1000), Messages: []byte("ptxas warning : x\n")}, nil
	}
	a, _ := c.Compiled("k1", compile)
	b, _ := c.Compiled("k1", compile)
	if runs != 1 || a != b {
		t.Errorf("%d compiles, same result %v; want 1 and the same", runs, a == b)
	}
	c.Compiled("k2", compile)
	if s := c.Stats(); s.Entries != 2 || s.Hits != 1 || s.Bytes < 2000 {
		t.Errorf("stats %+v", s)
	}
	fail := func() (*linker.Compiled, error) { runs++; return nil, errors.New("ptxas failed") }
	c.Compiled("k3", fail)
	c.Compiled("k3", fail)
	if runs != 4 || c.Stats().Entries != 2 {
		t.Errorf("%d compiles, stats %+v; failures must not be kept", runs, c.Stats())
	}
}
