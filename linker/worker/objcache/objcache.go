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

// entry is one file's parsed objects, for one digest.
type entry struct {
	path, digest string
	objs         []*linker.Object
	size         int64
	elem         *list.Element // in Cache.lru once loaded
	ready        chan struct{} // closed when loading ended
	err          error         // of the load; failed loads are not kept
}

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
	if digest == "" || c.limit <= 0 {
		c.mu.Lock()
		c.stats.Uncached++
		c.mu.Unlock()
		return load()
	}
	for {
		c.mu.Lock()
		e := c.entries[path]
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
			return e.objs, nil
		}
		c.mu.Unlock()
		<-e.ready // another caller is loading it
		if e.err == nil {
			c.mu.Lock()
			c.stats.Hits++
			c.mu.Unlock()
			return e.objs, nil
		}
		// That load failed (it may have been cancelled): try ourselves.
	}
	e := &entry{path: path, digest: digest, ready: make(chan struct{})}
	c.entries[path] = e
	c.stats.Misses++
	c.mu.Unlock()

	objs, err := load()

	c.mu.Lock()
	defer c.mu.Unlock()
	defer close(e.ready)
	e.objs, e.err = objs, err
	if c.entries[e.path] != e { // invalidated while loading
		return objs, err
	}
	if err != nil {
		delete(c.entries, e.path)
		return objs, err
	}
	e.size = Size(objs)
	e.elem = c.lru.PushFront(e)
	c.used += e.size
	for c.used > c.limit {
		c.remove(c.lru.Back().Value.(*entry)) // may be e itself, when it alone is over the bound
		c.stats.Evictions++
	}
	return objs, nil
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
