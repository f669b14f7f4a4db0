package linker

import "testing"

// TestNameTablesSizedOnce checks that registerNames sizes the string
// tables and the created sections' index once, for half of the inputs'
// names, in a link whose collector is on (the worker's, a large one's),
// as in one whose collector is off: grown by doubling instead, they
// re-read and re-hashed every name added so far at each step (6 steps on
// the large 400-object benchmark program, perf36).
func TestNameTablesSizedOnce(t *testing.T) {
	ins, sm := benchInputs(t)
	ctx := newBenchContext(ins, sm) // not one-shot: the collector stays on
	defer ctx.maps.unmapAll()
	passes := benchPasses()
	runPasses(t, ctx, passes, 4) // load, resolve, functions, names
	if passes[3].name != "names" {
		t.Fatalf("pass 4 is %s, not names", passes[3].name)
	}
	if ctx.gc.off {
		t.Fatal("the collector is off: the link is one-shot")
	}
	var sections, symbols int
	for _, file := range ctx.files {
		sections += len(file.ELF.Sections)
		symbols += len(file.ELF.Symbols)
	}
	// At most three quarters of the slots are used (stringTable.full).
	for _, c := range []struct {
		table       string
		slots, want int
	}{
		{"strtab", len(ctx.strtab.slots), (sections + symbols) / 2},
		{"shstrtab", len(ctx.names.shstrtab.slots), sections / 2},
		{"created sections", len(ctx.names.secOrder.slots), sections / 2},
	} {
		if 3*c.slots < 4*c.want {
			t.Errorf("%s: %d slots, want room for %d names (%d sections, %d symbols)", c.table, c.slots, c.want, sections, symbols)
		}
	}
}
