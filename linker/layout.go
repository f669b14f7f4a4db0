package linker

import "github.com/cudalink/cudalink/linker/cubin"

// layoutSections fixes the offset of every contribution in its output
// section, the sections' sizes and alignments, and the final value of every
// defined symbol. Merged sections take their inputs in command-line order,
// each at its own alignment; shared memory is laid out per kernel.
func layoutSections(ctx *linkContext) {
	placeContributions(ctx)
	for _, file := range ctx.Files {
		for j, sym := range file.Syms {
			if file.defines(sym, j) && sym.Section != nil && sym.Section.Out != nil && sym.Type() != cubin.STT_SECTION {
				sym.Value += sym.Section.OutOff
			}
		}
	}
	layoutShared(ctx)
}

// placeContributions fixes where each member lands in its output section
// (in member order, each at its own alignment), the sections' sizes and
// alignments, and composes the members' bytes (or copies them together).
func placeContributions(ctx *linkContext) {
	var walk inputWalk // merged sections are copied from the inputs
	for _, osec := range ctx.OutSections {
		var size uint64
		callees := false // a kernel's bank 2 holds a callee's constants
		for _, isec := range osec.Members {
			align := max(isec.Sec.Addralign, 1)
			if osec.fixedOffsets {
				isec.OutOff = ctx.bank2.fixedOff[isec]
				size = max(size, isec.OutOff+isec.Sec.Size)
				callees = callees || isec.Func == nil || !isec.Func.Sym.IsEntry()
			} else {
				size = alignTo(size, align)
				isec.OutOff = size
				size += isec.Sec.Size
			}
			osec.Addralign = max(osec.Addralign, align)
		}
		if osec.fixedOffsets && callees {
			// A kernel's bank 2 that took callees' constants ends at its
			// alignment (overlayConstant2); one of the kernel's own
			// constants alone keeps their size (0x1c at alignment 8), as
			// nvlink 11.8 leaves it.
			size = alignTo(size, max(osec.Addralign, 1))
		}
		osec.Size = size
		if !cubin.HasFileData(osec.Type) {
			continue
		}
		if len(osec.Members) == 1 && uint64(len(osec.Members[0].Sec.Data)) == size {
			// One contribution (every function's code): the output shares
			// the input's bytes until a relocation patches them.
			osec.borrow(osec.Members[0].Sec.Data[:size])
			continue
		}
		if ctx.composeMerged && len(osec.Members) > 1 && osec.composable() {
			osec.compose(size) // the members' bytes stay theirs (sectionbytes.go)
			continue
		}
		data := make([]byte, size)
		for _, isec := range osec.Members {
			walk.visit(ctx, isec.File)
			copy(data[isec.OutOff:], isec.Sec.Data)
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
// The walk's marks are its own (a bit per function.order), so walks may
// run at once. They are a sparse bitmap: a tree is a few functions spread
// over the link's thousands, and a dense one, as long as the highest
// order in the tree, made every walk cost the number of functions in the
// link / 64 (kernels x functions / 64 a pass: the part of the large
// program's link that grew fastest from 400 to 1,600 objects).
func callTree(fn *function) []*function {
	var w treeWalker
	return w.walk(fn)
}

// treeWalker walks call trees as callTree does, reusing its list and
// marks from one walk to the next: a pass that walks every kernel's tree
// in turn allocates them once (on the deep-chain program each pass's
// trees were 270 KB of garbage). The list walk returns is the walker's
// until its next walk.
type treeWalker struct {
	list []*function
	seen sparseBits
}

func (w *treeWalker) walk(fn *function) []*function {
	w.seen.reset()
	w.seen.mark(fn.order)
	list := append(w.list[:0], fn)
	for i := 0; i < len(list); i++ {
		for _, c := range list[i].Callees {
			if w.seen.mark(c.order) {
				list = append(list, c)
			}
		}
	}
	w.list = list
	return list
}

// sparseBits is a set of small integers kept as the 64-bit words that
// have a bit set: searched in order while there are few, through a map
// once there are more.
type sparseBits struct {
	at      []int    // the words' indices (n/64)
	bits    []uint64 // their bits
	index   map[int]int
	indexed bool // index holds at's words
}

// reset empties the set, keeping its storage.
func (s *sparseBits) reset() {
	s.at, s.bits = s.at[:0], s.bits[:0]
	if s.indexed {
		clear(s.index)
		s.indexed = false
	}
}

// sparseBitsScan is how many words sparseBits searches in order before
// it indexes them.
const sparseBitsScan = 16

// mark adds n to the set and says whether it was not in it.
func (s *sparseBits) mark(n int) bool {
	w, b := n/64, uint64(1)<<(n%64)
	i := -1
	if s.indexed {
		if j, ok := s.index[w]; ok {
			i = j
		}
	} else {
		for j, x := range s.at {
			if x == w {
				i = j
				break
			}
		}
	}
	if i < 0 {
		i = len(s.at)
		s.at = append(s.at, w)
		s.bits = append(s.bits, 0)
		switch {
		case s.indexed:
			s.index[w] = i
		case len(s.at) > sparseBitsScan:
			if s.index == nil {
				s.index = make(map[int]int, 2*len(s.at))
			}
			for j, x := range s.at {
				s.index[x] = j
			}
			s.indexed = true
		}
	}
	if s.bits[i]&b != 0 {
		return false
	}
	s.bits[i] |= b
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
