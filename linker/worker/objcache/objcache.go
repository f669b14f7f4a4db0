// Package objcache keeps parsed linker inputs in memory between links, so
// that a persistent worker relinking a program reads and parses only the
// files that changed.
//
// Entries are keyed by path and by a version token that the caller trusts
// to change whenever the file's contents do: the persistent worker uses the
// digests Bazel sends with each request. A file with no token is never
// cached. The cache has a bound on the memory its entries hold and evicts
// the least recently used entries to stay under it.
//
// Parsed objects are immutable, so the links that share an entry, at the
// same time or one after another, see exactly what an uncached link sees.
package objcache

import (
	"container/list"
	"errors"
	"sync"

	"github.com/cudalink/cudalink/linker"
)

// Cache is an LRU cache of parsed input files, safe for concurrent use.
type Cache struct {
	limit int64

	mu      sync.Mutex
	entries map[string]*entry // by path; the entry holds the digest it is for
	lru     list.List         // loaded entries, most recently used first
	used    int64             // approximate bytes held by the entries in lru
	stats   Stats
}

// entry is one file's parsed objects for one digest, or one ptxas result
// (linker.Compiled) for its key, which is its own digest.
type entry struct {
	path, digest string
	value        any // []*linker.Object or *linker.Compiled
	size         int64
	elem         *list.Element // in Cache.lru once loaded
	ready        chan struct{} // closed when loading ended
	err          error         // of the load; failed loads are not kept
}

// errPanicked is the error of a load that panicked (the panic goes on to
// its caller); the callers waiting for it then load the file themselves.
var errPanicked = errors.New("load panicked")

// Stats counts what the cache did.
type Stats struct {
	Hits          int64 // a current entry was used
	Misses        int64 // the file was loaded and kept (or offered to be)
	Uncached      int64 // the file had no digest and was loaded without the cache
	Invalidations int64 // an entry was dropped because its file's digest changed
	Evictions     int64 // an entry was dropped to stay under the bound
	Entries       int   // entries held now
	Bytes         int64 // approximate memory held now
}

// New returns a cache that holds about limit bytes at most. A limit of 0
// or less makes a cache that keeps nothing.
func New(limit int64) *Cache {
	return &Cache{limit: limit, entries: map[string]*entry{}}
}

// Objects returns the parsed objects of the file at path whose contents
// have the given digest, calling load to read and parse the file when the
// cache holds no entry for this path and digest. An empty digest means the
// contents are unknown: the file is loaded every time and not kept. An
// entry for the same path with another digest is dropped. Errors are
// returned, not kept. When several callers ask at once for an entry being
// loaded, one loads it and the others wait for it.
func (c *Cache) Objects(path, digest string, load func() ([]*linker.Object, error)) ([]*linker.Object, error) {
	v, err := c.get(path, digest, func() (any, int64, error) {
		objs, err := load()
		return objs, Size(objs), err
	})
	objs, _ := v.([]*linker.Object)
	return objs, err
}

// Compiled returns what ptxas made for a compile key (see
// linker.CompileCache), calling compile when the cache holds no entry for
// it. The key names everything the result depends on, so it is the
// entry's digest too; the entries share the bound and the LRU order with
// parsed inputs.
func (c *Cache) Compiled(key string, compile func() (*linker.Compiled, error)) (*linker.Compiled, error) {
	v, err := c.get(key, key, func() (any, int64, error) {
		res, err := compile()
		if err != nil {
			return nil, 0, err
		}
		return res, int64(len(res.Cubin)+len(res.Messages)) + 512, nil
	})
	res, _ := v.(*linker.Compiled)
	return res, err
}

// get returns the value kept under key for digest, calling load when there
// is none.
func (c *Cache) get(key, digest string, load func() (any, int64, error)) (any, error) {
	if digest == "" || c.limit <= 0 {
		c.mu.Lock()
		c.stats.Uncached++
		c.mu.Unlock()
		v, _, err := load()
		return v, err
	}
	for {
		c.mu.Lock()
		e := c.entries[key]
		if e != nil && e.digest != digest {
			c.remove(e)
			c.stats.Invalidations++
			e = nil
		}
		if e == nil {
			break // load it ourselves, below
		}
		if e.elem != nil { // loaded
			c.lru.MoveToFront(e.elem)
			c.stats.Hits++
			c.mu.Unlock()
			return e.value, nil
		}
		c.mu.Unlock()
		<-e.ready // another caller is loading it
		if e.err == nil {
			c.mu.Lock()
			c.stats.Hits++
			c.mu.Unlock()
			return e.value, nil
		}
		// That load failed (it may have been cancelled): try ourselves.
	}
	e := &entry{path: key, digest: digest, ready: make(chan struct{})}
	c.entries[key] = e
	c.stats.Misses++
	c.mu.Unlock()

	loaded := false
	defer func() {
		if !loaded { // load panicked: waiters load it themselves
			c.mu.Lock()
			e.err = errPanicked
			if c.entries[e.path] == e {
				delete(c.entries, e.path)
			}
			close(e.ready)
			c.mu.Unlock()
		}
	}()
	v, size, err := load()
	loaded = true

	c.mu.Lock()
	defer c.mu.Unlock()
	defer close(e.ready)
	e.value, e.err = v, err
	if c.entries[e.path] != e { // invalidated while loading
		return v, err
	}
	if err != nil {
		delete(c.entries, e.path)
		return v, err
	}
	e.size = size
	e.elem = c.lru.PushFront(e)
	c.used += e.size
	for c.used > c.limit {
		c.remove(c.lru.Back().Value.(*entry)) // may be e itself, when it alone is over the bound
		c.stats.Evictions++
	}
	return v, nil
}

// remove drops an entry from the cache; callers waiting for it to load
// still get it. c.mu is held.
func (c *Cache) remove(e *entry) {
	if c.entries[e.path] == e {
		delete(c.entries, e.path)
	}
	if e.elem != nil {
		c.lru.Remove(e.elem)
		e.elem = nil
		c.used -= e.size
	}
}

// Stats returns the counts so far.
func (c *Cache) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.stats
	s.Entries = c.lru.Len()
	s.Bytes = c.used
	return s
}

// Size estimates the memory that parsed objects hold: each device image's
// bytes, which the zero-copy parse keeps, plus the decoded sections,
// symbols, relocations and records, which come to about 1.25 times the
// image's size over the corpus of tests/corpus (measured with
// runtime.MemStats), plus a fixed amount per object (an object may have no
// image: a host object without device code).
func Size(objs []*linker.Object) int64 {
	var n int64
	for _, obj := range objs {
		n += 512
		if obj.ELF != nil {
			data := int64(len(obj.ELF.Data))
			n += data + data*5/4
		}
	}
	return n
}
