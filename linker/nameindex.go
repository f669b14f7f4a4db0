package linker

import (
	"hash/maphash"
	"slices"
)

// hasKey is what a nameIndex holds: an entry that knows its own key, so
// the index need not keep the key beside it.
type hasKey interface{ key() string }

// nameIndex finds entries by key and keeps them in insertion order. It
// takes the place of a map from key to entry for the tens of thousands
// of section keys of a large link, which live until the output is
// written: like stringTable, it spends 5 bytes a slot on top of the
// entries themselves, where a Go map spends 25-55 bytes an entry. The
// zero value is an empty index.
type nameIndex[E hasKey] struct {
	entries []E      // in insertion order
	slots   []uint32 // 1 + the index in entries of an entry, 0 for an empty slot; a power of two long
	// tags holds a byte of the hash of each slot's key: a probe reads the
	// entry (a cache miss in a large link) only when the tag matches.
	tags []uint8
	seed maphash.Seed
}

func (x *nameIndex[E]) len() int { return len(x.entries) }

// get returns the entry with this key, or the zero E (nil for a pointer)
// if there is none.
func (x *nameIndex[E]) get(key string) E {
	if i := x.index(key); i >= 0 {
		return x.entries[i]
	}
	var zero E
	return zero
}

// index returns where the entry with this key is in insertion order, or
// -1 if there is none.
func (x *nameIndex[E]) index(key string) int {
	if len(x.slots) == 0 {
		return -1
	}
	i, _ := x.find(key)
	return int(x.slots[i]) - 1
}

// put adds e, or puts it in the place of the entry with the same key.
func (x *nameIndex[E]) put(e E) {
	if i, tag := x.slot(e.key()); x.slots[i] != 0 {
		x.entries[x.slots[i]-1] = e
	} else {
		x.entries = append(x.entries, e)
		x.slots[i], x.tags[i] = uint32(len(x.entries)), tag
	}
}

// add adds e unless an entry has its key, and says whether it did: one
// probe where index then put would take two.
func (x *nameIndex[E]) add(e E) bool {
	i, tag := x.slot(e.key())
	if x.slots[i] != 0 {
		return false
	}
	x.entries = append(x.entries, e)
	x.slots[i], x.tags[i] = uint32(len(x.entries)), tag
	return true
}

// slot returns find's slot and tag for key, with room made first for one
// more entry.
func (x *nameIndex[E]) slot(key string) (int, uint8) {
	if 4*(len(x.entries)+1) > 3*len(x.slots) {
		// Twice the slots. (Sized for 2(n+1) entries and rounded up to a
		// power of two, they were often four times as many.)
		x.rehash(len(x.entries) + 1)
	}
	return x.find(key)
}

// find returns the slot that holds the entry with this key, or the empty
// slot where it would go, and the key's tag. Slots are at most three
// quarters full (see put), which keeps probe runs short and guarantees an
// empty slot.
func (x *nameIndex[E]) find(key string) (int, uint8) {
	mask := len(x.slots) - 1
	h := maphash.String(x.seed, key)
	i, tag := int(h)&mask, uint8(h>>56)
	for ; x.slots[i] != 0; i = (i + 1) & mask {
		if x.tags[i] == tag && x.entries[x.slots[i]-1].key() == key {
			break
		}
	}
	return i, tag
}

// reserve makes room for n entries in all without growing the list of
// entries: for a link that never collects garbage (collectorState.off),
// where each array the list outgrows stays resident.
func (x *nameIndex[E]) reserve(n int) {
	x.entries = slices.Grow(x.entries, n-len(x.entries))
}

// rehash sizes slots for n entries at most three quarters full and
// re-enters every entry. Growing by doubling rather than sizing for every
// input section up front keeps the slots about the size of what they
// index: most input sections share an output section or a name.
func (x *nameIndex[E]) rehash(n int) {
	size := 64
	for 3*size < 4*n {
		size *= 2
	}
	if size <= len(x.slots) {
		return
	}
	if len(x.slots) == 0 {
		x.seed = maphash.MakeSeed()
	}
	x.slots, x.tags = make([]uint32, size), make([]uint8, size)
	mask := size - 1
	for j, e := range x.entries {
		h := maphash.String(x.seed, e.key())
		i := int(h) & mask
		for x.slots[i] != 0 {
			i = (i + 1) & mask
		}
		x.slots[i], x.tags[i] = uint32(j+1), uint8(h>>56)
	}
}
