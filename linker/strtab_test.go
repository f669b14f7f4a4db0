package linker

import "testing"

// TestNameMarks: the marks of the names a table holds live in its slots,
// the others' in the map, and each name reads back exactly its own bits.
func TestNameMarks(t *testing.T) {
	var tab stringTable
	held := []string{".text.a", ".rel.text.a", ".nv.info.a", ".text.b"}
	for _, s := range held {
		tab.add(s)
	}
	for _, s := range held {
		if tab.slot(s) < 0 {
			t.Fatalf("slot(%q) = -1 for a name the table holds", s)
		}
	}
	for _, s := range []string{"", ".text", ".text.c", "text.a"} {
		if i := tab.slot(s); i >= 0 {
			t.Fatalf("slot(%q) = %d for a name the table does not hold", s, i)
		}
	}
	m := newNameMarks(&tab)
	m.mark(".text.a", 1)
	m.mark(".text.a", 4)
	m.mark(".text.c", 2) // not held: in the map
	m.markHeld(".rela.text.a", 2)
	m.markHeld(".text.b", 2)
	m.set(".nv.info.a", 3)
	want := map[string]uint8{".text.a": 5, ".rel.text.a": 0, ".nv.info.a": 3, ".text.b": 2, ".text.c": 2, ".rela.text.a": 0, "": 0}
	for name, v := range want {
		if got := m.get(name); got != v {
			t.Errorf("get(%q) = %d, want %d", name, got, v)
		}
	}
	if m.has(".text.a", 2) || !m.has(".text.a", 4) {
		t.Errorf(".text.a: has(2) %v, has(4) %v; want false, true", m.has(".text.a", 2), m.has(".text.a", 4))
	}
	if len(m.other) != 1 {
		t.Errorf("the map holds %d names, want 1 (.text.c): %v", len(m.other), m.other)
	}
}
