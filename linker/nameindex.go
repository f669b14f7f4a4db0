package linker

import "hash/maphash"

// hasKey is what a nameIndex holds: an entry that knows its own key, so
// the index need not keep the key beside it.
type hasKey interface{ key() string }

// nameIndex finds entries by key and keeps them in insertion order. It
// takes the place of a map from key to entry for the tens of thousands
// of section keys of a large link, which live until the output is
// written: like stringTable, it spends 4 bytes a slot on top of the
// entries themselves, where a Go map spends 25-55 bytes an entry. The
// zero value is an empty index.
type nameIndex[E hasKey] struct {
	entries []E      // in insertion order
	slots   []uint32 // 1 + the index in entries of an entry, 0 for an empty slot; a power of two long
	seed    maphash.Seed
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
	return int(x.slots[x.find(key)]) - 1
}

// put adds e, or puts it in the place of the entry with the same key.
func (x *nameIndex[E]) put(e E) {
	if i := x.slot(e.key()); x.slots[i] != 0 {
		x.entries[x.slots[i]-1] = e
	} else {
		x.entries = append(x.entries, e)
		x.slots[i] = uint32(len(x.entries))
	}
}

// add adds e unless an entry has its key, and says whether it did: one
// probe where index then put would take two.
func (x *nameIndex[E]) add(e E) bool {
	i := x.slot(e.key())
	if x.slots[i] != 0 {
		return false
	}
	x.entries = append(x.entries, e)
	x.slots[i] = uint32(len(x.entries))
	return true
}

// slot returns find's slot for key, with room made first for one more
// entry.
func (x *nameIndex[E]) slot(key string) int {
	if 4*(len(x.entries)+1) > 3*len(x.slots) {
		x.rehash(2 * (len(x.entries) + 1))
	}
	return x.find(key)
}

// find returns the slot that holds the entry with this key, or the empty
// slot where it would go. Slots are at most three quarters full (see
// put), which keeps probe runs short and guarantees an empty slot.
func (x *nameIndex[E]) find(key string) int {
	mask := len(x.slots) - 1
	i := int(maphash.String(x.seed, key)) & mask
	for ; x.slots[i] != 0; i = (i + 1) & mask {
		if x.entries[x.slots[i]-1].key() == key {
			break
		}
	}
	return i
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
	x.slots = make([]uint32, size)
	mask := size - 1
	for j, e := range x.entries {
		i := int(maphash.String(x.seed, e.key())) & mask
		for x.slots[i] != 0 {
			i = (i + 1) & mask
		}
		x.slots[i] = uint32(j + 1)
	}
}
