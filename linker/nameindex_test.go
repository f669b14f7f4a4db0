package linker

import (
	"strconv"
	"testing"
)

// TestNameIndex: entries are found by key in insertion order through
// several rehashes, a missing key finds nothing, and a put under an
// existing key replaces that entry in its place.
func TestNameIndex(t *testing.T) {
	var x nameIndex[*outputSection]
	if x.get(".text") != nil || x.index(".text") != -1 || x.len() != 0 {
		t.Fatal("the zero index is not empty")
	}
	const n = 5000
	for i := range n {
		osec := &outputSection{name: ".text.f" + strconv.Itoa(i)}
		if i%3 == 0 {
			osec.more().key = osec.name + "\x00" + strconv.Itoa(i)
		}
		x.put(osec)
	}
	if x.len() != n {
		t.Fatalf("len = %d, want %d", x.len(), n)
	}
	for i, osec := range x.entries {
		if got := x.index(osec.key()); got != i {
			t.Fatalf("index(%q) = %d, want %d", osec.key(), got, i)
		}
	}
	if x.get(".text.f3") != nil {
		t.Error("found a section by the name its key differs from")
	}
	old := x.entries[7]
	repl := &outputSection{name: old.name}
	x.put(repl)
	if x.len() != n || x.get(old.key()) != repl || x.entries[7] != repl {
		t.Error("put under an existing key did not replace the entry in its place")
	}

	var keys nameIndex[createdSection]
	keys.put(".nv.info")
	keys.put(".text.f")
	if keys.index(".text.f") != 1 || keys.index(".text.g") != -1 {
		t.Error("section keys out of order")
	}
}

// TestNameIndexAdd: add adds only a key not yet in, in insertion order,
// and leaves the entry that has the key in place.
func TestNameIndexAdd(t *testing.T) {
	var x nameIndex[*outputSection]
	first := &outputSection{name: ".text.f"}
	if !x.add(first) || !x.add(&outputSection{name: ".text.g"}) {
		t.Fatal("add refused a new key")
	}
	if x.add(&outputSection{name: ".text.f"}) {
		t.Error("add took a key already in")
	}
	if x.len() != 2 || x.get(".text.f") != first || x.index(".text.g") != 1 {
		t.Error("add changed the entries")
	}
}
