//go:build unix

package linker

import (
	"bytes"
	"testing"
)

// TestCopyRelocations links the corpus cases that nvlink 11.8 linked from
// inputs, -L and -l alone, with their inputs mapped (as a link of 4 to 32
// MiB maps them) and their relocation sections copied out of the mappings
// (copyRelocations), which the corpus's own small links do not do: each
// output must still be nvlink's, and no relocation section of a cubin read
// from a file may be left in a mapping. Some cases must have relocations
// copied, or the test tests nothing.
func TestCopyRelocations(t *testing.T) {
	linked, copied := 0, 0
	for _, c := range plainCases(t) {
		ctx := c.context()
		ctx.maps.copyRelocs = true
		err := link(ctx)
		if err != nil || !bytes.Equal(ctx.output, c.want) {
			// A case this test's Config does not link as the command
			// line does (see TestUnusedCodeReleased): TestCorpus links
			// it. Linked as it is without copying, it must give the
			// same.
			ctx.maps.unmapAll()
			plain := c.context()
			perr := link(plain)
			plain.maps.unmapAll()
			if (perr == nil) != (err == nil) || !bytes.Equal(plain.output, ctx.output) {
				t.Errorf("%s: with relocations copied %d bytes (%v), without %d bytes (%v)", c.name, len(ctx.output), err, len(plain.output), perr)
			}
			continue
		}
		linked++
		n := 0
		for _, file := range ctx.files {
			for _, rs := range file.ELF.Relocs {
				if len(rs.Section.Data) == 0 {
					continue
				}
				ctx.maps.mu.Lock()
				mp := ctx.maps.find(rs.Section.Data)
				ctx.maps.mu.Unlock()
				if mp != nil && !ctx.maps.inArena(rs.Section.Data) {
					t.Errorf("%s: %s: %s left in the file's mapping", c.name, file.Name, rs.Section.Name)
				}
				n++
			}
		}
		if n > 0 {
			copied++
		}
		ctx.maps.unmapAll()
	}
	t.Logf("%d cases linked as nvlink did, %d of them with relocations copied", linked, copied)
	if copied < 50 {
		t.Fatalf("%d of %d cases had relocations copied, want at least 50", copied, linked)
	}
}
