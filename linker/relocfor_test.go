package linker

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestNotedRelocSections links the corpus cases that nvlink 11.8 linked
// from inputs, -L and -l alone, and checks, before relocation, every
// output relocation section that mergeSections noted for its target
// (noteRelocSection): it must be the one relocFor would look up by name,
// .rel or .rela and the target's name (and key), so that relocation's
// patches and kept relocations go where they went when relocFor looked
// each up. Some cases must have sections noted, or the test tests nothing.
func TestNotedRelocSections(t *testing.T) {
	noted, cases := 0, 0
	for _, c := range plainCases(t) {
		ctx := c.context()
		checked := false
		ctx.config.Context = WithTestHook(context.Background(), func(pass string) {
			if pass != "apply relocations" || checked {
				return
			}
			checked = true
			for _, osec := range ctx.made {
				if osec.ext == nil {
					continue
				}
				suffix := strings.TrimPrefix(osec.key(), osec.name)
				for _, rs := range []struct {
					prefix string
					got    *outputSection
				}{{".rel", osec.ext.relOut}, {".rela", osec.ext.relaOut}} {
					if rs.got == nil {
						continue
					}
					noted++
					if want := ctx.outByName.get(rs.prefix + osec.name + suffix); rs.got != want {
						t.Errorf("%s: %s: noted %s, relocFor would find %v", c.name, osec.key(), rs.got.name, want)
					}
				}
			}
		})
		err := link(ctx)
		ctx.maps.unmapAll()
		if err != nil || !bytes.Equal(ctx.output, c.want) {
			continue // a case this Config does not link as the command line does (see TestCopyRelocations)
		}
		if !checked {
			t.Errorf("%s: linked without relocating", c.name)
		}
		cases++
	}
	t.Logf("%d cases linked as nvlink did, %d relocation sections noted", cases, noted)
	if noted < 100 {
		t.Fatalf("%d relocation sections noted in %d cases, want at least 100", noted, cases)
	}
}
