package linker

import (
	"cmp"
	"slices"

	"github.com/cudalink/cudalink/linker/cubin"
)

// Shared memory: where each kernel's variables, the function-level
// variables several kernels share and dynamic (extern __shared__) memory
// sit. layoutShared runs once layoutSections has placed the contributions;
// layoutDebugInfo (debuginfo.go) publishes the result for -g.

// sharedReserve90 is the shared memory sm_90 reserves in every kernel.
const sharedReserve90 = 0x400

// sharedObject is one variable in shared memory.
type sharedObject struct {
	sym         *symbol
	file, index int // defining file and symbol index
	rank        int // place in nvlink's order of function-level objects
	align, size uint64
	at, end     uint64 // a global's module-wide offset and end (placeGlobals)
	unused      bool   // no function's code refers to it
	extern      bool   // an extern __shared__ array, only sorted with the others
}

// layoutShared lays out shared memory as nvlink does.
//
// A function-level variable (.nv_debug.shared in the inputs: statics of
// device functions and templates, file-scope __shared__) that several
// kernels reach is global: it gets one module-wide offset, largest first
// in the order of nvlink's list merge sort (listMergeSort), in the first
// of nvlink's overlapping sets that holds no global sharing a kernel with
// it (placeGlobals). One that a single kernel reaches is private to that kernel and is
// laid out with the kernel's own variables: its own in symbol order, then
// its private ones in the global order, sorted by decreasing alignment and
// then increasing size, after the highest end of the global variables its
// call tree uses. Dynamic (extern __shared__) memory starts after that,
// aligned to 16; kernels whose call trees share a function that uses it
// start it at the same offset, the highest of theirs. A weak variable (a
// kernel template's __shared__ array, such as CUB's TempStorage) defined
// in several inputs is in nvlink's list once, where it first met it.
//
// A kernel gets a .nv.shared.<k> section when it has shared memory, and an
// empty one (no section symbol; sm_90's reserve only) in a link that uses
// dynamic memory when its alignment is 16, or more on sm_90 (emptySection):
// a kernel that uses dynamic memory, or any kernel (kept as a function,
// demoted, or not) but those nvlink merged as ordinary functions when a
// module-wide .nv_debug.shared is kept so aligned (an object several
// kernels reach, or one only removed or demoted kernels reach, as
// -kernels-used leaves CUB's TempStorage next to Thrust's extern shmem).
// One merged as an ordinary function whose code uses dynamic memory gets
// one aligned to 16 whatever the module's alignment (sizeSections).
//
// With debug information (-g), every kernel that uses dynamic memory
// starts it at one module-wide offset, and layoutDebugShared publishes the
// global variables in an output .nv_debug.shared.
//
// It runs in phases, one function each, over a sharedLayout of its own.
func layoutShared(ctx *linkContext) {
	ctx.kernelShared = make([]kernelMemory, len(ctx.allFuncs))
	s := &sharedLayout{mem: ctx.kernelShared}
	s.collectObjects(ctx)       // the function-level objects and extern arrays, in input order
	s.findUses(ctx)             // which objects each function's code refers to
	s.findReach(ctx)            // which kernels reach each object
	s.sortObjects()             // nvlink's order: largest first
	s.deleteUnreferenced(ctx)   // nvlink deletes the objects no function's code refers to
	s.keepModuleSection(ctx)    // whether a module-wide .nv_debug.shared stays, aligning every kernel's
	s.orderMadeSections(ctx)    // the order nvlink makes the demoted kernels' .nv.shared.<k>
	s.placeGlobals(ctx)         // objects several kernels reach: one module-wide offset each
	s.placeKernels(ctx)         // each kernel's own and private objects, then dynamic memory
	s.unifyDynamic(ctx)         // kernels sharing dynamic memory start it together
	s.findUnreachedDynamic(ctx) // -preserve-relocs, -g -suppress-debug-info: functions no kernel reaches that use dynamic memory
	s.sizeSections(ctx)         // each kernel's .nv.shared section, with sm_90's reserve
	s.addEmptyDebugSection(ctx) // the empty .nv_debug.shared nvlink writes for dynamic memory
}

// kernelMemory is a kernel's shared memory as layoutShared lays it out.
// layoutShared writes linkContext.kernelShared; layoutDebugInfo, the
// limits check, relocation, the resource report and finishNames read it
// (sharedOf).
type kernelMemory struct {
	own       *inputSection // the kernel's own .nv.shared input section
	size      uint64        // the static size, with sm_90's reserved KiB
	dynOffset uint64        // where dynamic shared memory starts
	// usesDynamic: the kernel's call tree uses dynamic shared memory.
	usesDynamic bool
}

// sharedOf is what layoutShared laid out for kernel k (zero for other
// functions, and before layoutShared runs).
func (ctx *linkContext) sharedOf(k *function) *kernelMemory {
	if k.order >= len(ctx.kernelShared) {
		return &kernelMemory{}
	}
	return &ctx.kernelShared[k.order]
}

// sharedLayout is layoutShared's state, from one phase to the next.
type sharedLayout struct {
	objects     map[*symbol]*sharedObject // function-level objects
	ordered     []*sharedObject           // and extern arrays, in input order, then nvlink's (sortObjects)
	moduleAlign uint64                    // the largest alignment of the relocatable inputs' shared sections (not a -ewp image's)
	walk        inputWalk                 // relocations are read from the inputs

	uses    map[*function][]*symbol   // shared objects a function's code references
	kernels []*function               // the live kernels
	trees   map[*function][]*function // each kernel's call tree (a demoted kernel's: itself; none when nothing in it uses shared memory)
	reach   map[*symbol][]*function   // the kernels that reach each object

	referenced map[*symbol]bool // objects the code of any function refers to (findUses)
	kept       bool             // a module-wide .nv_debug.shared stays (keepModuleSection)
	// spaceNamed: a symbol of some input, a section's too, is in shared
	// memory (collectObjects).
	spaceNamed bool

	// laidOut are the kernels, then the demoted ones; placed parallels
	// it with what placeKernels found for each.
	laidOut []*function
	placed  []kernelShared
	mem     []kernelMemory // linkContext.kernelShared, by function.order
}

// kernelShared is what placeKernels found for a kernel: its own
// .nv.shared input section, its section's alignment and the
// function-level objects only it reaches.
type kernelShared struct {
	own     *inputSection
	align   uint64
	private []*symbol
}

// collectObjects lists the function-level objects, with their alignment
// (st_value) and size, and the extern __shared__ arrays, in input order.
func (s *sharedLayout) collectObjects(ctx *linkContext) {
	s.objects = map[*symbol]*sharedObject{}
	externs := map[*symbol]bool{}
	for fi, file := range ctx.files {
		for _, isec := range file.sections {
			if classify(isec.sec) == classShared && file.ELF.Header.Type != cubin.ET_CUDA_EWP {
				s.moduleAlign = max(s.moduleAlign, isec.sec.Addralign)
			}
		}
		for j, esym := range file.ELF.Symbols {
			sym := file.syms[j]
			if sym != nil && sym.space() == cubin.STO_CUDA_SHARED {
				s.spaceNamed = true
			}
			if sym == nil || esym.Type() == cubin.STT_SECTION {
				continue
			}
			if !sym.defined() && sym.space() == cubin.STO_CUDA_SHARED {
				// An extern __shared__ array has no room of its own,
				// but nvlink sorts it with the objects (size 0, where
				// its name first appears), which moves the others.
				if !externs[sym] {
					externs[sym] = true
					s.ordered = append(s.ordered, &sharedObject{sym: sym, file: fi, index: j, align: 1, extern: true})
				}
				continue
			}
			if int(esym.Shndx) >= len(file.sections) || esym.Shndx == 0 || classify(file.sections[esym.Shndx].sec) != classShared {
				continue
			}
			if s.objects[sym] != nil {
				// A weak object (a kernel template's __shared__ variable)
				// defined again in a later input: nvlink lists it once,
				// where it met it first, and its list merge sort, which
				// is not stable, orders the objects of one size by their
				// number and places (the demoted kernels' .nv.shared.<k>
				// follow it: kernels-used-launched-weak-shared-order-*).
				continue
			}
			o := &sharedObject{sym: sym, file: fi, index: j, align: max(esym.Value, 1), size: esym.Size}
			s.objects[o.sym] = o
			s.ordered = append(s.ordered, o)
		}
	}
}

// findUses finds the shared objects each live function's code refers to
// (uses), and the function-level objects the code of any function, live
// or not, refers to (referenced), in one walk over their relocations. A
// link whose inputs have no shared object and no symbol in shared memory
// (no __shared__ variable anywhere) has nothing for a relocation to name:
// it skips the walk. The large 100-object benchmark program (perf34,
// callgrind): 127.6 M -> 123.0 M instructions.
func (s *sharedLayout) findUses(ctx *linkContext) {
	s.uses = map[*function][]*symbol{}
	s.referenced = map[*symbol]bool{}
	if len(s.objects) == 0 && !s.spaceNamed {
		return
	}
	object := make([]bool, ctx.symbolIDs) // by symbol id: is it in objects
	for sym := range s.objects {
		object[sym.id] = true
	}
	for _, fn := range ctx.allFuncs {
		live := ctx.isLive(fn)
		s.walk.visit(ctx, fn.text.file)
		for _, isec := range append([]*inputSection{fn.text}, fn.sections...) {
			for r := range isec.relocs() {
				sym := isec.file.syms[r.Sym]
				if sym == nil {
					continue
				}
				if live && sym.other&cubin.STO_CUDA_SPACE_MASK == cubin.STO_CUDA_SHARED {
					s.uses[fn] = appendSymOnce(s.uses[fn], sym)
				}
				if int(sym.id) < len(object) && object[sym.id] {
					s.referenced[sym] = true
				}
			}
		}
	}
}

// findReach finds the kernels and which of them reach each function-level
// object.
func (s *sharedLayout) findReach(ctx *linkContext) {
	s.trees = map[*function][]*function{}
	s.reach = map[*symbol][]*function{}
	// Which functions use shared memory or call one that does, when no
	// call chain recurses: a kernel that reaches none needs no tree (in a
	// deep call chain through 100 files, most kernels reach 150 functions
	// and none of them uses any; docs/benchmarks.md, perf16).
	// When no function uses any (findUses), none needs one.
	usesBelow := make([]bool, len(ctx.allFuncs))
	acyclic := len(s.uses) == 0 || calleesFirst(ctx, func(fn *function) {
		usesBelow[fn.order] = len(s.uses[fn]) > 0 || slices.ContainsFunc(fn.callees, func(c *function) bool { return usesBelow[c.order] })
	})
	for _, k := range ctx.funcs {
		switch {
		case ctx.demoted(k):
			// A kernel -preserve-relocs keeps as a function: nvlink
			// still lays out its shared memory as a kernel's, with the
			// objects its own code uses, not its callees'.
			s.trees[k] = []*function{k}
		case ctx.isEntry(k.sym):
			s.kernels = append(s.kernels, k)
			if !acyclic || usesBelow[k.order] {
				s.trees[k] = callTree(k)
			}
		default:
			continue
		}
		for _, fn := range s.trees[k] {
			for _, sym := range s.uses[fn] {
				if s.objects[sym] != nil {
					s.reach[sym] = appendOnce(s.reach[sym], k)
				}
			}
		}
	}
	s.laidOut = slices.Clone(s.kernels) // the kernels, then the demoted ones
	for _, k := range ctx.funcs {
		if ctx.demoted(k) {
			s.laidOut = append(s.laidOut, k)
		}
	}
}

// sortObjects puts the objects in nvlink's order: it sorts the
// function-level objects (inputs in order, each in symbol order) by
// increasing size with its list merge sort, then takes them from the
// last: largest first, whatever the files, call order or alignment (the
// shared-function-objects-by-size case). Size, not file order, is what
// lays out a partially linked input (-r) as its inputs were.
func (s *sharedLayout) sortObjects() {
	s.ordered = listMergeSort(s.ordered, func(a, b *sharedObject) bool { return a.size < b.size })
	slices.Reverse(s.ordered)
	for i, o := range s.ordered {
		o.rank = i
	}
}

// deleteUnreferenced deletes the objects the code of no function (live or
// not) refers to (sharedVariables.deleted), as nvlink does, but for a -ewp
// image's global: the image resolves its own references, and the one
// global it names in shared memory is its extern __shared__ array, which
// nvlink keeps (its locals, its variables, it deletes).
func (s *sharedLayout) deleteUnreferenced(ctx *linkContext) {
	deleted := map[*symbol]bool{}
	for sym, o := range s.objects {
		ewp := ctx.files[o.file].ELF.Header.Type == cubin.ET_CUDA_EWP && !sym.local
		if !s.referenced[sym] && !ewp {
			deleted[sym] = true
		}
	}
	ctx.sharedVars.deleted = deleted
}

// keepModuleSection decides kept: when some referenced object is not
// private to one kernel, nvlink keeps a module-wide .nv_debug.shared,
// aligned like the inputs' largest, and every kernel's shared memory
// takes that alignment too. Otherwise a kernel's section is aligned only
// as its own objects need.
func (s *sharedLayout) keepModuleSection(ctx *linkContext) {
	for sym := range s.referenced {
		s.kept = s.kept || len(s.reach[sym]) != 1
	}
	ctx.sharedVars.moduleKept = s.kept
}

// findUnreachedDynamic finds the functions -preserve-relocs, or -g with
// -suppress-debug-info, keeps (no dead-code elimination) that no live
// kernel reaches and whose code uses dynamic shared memory: their dynamic
// memory starts nowhere, and nvlink 11.8, 12.4 and 12.5 write all ones
// for it (applyRelocations). A kernel -kernels-used or the host objects'
// lists demote does not count as reaching them. (-g alone publishes the
// array, whose offset they take: symbolValue.)
func (s *sharedLayout) findUnreachedDynamic(ctx *linkContext) {
	if !ctx.config.PreserveRelocs && !(ctx.config.Debug && ctx.config.SuppressDebugInfo) {
		return
	}
	reached := map[*function]bool{}
	for _, k := range s.kernels {
		for _, fn := range s.trees[k] {
			reached[fn] = true
		}
	}
	for _, fn := range ctx.allFuncs {
		if reached[fn] || ctx.isEntry(fn.sym) || ctx.demoted(fn) {
			continue
		}
		for _, sym := range s.uses[fn] {
			if !sym.defined() {
				if ctx.sharedVars.unreachedDynamic == nil {
					ctx.sharedVars.unreachedDynamic = map[*function]*symbol{}
				}
				ctx.sharedVars.unreachedDynamic[fn] = sym
				break
			}
		}
	}
}

// madeShared are the kernels kept as functions (demoted), and those
// nvlink merged as ordinary functions (-kernels-used or -variables-used
// leave them out, names.mergedPlain) but keeps whole, in the order nvlink
// makes their .nv.shared.<k> when they had none of their own: those with
// shared variables, then (dynamic) the others.
type madeShared struct {
	objects, dynamic []*function
}

// orderMadeSections puts the demoted kernels, and those merged as
// ordinary functions (kernels device code launches, kept whole when
// -kernels-used keeps two kernels or more, or -variables-used alone none:
// kernels-used-twice-launched-weak-shared-order-*), in the order nvlink
// first puts something in their .nv.shared.<k>: the objects private to
// one kernel, largest first, then those several kernels share, largest
// first (each in its kernels' order), then dynamic shared memory.
func (s *sharedLayout) orderMadeSections(ctx *linkContext) {
	made := map[*function]bool{}
	m := &ctx.sharedMade
	*m = madeShared{}
	makeFor := func(k *function) {
		if (ctx.demoted(k) || ctx.names.mergedPlain.has(k)) && !made[k] {
			made[k] = true
			m.objects = append(m.objects, k)
		}
	}
	for _, o := range s.ordered {
		if !o.extern && len(s.reach[o.sym]) == 1 {
			makeFor(s.reach[o.sym][0])
		}
	}
	for _, o := range s.ordered {
		if !o.extern && len(s.reach[o.sym]) > 1 {
			for _, k := range s.reach[o.sym] {
				makeFor(k)
			}
		}
	}
	for _, k := range ctx.funcs {
		if (ctx.demoted(k) || ctx.names.mergedPlain.has(k)) && !made[k] {
			m.dynamic = append(m.dynamic, k)
		}
	}
}

// placeGlobals gives each object several kernels reach (or none) its
// module-wide offset, and records them and their extent in
// ctx.sharedVars.
//
// nvlink lays them out in overlapping sets: it takes the objects largest
// first and puts each in the first set that holds no object sharing a
// kernel with it, or else in a new set after the others. The sets are
// then laid out one after the other, each aligned to its largest member's
// alignment and as long as its largest (first) member, and every member
// starts where its set starts. So an object never goes in a gap, not even
// the 4-byte one between an int[129] and the double[3] after it
// (shared-first-fit-gap-rounded-to-next-align-*), but at the start of an
// object no kernel of its reaches, and a member's alignment moves its
// whole set, the larger members placed before it too
// (shared-overlap-set-aligned-by-later-member-*). One no kernel reaches
// (its functions kept by -g or -preserve-relocs only) joins the first
// set, at 0.
func (s *sharedLayout) placeGlobals(ctx *linkContext) {
	used := map[*symbol]bool{}
	for _, syms := range s.uses {
		for _, sym := range syms {
			used[sym] = true
		}
	}
	// The kernels each set's members reach, as a bit set over laidOut:
	// an object joins a set whose bits it shares none of.
	kernelBit := make(map[*function]int, len(s.laidOut))
	for i, k := range s.laidOut {
		kernelBit[k] = i
	}
	words := (len(s.laidOut) + 63) / 64
	type overlapSet struct {
		kernels     []uint64
		members     []*sharedObject
		align, size uint64
	}
	var sets []*overlapSet
	reach := make([]uint64, words)
	g := &ctx.sharedVars
	for _, o := range s.ordered {
		if o.extern || len(s.reach[o.sym]) == 1 {
			continue // private: laid out with its kernel
		}
		clear(reach)
		for _, k := range s.reach[o.sym] {
			reach[kernelBit[k]/64] |= 1 << (kernelBit[k] % 64)
		}
		var in *overlapSet
		for _, set := range sets {
			if !intersects(set.kernels, reach) {
				in = set
				break
			}
		}
		if in == nil {
			in = &overlapSet{kernels: make([]uint64, words), align: 1}
			sets = append(sets, in)
		}
		for i, w := range reach {
			in.kernels[i] |= w
		}
		in.members = append(in.members, o)
		in.align, in.size = max(in.align, o.align), max(in.size, o.size)
		o.unused = !used[o.sym]
		g.globals = append(g.globals, o)
	}
	var at uint64
	for _, set := range sets {
		at = alignTo(at, set.align)
		for _, o := range set.members {
			o.at, o.end = at, at+o.size
			g.place(o.sym, at)
			if !o.unused {
				g.end = max(g.end, o.end) // one no code uses takes no room
			}
		}
		at += set.size
	}
	g.align = s.moduleAlign
}

// intersects says whether two bit sets of one length share a bit.
func intersects(a, b []uint64) bool {
	for i := range a {
		if a[i]&b[i] != 0 {
			return true
		}
	}
	return false
}

// placeKernels lays out each kernel's own variables and the objects
// private to it, after the highest end of the global objects its call
// tree uses, and where its dynamic shared memory starts.
func (s *sharedLayout) placeKernels(ctx *linkContext) {
	s.placed = make([]kernelShared, len(s.laidOut))
	for i, k := range s.laidOut {
		var start uint64
		var align uint64
		if s.kept {
			align = s.moduleAlign
		}
		dynamic := false
		var private []sharedObject
		seen := map[*symbol]bool{}
		for _, fn := range s.trees[k] {
			for _, sym := range s.uses[fn] {
				o := s.objects[sym]
				switch {
				case !sym.defined():
					dynamic = true
				case o == nil:
				case len(s.reach[sym]) == 1:
					if !seen[sym] {
						seen[sym] = true
						private = append(private, *o)
					}
				default:
					start = max(start, o.end)
				}
			}
		}
		var own *inputSection
		for _, isec := range k.sections {
			if isec.sec.Type == cubin.SHT_CUDA_SHARED {
				own = isec
			}
		}
		// The kernel's own variables in symbol order, then its private
		// ones in nvlink's order of function-level objects, sorted by
		// decreasing alignment and then increasing size. The variables
		// -G names in a -ewp image's section come first, in the order of
		// their offsets there, aligned as that image laid them out
		// (laidOutAlign).
		var objs, laidOut []sharedObject
		if own != nil {
			file := own.file
			ewp := file.ELF.Header.Type == cubin.ET_CUDA_EWP
			for _, j := range ctx.sectionSymbols.of(file, own.sec.Index) {
				esym := &file.ELF.Symbols[j]
				o := sharedObject{sym: file.syms[j], align: max(esym.Value, 1), size: esym.Size}
				if ewp {
					o.align, o.at = laidOutAlign(esym.Value, own.sec.Addralign), esym.Value
					laidOut = append(laidOut, o)
				} else {
					objs = append(objs, o)
				}
			}
			slices.SortStableFunc(laidOut, func(a, b sharedObject) int { return cmp.Compare(a.at, b.at) })
		}
		slices.SortFunc(private, func(a, b sharedObject) int { return a.rank - b.rank })
		objs = append(objs, private...)
		objs = listMergeSort(objs, func(a, b sharedObject) bool {
			return a.align > b.align || a.align == b.align && a.size < b.size
		})
		objs = append(laidOut, objs...)
		end := start
		if own != nil && own.file.ELF.Header.Type == cubin.ET_CUDA_EWP {
			// A -ewp image lays out its kernels' shared memory itself and
			// names no variable in it: the section's size and alignment
			// are the layout.
			end = max(end, own.sec.Size)
			align = max(align, own.sec.Addralign)
		}
		for _, o := range objs {
			end = alignTo(end, o.align)
			if o.sym.file == nil || o.sym.file.ELF.Header.Type != cubin.ET_CUDA_EWP {
				// (The variables -G names in a -ewp image's section, which
				// is already laid out, take room after it once more, but
				// nvlink leaves their st_value as it was.)
				ctx.sharedVars.place(o.sym, end)
			}
			end += o.size
			align = max(align, o.align)
		}
		if dynamic {
			end = alignTo(end, 16)
			align = max(align, 16)
		}
		s.mem[k.order] = kernelMemory{own: own, size: end, dynOffset: end, usesDynamic: dynamic}
		ks := &s.placed[i]
		ks.own, ks.align = own, align
		for _, o := range private {
			ks.private = append(ks.private, o.sym)
		}
	}
}

// sizeSections sizes each kernel's .nv.shared section (made when the
// kernel has none of its own but needs one), with sm_90's reserve at its
// start.
func (s *sharedLayout) sizeSections(ctx *linkContext) {
	anyDyn := anyDynamic(ctx)
	for i, k := range s.laidOut {
		mem := &s.mem[k.order]
		end, own, align := mem.size, s.placed[i].own, s.placed[i].align
		if own == nil && end == 0 && mem.usesDynamic && ctx.names.mergedPlain.has(k) {
			// A kernel nvlink merged as an ordinary function, with no
			// shared memory of its own, gets the section it makes for
			// the dynamic memory its code uses aligned to 16, that
			// memory's alignment, not to a module-wide .nv_debug.shared
			// kept aligned to more (its own section, when it has one,
			// takes the module's alignment):
			// kernels-used-merged-kernel-dynamic-shared-align16-*.
			align = 16
		}
		if own == nil && end == 0 && !emptySection(ctx, align, mem.usesDynamic || anyDyn && !ctx.names.mergedPlain.has(k)) {
			continue
		}
		if own == nil {
			osec := ctx.outSection(ctx.names.funcKey(k, ".nv.shared."+k.sym.name), cubin.SHT_NOBITS, cubin.SHF_WRITE|cubin.SHF_ALLOC)
			osec.fn = k
			own = &inputSection{file: k.text.file, sec: &cubin.Section{Name: osec.name, Info: uint32(k.text.sec.Index)}, out: osec, fn: k}
		}
		ewp := own.file.ELF.Header.Type == cubin.ET_CUDA_EWP
		if r := ctx.sharedReserve(); r > 0 && !(end == 0 && ewp && !hasDebugShared(own.file)) && !(ewp && ctx.demoted(k) && ctx.names.mergedPlain.has(k) && !namesShared(own)) {
			// A -ewp image's kernel without shared memory gets none, but
			// in a -G image (one with .nv_debug.shared), whose empty
			// section a kernel with only dynamic memory, or with only
			// file-scope variables its callees use, still has. One with
			// some names no variable there: nvlink moves "them" by the
			// reserve through symbol 0, whose st_value grows by it.
			// A -ewp kernel -preserve-relocs keeps as a function
			// because -kernels-used or -variables-used leave it out
			// (merged as an ordinary function) gets none either, unless
			// its section names variables (-G; measured with 12.4 and
			// 12.5: 0x800 for a 0x200-byte section, whose variables take
			// room once more); one the host objects leave out, and a -dc
			// one, do.
			if ewp && end > 0 {
				ctx.null.ewpReserves += r
			}
			end += r
			mem.size = end
		}
		own.out.size = end
		own.out.addralign = max(align, 1)
		if ctx.config.PreserveRelocs || ctx.debugSymbols() && ctx.toolkit.debugPrivateShared {
			// -preserve-relocs (and 12.x's -g) keeps the symbols of the
			// function-level variables private to the kernel, in the
			// kernel's section (layoutDebugInfo publishes them).
			for _, sym := range s.placed[i].private {
				ctx.sharedVars.kept = append(ctx.sharedVars.kept, movedSymbol{sym: sym, out: own.out})
			}
		}
		if own.out.size == 0 {
			own.out.synthetic = true // nvlink names an empty one with no section symbol
		}
	}
}

// sectionSymbols lists, per input and section, the symbols defined in the
// section (no section symbol, none the link dropped), in symbol-table
// order: each input's table is read once however many kernels have a
// .nv.shared.<k> in it (a 1,200-kernel program spent 40 ms reading its
// tables once per kernel): placeKernels lays out the variables, and
// layoutDebugInfo publishes them, from the one index on linkContext.
// The symbols are final from resolution on, so it never goes stale.
type sectionSymbols map[*inputFile][][]int

// of gives the indices of the symbols file defines in section shndx.
func (m *sectionSymbols) of(file *inputFile, shndx uint32) []int {
	if *m == nil {
		*m = sectionSymbols{}
	}
	bySection, ok := (*m)[file]
	if !ok {
		bySection = make([][]int, len(file.ELF.Sections))
		for j, esym := range file.ELF.Symbols {
			if int(esym.Shndx) < len(bySection) && esym.Type() != cubin.STT_SECTION && file.syms[j] != nil {
				bySection[esym.Shndx] = append(bySection[esym.Shndx], j)
			}
		}
		(*m)[file] = bySection
	}
	if int(shndx) >= len(bySection) {
		return nil
	}
	return bySection[shndx]
}

// emptySection says whether nvlink makes an empty .nv.shared.<k> for a
// kernel that has no shared memory of its own, given the kernel's
// alignment and whether dynamic shared memory concerns it: the kernel uses
// some, or another function does and the kernel is not one nvlink merged
// as an ordinary function (names.mergedPlain, whether kept whole or as a
// function: kernels-used-twice-empty-shared-module-align16-*,
// preserve-relocs-kernels-used-merged-kernels-no-empty-shared-*). Any
// other kept as a function (demoted: one the host objects leave out,
// under -preserve-relocs or -g -suppress-debug-info, or one device code
// launches when -kernels-used keeps a single kernel) gets one as a kernel
// does (*-demoted-kernels-empty-shared-align16-*).
// nvlink makes one aligned to 16, dynamic memory's alignment or that of a
// module-wide .nv_debug.shared kept aligned to 16, even for a kernel that
// uses no shared memory at all; aligned to more by
// that module section, only where the architecture's reserve fills it
// (sm_90), whether or not the kernel uses dynamic memory; aligned to less,
// none (empty-shared-module-align*, measured with 11.8, 12.4 and 12.5).
func emptySection(ctx *linkContext, align uint64, dynamic bool) bool {
	return dynamic && (align == 16 || align > 16 && ctx.sharedReserve() > 0)
}

// addEmptyDebugSection writes the empty .nv_debug.shared nvlink writes
// when dynamic shared memory is used, unless it keeps one module-wide
// (see keepModuleSection) aligned to more than 16.
func (s *sharedLayout) addEmptyDebugSection(ctx *linkContext) {
	if anyDynamic(ctx) && !(s.kept && s.moduleAlign > 16) {
		osec := ctx.outSection(".nv_debug.shared", cubin.SHT_NOBITS, cubin.SHF_WRITE|cubin.SHF_ALLOC)
		osec.addralign = 16
		osec.synthetic = true // nvlink gives it no section symbol
	}
}

// sharedReserve is the shared memory at the start of every kernel's that
// the architecture reserves: 1 KiB on sm_90.
func (ctx *linkContext) sharedReserve() uint64 {
	if ctx.config.Arch >= 90 {
		return sharedReserve90
	}
	return 0
}

// sharedVariables is what layoutShared decides about the function-level
// shared variables that later passes need. layoutShared writes it
// (deleteUnreferenced, placeGlobals, placeKernels, sizeSections,
// unifyDynamic); layoutDebugInfo, placeSymbols, relocation and the symbol
// table read it.
type sharedVariables struct {
	globals    []*sharedObject // those several kernels reach, in layout order
	end, align uint64          // the globals' extent and largest alignment
	// deleted are the variables the code of no function, kept or not,
	// refers to: nvlink deletes them (no symbol, even with -g or
	// -preserve-relocs), and a debug section sees them at an unknown
	// address (all ones).
	deleted map[*symbol]bool
	// kept are the variables private to one kernel whose symbols
	// -preserve-relocs (and 12.x's -g, toolkit.debugPrivateShared) keeps
	// in the kernel's section, in kernel order, with that section.
	kept []movedSymbol
	// offsets is where layoutShared puts each variable it lays out: a
	// global's module-wide offset (placeGlobals), a kernel's own and
	// private variables' offsets in its shared memory (placeKernels), and
	// with debug symbols, where an extern __shared__ array starts
	// (unifyDynamic). placeSymbols makes them the symbols' output values.
	offsets map[*symbol]uint64
	// moduleKept: a module-wide .nv_debug.shared stays (keepModuleSection).
	moduleKept bool
	// unreachedDynamic are the functions -preserve-relocs keeps that
	// no live kernel reaches and whose code uses dynamic (extern
	// __shared__) memory, with the first extern array each names
	// (findUnreachedDynamic).
	unreachedDynamic map[*function]*symbol
}

// place records that the layout puts sym at offset at.
func (g *sharedVariables) place(sym *symbol, at uint64) {
	if g.offsets == nil {
		g.offsets = map[*symbol]uint64{}
	}
	g.offsets[sym] = at
}

// unifyDynamic makes kernels agree on where dynamic shared memory
// starts: a function that uses it and is called from several kernels sees
// it at one offset, so those kernels start it at the highest of theirs.
// With debug symbols, each extern __shared__ array also has one address:
// the kernels that use the same array agree too, and the array's symbol
// gets that offset.
func (s *sharedLayout) unifyDynamic(ctx *linkContext) {
	kernels, trees, uses := s.kernels, s.trees, s.uses
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
		if !s.mem[k.order].usesDynamic {
			continue
		}
		for i, fn := range trees[k] {
			for _, sym := range uses[fn] {
				if sym.defined() {
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
		if mem := &s.mem[k.order]; mem.usesDynamic {
			r := find(k)
			top[r] = max(top[r], mem.dynOffset)
		}
	}
	for _, k := range kernels {
		if mem := &s.mem[k.order]; mem.usesDynamic {
			mem.dynOffset = top[find(k)]
			mem.size = mem.dynOffset
		}
	}
	for key, k := range joined {
		if sym, ok := key.(*symbol); ok {
			ctx.sharedVars.place(sym, s.mem[k.order].dynOffset)
		}
	}
}

// laidOutAlign is the alignment of a variable -G names in a -ewp image's
// kernel section of alignment secAlign: its st_value is its offset there,
// not an alignment as in a relocatable cubin, so it is aligned as the
// image laid it out, to the largest power of two that divides the offset,
// at most the section's alignment (offset 0: the section's). The room
// nvlink gives those variables once more after the section then repeats
// the image's layout (a 128-byte aligned array before an 8-byte word: the
// array at the next 128 bytes, the word right after it).
func laidOutAlign(offset, secAlign uint64) uint64 {
	secAlign = max(secAlign, 1)
	if offset == 0 {
		return secAlign
	}
	return min(offset&-offset, secAlign)
}

// namesShared says whether an input section of shared memory has
// symbols of its own (not its section symbol): the variables -G names in a
// -ewp image's kernel section.
func namesShared(isec *inputSection) bool {
	if isec.file == nil || isec.sec.Index == 0 {
		return false
	}
	return slices.ContainsFunc(isec.file.ELF.Symbols, func(esym cubin.Symbol) bool {
		return esym.Shndx == isec.sec.Index && esym.Type() != cubin.STT_SECTION
	})
}

// hasDebugShared says whether an input has a .nv_debug.shared section, as
// a -ewp image compiled with -G has.
func hasDebugShared(file *inputFile) bool {
	return slices.ContainsFunc(file.ELF.Sections, func(s *cubin.Section) bool { return s.Name == ".nv_debug.shared" })
}

// anyDynamic says whether an input declares extern __shared__ memory;
// nvlink then writes an empty .nv_debug.shared, even when no kernel that
// uses it survives.
func anyDynamic(ctx *linkContext) bool {
	for _, sym := range ctx.symbols {
		if !sym.defined() && sym.space() == cubin.STO_CUDA_SHARED {
			return true
		}
	}
	// A -ewp image names no extern __shared__ array; compiled with -G it
	// has an empty .nv_debug.shared when it uses one.
	for _, file := range ctx.files {
		if file.ELF.Header.Type == cubin.ET_CUDA_EWP && hasDebugShared(file) {
			return true
		}
	}
	return false
}

// checkUnreachedDynamic refuses what nvlink 11.8, 12.4 and 12.5 stop on
// with "Internal error: reference to deleted symbol" (exit status 1): under
// -preserve-relocs, while a module-wide .nv_debug.shared stays (a shared
// variable no live kernel or several reach), a reference that nvlink
// resolves and keeps to a symbol it deleted. Without -g, an extern
// __shared__ array: from a function no live kernel reaches, or from debug
// information (nvcc -G objects: .debug_info names the array); sm_90,
// which defines it in .nv_debug.shared, links. With or without -g (and
// -suppress-debug-info), on every architecture, a shared variable no code
// uses, which debug information names (the hunt50 sweep). The first such
// reference, the functions' before the debug sections', in input order,
// is reported.
func checkUnreachedDynamic(ctx *linkContext) {
	if !ctx.config.PreserveRelocs || !ctx.sharedVars.moduleKept {
		return
	}
	deletedDynamic := func(sym *symbol) bool {
		return !ctx.debugSymbols() && sym != nil && !sym.defined() && sym.space() == cubin.STO_CUDA_SHARED && ctx.debugLayout.of(sym) != publishedDynamic
	}
	for _, fn := range ctx.allFuncs {
		if sym := ctx.sharedVars.unreachedDynamic[fn]; sym != nil && deletedDynamic(sym) {
			ctx.report(&linkError{
				file:    fn.text.file.nvlinkName(),
				section: fn.text.name(),
				symbol:  fn.sym.name,
				msg:     "-preserve-relocs keeps a function no kernel reaches that uses dynamic shared memory (" + sym.name + ") while .nv_debug.shared holds shared variables, which nvlink cannot relocate (Internal error: reference to deleted symbol)",
			})
			return
		}
	}
	for _, file := range ctx.files {
		for _, isec := range file.sections {
			if isec == nil || isec.fn != nil || isec.sec.Flags&cubin.SHF_ALLOC != 0 || !isec.hasRelocs() {
				continue
			}
			for r := range isec.relocs() {
				if int(r.Sym) >= len(file.syms) {
					continue
				}
				sym := file.syms[r.Sym]
				var msg string
				switch {
				case isec.out != nil && deletedDynamic(sym):
					msg = "-preserve-relocs keeps debug information naming dynamic shared memory while .nv_debug.shared holds shared variables, which nvlink cannot relocate (Internal error: reference to deleted symbol)"
				case sym != nil && ctx.sharedVars.deleted[sym]:
					// Also when -suppress-debug-info leaves the
					// section out of the output: nvlink stops all the
					// same.
					msg = "-preserve-relocs keeps debug information naming a shared variable no code uses, which nvlink deleted, while .nv_debug.shared holds shared variables (Internal error: reference to deleted symbol)"
				default:
					continue
				}
				ctx.report(&linkError{file: file.nvlinkName(), section: isec.name(), symbol: sym.name, msg: msg})
				return
			}
		}
	}
}
