package linker

import (
	"slices"
	"sync"

	"github.com/cudalink/cudalink/linker/cubin"
)

// layoutSections fixes the offset of every contribution in its output
// section (inputSection.outOff), the sections' sizes and alignments.
// Merged sections take their inputs in command-line order, each at its own
// alignment. Shared memory is laid out per kernel by the next step
// (layoutShared), and placeSymbols moves the symbols by these offsets.
func layoutSections(ctx *linkContext) {
	placeContributions(ctx)
}

// placeContributions fixes where each member lands in its output section
// (in member order, each at its own alignment), the sections' sizes and
// alignments, and composes the members' bytes (or copies them together).
func placeContributions(ctx *linkContext) {
	var walk inputWalk // merged sections are copied from the inputs
	for _, osec := range ctx.made {
		var size uint64
		callees := false // a kernel's bank 2 holds a callee's constants
		for _, isec := range osec.members {
			align := max(isec.sec.Addralign, 1)
			if osec.fixedOffsets {
				isec.outOff = ctx.bank2.fixedOff[isec]
				size = max(size, isec.outOff+isec.sec.Size)
				callees = callees || isec.fn == nil || !ctx.isEntry(isec.fn.sym)
			} else {
				size = alignTo(size, align)
				isec.outOff = size
				size += isec.sec.Size
			}
			osec.addralign = max(osec.addralign, align)
		}
		if end, ok := ctx.bank2.emptyEnd[osec]; ok {
			// A replaced copy's emptied constants placed past the
			// bank's last bytes (overlayConstant2) still end it.
			size = max(size, end)
			callees = true
		}
		if osec.fixedOffsets && callees {
			// A kernel's bank 2 that took callees' constants ends at its
			// alignment (overlayConstant2); one of the kernel's own
			// constants alone keeps their size (0x1c at alignment 8), as
			// nvlink 11.8 leaves it.
			size = alignTo(size, max(osec.addralign, 1))
		}
		osec.size = size
		if !cubin.HasFileData(osec.typ) {
			continue
		}
		if len(osec.members) == 1 && uint64(len(osec.members[0].sec.Data)) == size {
			// One contribution (every function's code): the output shares
			// the input's bytes until a relocation patches them.
			osec.borrow(osec.members[0].sec.Data[:size])
			continue
		}
		if ctx.composeMerged && len(osec.members) > 1 && osec.composable() {
			osec.compose(size) // the members' bytes stay theirs (sectionbytes.go)
			continue
		}
		data := make([]byte, size)
		for _, isec := range osec.members {
			walk.visit(ctx, isec.file)
			copy(data[isec.outOff:], isec.sec.Data)
		}
		osec.setBytes(data)
	}
	placeTwins(ctx) // bank-2 contributions that share a member's bytes (bank2.go)
}

func alignTo(v, a uint64) uint64 {
	if a <= 1 {
		return v
	}
	return (v + a - 1) / a * a
}

// callTree returns fn and every function it reaches, in a fixed order.
// Its walker comes from a pool, so the marks of a walk cost nothing to
// set up after the first walks, and walks may still run at once.
func callTree(fn *function) []*function {
	w := treeWalkers.Get().(*treeWalker)
	list := slices.Clone(w.walk(fn))
	treeWalkers.Put(w)
	return list
}

var treeWalkers = sync.Pool{New: func() any { return new(treeWalker) }}

// treeWalker walks call trees as callTree does, reusing its list and
// marks from one walk to the next: a pass that walks every kernel's tree
// in turn allocates them once (on the deep-chain program each pass's
// trees were 270 KB of garbage). The list walk returns is the walker's
// until its next walk.
//
// The marks are dense, by function.order, stamped with the walk's
// number, so they are never cleared between walks (as chainMarks): a
// mark costs an index, not a search (a sparse bitmap searched its words
// in order, then through a map).
//
// It walks up too, from a function to the kernels that call it
// (entriesAbove), with the same marks.
type treeWalker struct {
	list    []*function
	walkN   uint32
	marks   []uint32    // by function.order: the number of the walk that reached it
	entries []*function // entriesAbove's list
}

// begin starts a walk: no function is marked in it yet.
func (w *treeWalker) begin() {
	w.walkN++
	if w.walkN == 0 { // wrapped: old stamps could match
		clear(w.marks)
		w.walkN = 1
	}
}

func (w *treeWalker) walk(fn *function) []*function {
	w.begin()
	w.mark(fn.order)
	list := append(w.list[:0], fn)
	for i := 0; i < len(list); i++ {
		for _, c := range list[i].callees {
			if w.mark(c.order) {
				list = append(list, c)
			}
		}
	}
	w.list = list
	return list
}

// entriesAbove returns the kernels that reach fn, which is none, through
// their calls, in the order nvlink's check of register limits meets them
// (checkMaxRegs): depth first up the callers, taking the caller named
// last first, and not past a kernel. The list is the walker's until its
// next walk.
func (w *treeWalker) entriesAbove(ctx *linkContext, fn *function) []*function {
	w.begin()
	w.mark(fn.order)
	stack := append(w.list[:0], fn)
	entries := w.entries[:0]
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if ctx.isEntry(f.sym) {
			entries = append(entries, f)
			continue
		}
		// Pushed in the order named, so the latest named is taken first.
		for _, c := range f.callers {
			if w.mark(c.order) {
				stack = append(stack, c)
			}
		}
	}
	w.list, w.entries = stack, entries
	return entries
}

// mark marks n reached in this walk and says whether it was not yet.
func (w *treeWalker) mark(n int) bool {
	if n >= len(w.marks) {
		w.marks = append(w.marks, make([]uint32, n+1-len(w.marks))...)
		w.marks = w.marks[:cap(w.marks)]
	}
	if w.marks[n] == w.walkN {
		return false
	}
	w.marks[n] = w.walkN
	return true
}

// listMergeSort sorts list as nvlink's linked-list merge sort does: it
// deals the list alternately into two lists, each built by adding to its
// front, sorts both, and merges them, taking from the second only what
// goes strictly before the first's head. It is not stable: items that
// compare equal come out in an order that depends only on their number
// and places (two keep their order, three a b c give c a b).
func listMergeSort[T any](list []T, less func(a, b T) bool) []T {
	if len(list) <= 1 {
		return list
	}
	// Item i goes to the front of half i%2: position len(half)-1-i/2.
	halves := [2][]T{make([]T, (len(list)+1)/2), make([]T, len(list)/2)}
	for i, x := range list {
		h := halves[i%2]
		h[len(h)-1-i/2] = x
	}
	a, b := listMergeSort(halves[0], less), listMergeSort(halves[1], less)
	out := list[:0]
	for len(a) > 0 && len(b) > 0 {
		if less(b[0], a[0]) {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	out = append(out, a...)
	return append(out, b...)
}
