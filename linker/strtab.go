package linker

import (
	"bytes"
	"hash/maphash"
)

// stringTable builds an ELF string table; equal strings share one entry.
// Strings are found again through an open-addressing table of their
// offsets in buf (5 bytes a slot, against some 25 for a map keyed by the
// string): the tables of a large link hold tens of thousands of names.
type stringTable struct {
	buf   []byte
	slots []uint32 // offsets of the strings in buf, 0 for an empty slot; a power of two long
	// tags holds a byte of the hash of each slot's string: a probe reads
	// buf (a cache miss in a large link) only when the tag matches.
	tags []uint8
	n    int // strings in slots
	seed maphash.Seed
	// empty is where an empty string was added as a name of its own (the
	// placeholder's, addPlaceholder): nvlink finds that one for "", not
	// the NUL at 0.
	empty uint32
}

// reserve makes room in buf for strings of about bytes bytes in all. (The
// slots grow as strings come: sized for every name of every input, they
// would be several times too many, since names repeat across inputs; a
// link with the collector off sizes them for half, registerNames.)
func (t *stringTable) reserve(bytes int) {
	if t.buf == nil {
		t.buf = make([]byte, 1, bytes+1)
	}
}

// compact gives back the room reserve set aside beyond the strings,
// once (nearly) every string is in. Giving it back means a copy, which
// is only worth its transient cost when more than a quarter of the room
// is unused (names repeated across inputs): a large link's two tables
// hold about 2 MB.
func (t *stringTable) compact() {
	if 4*(cap(t.buf)-len(t.buf)) > cap(t.buf) {
		t.buf = clipped(t.buf)
	}
}

// full says whether slots is too full to take one more string: at most
// three quarters of them are used, which keeps probe runs short.
func (t *stringTable) full() bool {
	return 4*(t.n+1) > 3*len(t.slots)
}

// rehash sizes slots for n strings at most three quarters full and
// re-enters every string added so far.
func (t *stringTable) rehash(n int) {
	size := 1024
	for 3*size < 4*n {
		size *= 2
	}
	if size <= len(t.slots) {
		return
	}
	old := t.slots
	t.slots, t.tags = make([]uint32, size), make([]uint8, size)
	if len(old) == 0 {
		t.seed = maphash.MakeSeed()
	}
	mask := len(t.slots) - 1
	for _, off := range old {
		if off == 0 {
			continue
		}
		h := maphash.Bytes(t.seed, t.at(off))
		i := int(h) & mask
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i], t.tags[i] = off, uint8(h>>56)
	}
}

// holds says whether the string at off in buf is s.
func (t *stringTable) holds(off uint32, s string) bool {
	end := int(off) + len(s)
	return end < len(t.buf) && t.buf[end] == 0 && string(t.buf[off:end]) == s
}

// at returns the string at off in buf, without its NUL.
func (t *stringTable) at(off uint32) []byte {
	b := t.buf[off:]
	return b[:bytes.IndexByte(b, 0)]
}

func (t *stringTable) add(s string) uint32 {
	if t.buf == nil {
		t.buf = []byte{0}
	}
	if s == "" {
		return t.empty
	}
	if t.full() {
		// Twice the slots. (Sized for 2(n+1) strings and rounded up to a
		// power of two, they were often four times as many.)
		t.rehash(t.n + 1)
	}
	// maphash.String hashes as maphash.Bytes does the same bytes.
	mask := len(t.slots) - 1
	h := maphash.String(t.seed, s)
	i, tag := int(h)&mask, uint8(h>>56)
	for ; t.slots[i] != 0; i = (i + 1) & mask {
		if off := t.slots[i]; t.tags[i] == tag && t.holds(off, s) {
			return off
		}
	}
	off := uint32(len(t.buf))
	t.buf = append(append(t.buf, s...), 0)
	t.slots[i], t.tags[i] = off, tag
	t.n++
	return off
}

// slot returns the index in slots of s, -1 if s is not in the table (or
// is empty). The index stays valid until the next string is added.
func (t *stringTable) slot(s string) int {
	if s == "" || len(t.slots) == 0 {
		return -1
	}
	mask := len(t.slots) - 1
	h := maphash.String(t.seed, s)
	i, tag := int(h)&mask, uint8(h>>56)
	for ; t.slots[i] != 0; i = (i + 1) & mask {
		if off := t.slots[i]; t.tags[i] == tag && t.holds(off, s) {
			return i
		}
	}
	return -1
}

// nameMarks keeps a few bits for each of a set of names, most of them a
// stringTable's: a byte per slot of the table, and a map for the names
// the table does not hold. A map keyed by the names would take some 25
// bytes a name more (docs/benchmarks.md, perf27: compactStrings' four
// maps were 0.48 of the 0.76 MB a 12.x link of 100 flat objects
// allocates beyond an 11.8 link, its collector off). The table must not
// change while the marks are in use.
type nameMarks struct {
	t     *stringTable
	marks []uint8
	other map[string]uint8
}

func newNameMarks(t *stringTable) nameMarks {
	return nameMarks{t: t, marks: make([]uint8, len(t.slots))}
}

// get returns name's bits.
func (m *nameMarks) get(name string) uint8 {
	if i := m.t.slot(name); i >= 0 {
		return m.marks[i]
	}
	return m.other[name]
}

// set gives name the bits v (replacing the ones it had).
func (m *nameMarks) set(name string, v uint8) {
	if i := m.t.slot(name); i >= 0 {
		m.marks[i] = v
		return
	}
	if m.other == nil {
		m.other = map[string]uint8{}
	}
	m.other[name] = v
}

// markHeld adds the bits v to name's if the table holds name, for bits
// only the table's names are asked for.
func (m *nameMarks) markHeld(name string, v uint8) {
	if i := m.t.slot(name); i >= 0 {
		m.marks[i] |= v
	}
}

// has says whether name has any of the bits v.
func (m *nameMarks) has(name string, v uint8) bool { return m.get(name)&v != 0 }

// mark adds the bits v to name's.
func (m *nameMarks) mark(name string, v uint8) {
	if i := m.t.slot(name); i >= 0 {
		m.marks[i] |= v
		return
	}
	if m.other == nil {
		m.other = map[string]uint8{}
	}
	m.other[name] |= v
}
