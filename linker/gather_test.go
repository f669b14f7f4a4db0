package linker

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// gatherCases are the corpus cases linked both ways by the tests below:
// many inputs, and -G and -g debug sections.
var gatherCases = []struct {
	name  string
	debug bool
}{
	{"many-files-24", false},
	{"debug-G-assert-two-files", false},
	{"debug-g-assert-two-files", true},
}

// caseCubins returns the input cubins of the corpus case name, in the
// case's order, without its expected.cubin.
func caseCubins(t *testing.T, name string) []Input {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "tests", "corpus", "cases", name, "*.cubin"))
	if err != nil {
		t.Fatal(err)
	}
	var ins []Input
	for _, p := range paths {
		if filepath.Base(p) != "expected.cubin" {
			ins = append(ins, Input{Path: p})
		}
	}
	if len(ins) < 2 {
		t.Fatalf("%s has %d input cubins", name, len(ins))
	}
	return ins
}

// TestGatheredSameBytes: a link that gathers its merged sections
// (gatherSections: the bytes dropped after relocation, rebuilt by the
// writer from the inputs and the changed runs), and one that composes
// them (never copied together: the writer assembles them from the
// members and the patches), write what the same link writes copying and
// keeping them. Only links of gatherInputBytes of inputs gather, more
// than any corpus case, so the corpus alone would never take that path:
// here the same cases are linked both ways.
func TestGatheredSameBytes(t *testing.T) {
	for _, c := range gatherCases {
		t.Run(c.name, func(t *testing.T) {
			ins := caseCubins(t, c.name)
			// linkWith links the case with merged sections copied together
			// and gathered from gatherFrom bytes of inputs, or composed
			// (compose), and counts the sections gathered or composed.
			linkWith := func(gatherFrom int, compose bool) ([]byte, int) {
				ctx := newBenchContext(ins, 80)
				ctx.config.Debug = c.debug
				ctx.gatherFrom = gatherFrom
				ctx.composeMerged = compose
				defer ctx.maps.unmapAll()
				if err := link(ctx); err != nil {
					t.Fatal(err)
				}
				n := 0
				for _, osec := range ctx.outSections {
					if osec.gathered() || osec.composed() {
						n++
					}
				}
				return ctx.output, n
			}
			kept, n := linkWith(gatherInputBytes, false)
			if n != 0 {
				t.Fatalf("a link of less than gatherInputBytes gathered %d sections", n)
			}
			gathered, n := linkWith(0, false)
			if n == 0 {
				t.Fatal("gatherFrom 0: no section was gathered")
			}
			if !bytes.Equal(kept, gathered) {
				t.Errorf("gathering %d sections changed the output (%d bytes, %d kept)", n, len(gathered), len(kept))
			}
			composed, n := linkWith(gatherInputBytes, true)
			if n == 0 {
				t.Fatal("no section was composed")
			}
			if !bytes.Equal(kept, composed) {
				t.Errorf("composing %d sections changed the output (%d bytes, %d kept)", n, len(composed), len(kept))
			}
		})
	}
}

// TestComposedInputByInput: a link written to a file with its composed
// sections written input by input (composer, from composedFrom bytes
// of inputs: composedByInputBytes, more than any corpus case) writes the
// bytes the same link writes section by section, whatever the size of
// the groups of members the composer gathers before writing them
// (composedGroup: one member a group, a few, all).
func TestComposedInputByInput(t *testing.T) {
	for _, c := range gatherCases {
		t.Run(c.name, func(t *testing.T) {
			ins := caseCubins(t, c.name)
			group := composedGroupBytes
			linkTo := func(name string, composedFrom int) ([]byte, int) {
				ctx := newBenchContext(ins, 80)
				ctx.config.Debug = c.debug
				ctx.config.Output = filepath.Join(t.TempDir(), name)
				ctx.composedFrom = composedFrom
				ctx.composedGroup = group
				defer ctx.maps.unmapAll()
				if err := link(ctx); err != nil {
					t.Fatal(err)
				}
				n := 0
				for _, osec := range ctx.outSections {
					if _, ok := osec.memberPatches(); ok && osec.composed() {
						n++
					}
				}
				out, err := os.ReadFile(ctx.config.Output)
				if err != nil {
					t.Fatal(err)
				}
				return out, n
			}
			bySection, _ := linkTo("by-section.cubin", composedByInputBytes)
			for _, group = range []int{1, 1 << 10, composedGroupBytes} {
				byInput, n := linkTo("by-input.cubin", 0)
				if n == 0 {
					t.Fatal("no composed section could be written input by input")
				}
				if !bytes.Equal(bySection, byInput) {
					t.Errorf("writing %d composed sections input by input, gathered %d bytes at a time, changed the output (%d bytes, %d section by section)", n, group, len(byInput), len(bySection))
				}
			}
		})
	}
}

// TestRelocatedByInput: a link whose composed sections are relocated
// input by input (applyRelocations' byInput: every -G and -g debug
// section merged from several inputs) writes the bytes the same link
// writes relocating each section's members one after the other (merged
// sections copied together, which byInput never takes).
func TestRelocatedByInput(t *testing.T) {
	for _, c := range gatherCases {
		t.Run(c.name, func(t *testing.T) {
			ins := caseCubins(t, c.name)
			linkWith := func(compose bool) ([]byte, int) {
				ctx := newBenchContext(ins, 80)
				ctx.config.Debug = c.debug
				ctx.composeMerged = compose
				defer ctx.maps.unmapAll()
				if err := link(ctx); err != nil {
					t.Fatal(err)
				}
				return ctx.output, ctx.relocByInput
			}
			bySection, n := linkWith(false)
			if n != 0 {
				t.Fatalf("%d sections relocated input by input with nothing composed", n)
			}
			byInput, n := linkWith(true)
			if n == 0 && c.name != "many-files-24" {
				t.Fatal("no debug section was relocated input by input")
			}
			if !bytes.Equal(bySection, byInput) {
				t.Errorf("relocating %d sections input by input changed the output (%d bytes, %d section by section)", n, len(byInput), len(bySection))
			}
		})
	}
}
