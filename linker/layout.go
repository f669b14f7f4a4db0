package linker

import (
	"slices"

	"github.com/cudalink/cudalink/linker/cubin"
)

// layoutSections fixes the offset of every contribution in its output
// section, the sections' sizes and alignments, and the final value of every
// defined symbol. Merged sections take their inputs in command-line order,
// each at its own alignment; shared memory is laid out per kernel.
func layoutSections(ctx *linkContext) {
	placeContributions(ctx)
	if c3 := ctx.outByName.get(".nv.constant3"); ctx.remergesConstants() && len(c3.Members) > 0 {
		// When it prunes kernels or variables, nvlink merges the
		// __constant__ data again (TEMP_MERGED_CONSTANTS, see finishNames)
		// and leaves the offset of the last input's contribution in the
		// null symbol's st_value.
		ctx.null.lastConstant, ctx.null.remerged = c3.Members[len(c3.Members)-1].OutOff, true
	}
	for _, file := range ctx.Files {
		for _, sym := range file.Syms {
			if sym != nil && sym.File == file && sym.Section != nil && sym.Section.Out != nil &&
				sym.Type() != cubin.STT_SECTION && !sym.laidOut {
				sym.Value += sym.Section.OutOff
				sym.laidOut = true
			}
		}
	}
	layoutShared(ctx)
}

// placeContributions fixes where each member lands in its output section
// (in member order, each at its own alignment), the sections' sizes and
// alignments, and copies the members' bytes.
func placeContributions(ctx *linkContext) {
	var walk inputWalk // merged sections are copied from the inputs
	for _, osec := range ctx.OutSections {
		var size uint64
		for _, isec := range osec.Members {
			align := max(isec.Sec.Addralign, 1)
			if osec.fixedOffsets {
				isec.OutOff = ctx.bank2.fixedOff[isec]
				size = max(size, isec.OutOff+isec.Sec.Size)
			} else {
				size = alignTo(size, align)
				isec.OutOff = size
				size += isec.Sec.Size
			}
			osec.Addralign = max(osec.Addralign, align)
		}
		if osec.fixedOffsets {
			// A kernel's bank 2 ends at its alignment (overlayConstant2).
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
		data := make([]byte, size)
		for _, isec := range osec.Members {
			walk.visit(ctx, isec.File)
			copy(data[isec.OutOff:], isec.Sec.Data)
		}
		osec.setBytes(data)
	}
	for _, isec := range ctx.bank2.twins {
		if twin := ctx.bank2.twinOf[isec]; twin != nil { // else it landed in another kernel's bank last, as a member
			isec.OutOff = twin.OutOff
		}
	}
}

// sharedReserve90 is the shared memory sm_90 reserves in every kernel.
const sharedReserve90 = 0x400

func alignTo(v, a uint64) uint64 {
	if a <= 1 {
		return v
	}
	return (v + a - 1) / a * a
}

// sharedObject is one variable in shared memory.
type sharedObject struct {
	sym         *symbol
	file, index int // defining file and symbol index
	rank        int // place in nvlink's order of function-level objects
	align, size uint64
	unused      bool // no function's code refers to it
	extern      bool // an extern __shared__ array, only sorted with the others
}

// layoutShared lays out shared memory as nvlink does.
//
// A function-level variable (.nv_debug.shared in the inputs: statics of
// device functions and templates, file-scope __shared__) that several
// kernels reach is global: it gets one module-wide offset, largest first
// in the order of nvlink's list merge sort (listMergeSort), at the first
// offset nvlink tries where it overlaps no global sharing a kernel with
// it. One that a single kernel reaches is private to that kernel and is
// laid out with the kernel's own variables: its own in symbol order, then
// its private ones in the global order, sorted by decreasing alignment and
// then increasing size, after the highest end of the global variables its
// call tree uses. Dynamic (extern __shared__) memory starts after that,
// aligned to 16; kernels whose call trees share a function that uses it
// start it at the same offset, the highest of theirs.
//
// With debug information (-g), every kernel that uses dynamic memory
// starts it at one module-wide offset, and layoutDebugShared publishes the
// global variables in an output .nv_debug.shared.
func layoutShared(ctx *linkContext) {
	// Function-level objects, with their alignment (st_value) and size.
	objects := map[*symbol]*sharedObject{}
	var ordered []*sharedObject
	var moduleAlign uint64
	externs := map[*symbol]bool{}
	for fi, file := range ctx.Files {
		for _, isec := range file.Sections {
			if classify(isec.Sec) == classShared {
				moduleAlign = max(moduleAlign, isec.Sec.Addralign)
			}
		}
		for j, esym := range file.ELF.Symbols {
			sym := file.Syms[j]
			if sym == nil || esym.Type() == cubin.STT_SECTION {
				continue
			}
			if !sym.Defined() && sym.space() == cubin.STO_CUDA_SHARED {
				// An extern __shared__ array has no room of its own,
				// but nvlink sorts it with the objects (size 0, where
				// its name first appears), which moves the others.
				if !externs[sym] {
					externs[sym] = true
					ordered = append(ordered, &sharedObject{sym: sym, file: fi, index: j, align: 1, extern: true})
				}
				continue
			}
			if int(esym.Shndx) >= len(file.Sections) || esym.Shndx == 0 || classify(file.Sections[esym.Shndx].Sec) != classShared {
				continue
			}
			o := &sharedObject{sym: sym, file: fi, index: j, align: max(esym.Value, 1), size: esym.Size}
			objects[o.sym] = o
			ordered = append(ordered, o)
		}
	}
	uses := map[*function][]*symbol{} // shared objects a function's code references
	var walk inputWalk                // relocations are read from the inputs
	for _, fn := range ctx.Funcs {
		walk.visit(ctx, fn.Text.File)
		for _, isec := range append([]*inputSection{fn.Text}, fn.Sections...) {
			for r := range isec.Relocs() {
				sym := isec.File.Syms[r.Sym]
				if sym != nil && sym.Other&cubin.STO_CUDA_SPACE_MASK == cubin.STO_CUDA_SHARED {
					uses[fn] = appendSymOnce(uses[fn], sym)
				}
			}
		}
	}
	// Which kernels reach each function-level object.
	var kernels []*function
	trees := map[*function][]*function{}
	reach := map[*symbol][]*function{}
	for _, k := range ctx.Funcs {
		if k.Sym.demoted {
			// A kernel -preserve-relocs keeps as a function: nvlink
			// still lays out its own shared memory as a kernel's, alone
			// (its own variables, dynamic shared memory after them).
			trees[k] = []*function{k}
			continue
		}
		if !k.Sym.IsEntry() {
			continue
		}
		kernels = append(kernels, k)
		trees[k] = callTree(k)
		for _, fn := range trees[k] {
			for _, sym := range uses[fn] {
				if objects[sym] != nil {
					reach[sym] = appendOnce(reach[sym], k)
				}
			}
		}
	}
	// nvlink sorts the function-level objects (inputs in order, each in
	// symbol order) by increasing size with its list merge sort, then
	// takes them from the last: largest first, whatever the files, call
	// order or alignment (the shared-function-objects-by-size case).
	// Size, not file order, is what lays out a partially linked input
	// (-r) as its inputs were.
	ordered = listMergeSort(ordered, func(a, b *sharedObject) bool { return a.size < b.size })
	slices.Reverse(ordered)
	used := map[*symbol]bool{}
	for _, syms := range uses {
		for _, sym := range syms {
			used[sym] = true
		}
	}
	// When some object the code of any function (live or not) refers to
	// is not private to one kernel, nvlink keeps a module-wide
	// .nv_debug.shared, aligned like the inputs' largest, and every
	// kernel's shared memory takes that alignment too. Otherwise a
	// kernel's section is aligned only as its own objects need.
	kept := false
	for _, fn := range ctx.allFuncs {
		if kept {
			break
		}
		walk.visit(ctx, fn.Text.File)
		for _, isec := range append([]*inputSection{fn.Text}, fn.Sections...) {
			for r := range isec.Relocs() {
				sym := isec.File.Syms[r.Sym]
				if sym != nil && objects[sym] != nil && len(reach[sym]) != 1 {
					kept = true
				}
			}
		}
	}
	g := &ctx.sharedGlobals
	var placed []*sharedObject // objects several kernels reach, laid out
	for i, o := range ordered {
		o.rank = i
		if o.extern || len(reach[o.sym]) == 1 {
			continue // private: laid out with its kernel
		}
		// nvlink tries 0, then the end of each object laid out before it
		// (whatever its kernels), in the order they were laid out, when
		// higher than the last offset tried, and takes the first where it
		// overlaps no object that shares a kernel with it (nor ends right
		// where one starts). One no kernel reaches (its functions kept by
		// -g or -preserve-relocs only) goes at 0.
		var busy []*sharedObject
		for _, p := range placed {
			if sharesKernel(reach[o.sym], reach[p.sym]) {
				busy = append(busy, p)
			}
		}
		fits := func(at uint64) bool {
			for _, p := range busy {
				if at+o.size >= p.sym.Value && at < p.sym.sharedEnd {
					return false
				}
			}
			return true
		}
		at := alignTo(0, o.align)
		for _, p := range placed {
			if fits(at) {
				break
			}
			at = max(at, alignTo(p.sym.sharedEnd, o.align)) // the last is past them all
		}
		placed = append(placed, o)
		o.sym.Value, o.sym.laidOut = at, true
		o.sym.sharedEnd = at + o.size
		o.unused = !used[o.sym]
		if !o.unused {
			g.end = max(g.end, at+o.size) // one no code uses takes no room
		}
		g.objects = append(g.objects, o)
	}
	g.align = moduleAlign
	laidOut := slices.Clone(kernels) // the kernels, then the demoted ones
	for _, k := range ctx.Funcs {
		if k.Sym.demoted {
			laidOut = append(laidOut, k)
		}
	}
	for _, k := range laidOut {
		var start uint64
		var align uint64
		if kept {
			align = moduleAlign
		}
		dynamic := false
		var private []sharedObject
		seen := map[*symbol]bool{}
		for _, fn := range trees[k] {
			for _, sym := range uses[fn] {
				o := objects[sym]
				switch {
				case !sym.Defined():
					dynamic = true
				case o == nil:
				case len(reach[sym]) == 1:
					if !seen[sym] {
						seen[sym] = true
						private = append(private, *o)
					}
				default:
					start = max(start, sym.sharedEnd)
				}
			}
		}
		var own *inputSection
		for _, isec := range k.Sections {
			if isec.Sec.Type == cubin.SHT_CUDA_SHARED {
				own = isec
			}
		}
		// The kernel's own variables in symbol order, then its private
		// ones in nvlink's order of function-level objects, sorted by
		// decreasing alignment and then increasing size.
		var objs []sharedObject
		if own != nil {
			file := own.File
			for j, esym := range file.ELF.Symbols {
				if esym.Shndx == own.Sec.Index && esym.Type() != cubin.STT_SECTION && file.Syms[j] != nil {
					objs = append(objs, sharedObject{sym: file.Syms[j], align: max(esym.Value, 1), size: esym.Size})
				}
			}
		}
		slices.SortFunc(private, func(a, b sharedObject) int { return a.rank - b.rank })
		objs = append(objs, private...)
		objs = listMergeSort(objs, func(a, b sharedObject) bool {
			return a.align > b.align || a.align == b.align && a.size < b.size
		})
		end := start
		if own != nil && own.File.ELF.Header.Type == cubin.ET_CUDA_EWP {
			// A -ewp image lays out its kernels' shared memory itself and
			// names no variable in it: the section's size and alignment
			// are the layout.
			end = max(end, own.Sec.Size)
			align = max(align, own.Sec.Addralign)
		}
		for _, o := range objs {
			end = alignTo(end, o.align)
			if o.sym.File == nil || o.sym.File.ELF.Header.Type != cubin.ET_CUDA_EWP {
				// (The variables -G names in a -ewp image's section, which
				// is already laid out, take room after it once more, but
				// nvlink leaves their st_value as it was.)
				o.sym.Value = end
			}
			o.sym.laidOut = true
			o.sym.sharedEnd = end + o.size
			end += o.size
			align = max(align, o.align)
		}
		if dynamic {
			end = alignTo(end, 16)
			align = max(align, 16)
		}
		k.sharedSize, k.dynOffset, k.usesDynamic = end, end, dynamic
		k.sharedOwn, k.sharedAlign = own, align
		for _, o := range private {
			k.sharedPrivate = append(k.sharedPrivate, o.sym)
		}
	}
	unifyDynamicShared(ctx, kernels, trees, uses)
	for _, k := range laidOut {
		end, own, align := k.sharedSize, k.sharedOwn, k.sharedAlign
		if own == nil && end == 0 && !k.usesDynamic {
			continue
		}
		if own == nil {
			osec := ctx.outSection(ctx.names.funcKey(k, ".nv.shared."+k.Sym.Name), cubin.SHT_NOBITS, cubin.SHF_WRITE|cubin.SHF_ALLOC)
			osec.Func = k
			own = &inputSection{File: k.Text.File, Sec: &cubin.Section{Name: osec.Name, Info: uint32(k.Text.Sec.Index)}, Out: osec, Func: k}
		}
		if r := ctx.sharedReserve(); r > 0 && !(end == 0 && own.File.ELF.Header.Type == cubin.ET_CUDA_EWP) {
			// A -ewp image's kernel without shared memory gets none. One
			// with some names no variable there: nvlink moves "them" by
			// the reserve through symbol 0, whose st_value grows by it.
			if own.File.ELF.Header.Type == cubin.ET_CUDA_EWP {
				ctx.null.ewpReserves += r
			}
			end += r
			k.sharedSize = end
		}
		own.Out.Size = end
		own.Out.Addralign = max(align, 1)
		if ctx.Config.PreserveRelocs {
			// -preserve-relocs keeps the symbols of the function-level
			// variables private to the kernel, in the kernel's section.
			for _, sym := range k.sharedPrivate {
				sym.Section = &inputSection{File: sym.File, Sec: sym.Section.Sec, Out: own.Out}
				sym.debugShared, sym.preservedShared = true, true
			}
		}
		if own.Out.Size == 0 {
			own.Out.synthetic = true // nvlink names an empty one with no section symbol
		}
	}
	if anyDynamic(ctx) && !(kept && moduleAlign > 16) {
		// nvlink writes an empty .nv_debug.shared when dynamic shared
		// memory is used, unless it keeps one module-wide (see kept)
		// aligned to more than 16.
		osec := ctx.outSection(".nv_debug.shared", cubin.SHT_NOBITS, cubin.SHF_WRITE|cubin.SHF_ALLOC)
		osec.Addralign = 16
		osec.synthetic = true // nvlink gives it no section symbol
	}
}

// sharedReserve is the shared memory at the start of every kernel's that
// the architecture reserves: 1 KiB on sm_90.
func (ctx *linkContext) sharedReserve() uint64 {
	if ctx.Config.Arch >= 90 {
		return sharedReserve90
	}
	return 0
}

// sharedGlobals is the extent of the global function-level shared
// variables (see layoutShared).
type sharedGlobals struct {
	objects    []*sharedObject // in layout order
	end, align uint64
}

// unifyDynamicShared makes kernels agree on where dynamic shared memory
// starts: a function that uses it and is called from several kernels sees
// it at one offset, so those kernels start it at the highest of theirs.
// With debug symbols, each extern __shared__ array also has one address:
// the kernels that use the same array agree too, and the array's symbol
// gets that offset.
func unifyDynamicShared(ctx *linkContext, kernels []*function, trees map[*function][]*function, uses map[*function][]*symbol) {
	group := map[*function]*function{} // union-find over kernels
	find := func(k *function) *function {
		for group[k] != nil && group[k] != k {
			k = group[k]
		}
		return k
	}
	joined := map[any]*function{} // a function or an array -> a kernel using it
	join := func(key any, k *function) {
		other := joined[key]
		if other == nil {
			joined[key] = k
			return
		}
		if ra, rb := find(other), find(k); ra != rb {
			group[rb] = ra
		}
	}
	for _, k := range kernels {
		if !k.usesDynamic {
			continue
		}
		for i, fn := range trees[k] {
			for _, sym := range uses[fn] {
				if sym.Defined() {
					continue
				}
				if i > 0 {
					join(fn, k)
				}
				if ctx.debugSymbols() {
					join(sym, k)
				}
			}
		}
	}
	top := map[*function]uint64{}
	for _, k := range kernels {
		if k.usesDynamic {
			r := find(k)
			top[r] = max(top[r], k.dynOffset)
		}
	}
	for _, k := range kernels {
		if k.usesDynamic {
			k.dynOffset = top[find(k)]
			k.sharedSize = k.dynOffset
		}
	}
	for key, k := range joined {
		if sym, ok := key.(*symbol); ok {
			sym.Value = k.dynOffset
		}
	}
}

// anyDynamic says whether an input declares extern __shared__ memory;
// nvlink then writes an empty .nv_debug.shared, even when no kernel that
// uses it survives.
func anyDynamic(ctx *linkContext) bool {
	for _, sym := range ctx.Symbols {
		if !sym.Defined() && sym.space() == cubin.STO_CUDA_SHARED {
			return true
		}
	}
	// A -ewp image names no extern __shared__ array; compiled with -G it
	// has an empty .nv_debug.shared when it uses one.
	for _, file := range ctx.Files {
		if file.ELF.Header.Type == cubin.ET_CUDA_EWP && slices.ContainsFunc(file.ELF.Sections, func(s *cubin.Section) bool { return s.Name == ".nv_debug.shared" }) {
			return true
		}
	}
	return false
}

// callTree returns fn and every function it reaches, in a fixed order.
func callTree(fn *function) []*function {
	walk := newWalk()
	fn.mark(walk)
	list := []*function{fn}
	for i := 0; i < len(list); i++ {
		for _, c := range list[i].Callees {
			if c.mark(walk) {
				list = append(list, c)
			}
		}
	}
	return list
}

// sharesKernel says whether two sets of kernels meet.
func sharesKernel(a, b []*function) bool {
	for _, k := range a {
		if slices.Contains(b, k) {
			return true
		}
	}
	return false
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
