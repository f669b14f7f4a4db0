package linker

import (
	"cmp"
	"fmt"
	"io"
	"slices"
)

// stackUnknown is the MIN_STACK_SIZE of a kernel whose call graph recurses.
const stackUnknown = 0xffffffff

// resourceUse is what a function needs through its call graph, as
// computeResources propagates it (linkContext.resources); for a function
// other than a kernel, only its own counts.
type resourceUse struct {
	regs, barriers int
	// minStack is a kernel's frame plus the deepest call chain's.
	minStack uint32
	// crsChain is a kernel's call-return stack through its call graph.
	crsChain  uint32
	recursive bool // some call chain from the kernel recurses
	// stackUnknownIn: a function of the kernel's tree came with
	// MIN_STACK_SIZE 0xffffffff (an -ewp kernel whose copied functions
	// recurse inside its code). nvlink then writes the kernel's
	// MIN_STACK_SIZE and CRS_STACK_SIZE as unknown, without the warning,
	// and -v still says minStack.
	stackUnknownIn bool
}

// minStackRecord is the kernel's EIATTR_MIN_STACK_SIZE.
func (use resourceUse) minStackRecord() uint32 {
	if use.stackUnknownIn {
		return stackUnknown
	}
	return use.minStack
}

// resourcesOf is what computeResources found for fn; before it runs (and
// in a partial link), fn's own counts.
func (ctx *linkContext) resourcesOf(fn *function) resourceUse {
	if fn.order < len(ctx.resources) {
		return ctx.resources[fn.order]
	}
	return resourceUse{regs: fn.regs, barriers: fn.barriers}
}

// computeResources propagates resource use through the call graph: a
// kernel's register and barrier counts become the maximum over everything
// it calls, and its minimum stack is its own frame plus the deepest chain of
// callee frames. Recursion makes the stack size unknown, with nvlink's
// warning.
func computeResources(ctx *linkContext) {
	res := make([]resourceUse, len(ctx.allFuncs))
	for _, fn := range ctx.allFuncs {
		res[fn.order] = resourceUse{regs: fn.regs, barriers: fn.barriers}
	}
	ctx.resources = res
	if subtrees, ok := subtreeUses(ctx); ok {
		// No call chain recurses: each function's needs were found once.
		for _, k := range ctx.funcs {
			if ctx.isEntry(k.sym) {
				sub, use := subtrees[k.order], &res[k.order]
				use.regs, use.barriers, use.stackUnknownIn = sub.regs, sub.barriers, sub.stackUnknownIn
				use.minStack, use.crsChain = sub.frames, sub.crs
			}
		}
		return
	}
	chains := &chainMarks{marks: make([]chainMark, len(ctx.allFuncs))}
	recursesFrom := make([]int8, len(ctx.allFuncs)) // recursiveEdges' memo: 0 unknown, 1 no, 2 yes
	var trees treeWalker
	type stackWarning struct {
		k *function
		n int
	}
	var warnings []stackWarning
	for _, k := range ctx.funcs {
		if !ctx.isEntry(k.sym) {
			continue
		}
		use := &res[k.order]
		for _, fn := range trees.walk(k) {
			use.regs = max(use.regs, res[fn.order].regs)
			use.barriers = max(use.barriers, res[fn.order].barriers)
			use.stackUnknownIn = use.stackUnknownIn || fn.stackUnknownIn
		}
		depth, recursive := chains.deepest(k, func(fn *function) uint32 { return fn.frameSize })
		use.crsChain, _ = chains.deepest(k, func(fn *function) uint32 { return fn.crsStack })
		if recursive {
			use.minStack = stackUnknown
			use.recursive = true
			if !ctx.config.SuppressStackSizeWarning {
				warnings = append(warnings, stackWarning{k, recursiveEdges(ctx, k, chains, recursesFrom)})
			}
		} else {
			use.minStack = depth
		}
	}
	// nvlink warns for the kernels first call graph node first (the
	// order it met the kernel symbols, not the order the inputs define
	// them: a kernel launched from device code in an earlier input was
	// met there).
	slices.SortStableFunc(warnings, func(a, b stackWarning) int { return cmp.Compare(ctx.names.nodeOf(a.k.sym), ctx.names.nodeOf(b.k.sym)) })
	for _, w := range warnings {
		for range w.n {
			ctx.warnf("Stack size for entry function '%s' cannot be statically determined", w.k.sym.name)
		}
	}
}

// subtreeUse is what a function needs with everything it calls: the
// most registers and barriers, whether some function came with an
// unknown stack size, and the deepest chains of frames and of call-return
// stack (each the function's own plus its deepest callee's).
type subtreeUse struct {
	regs, barriers int
	stackUnknownIn bool
	frames, crs    uint32
}

// subtreeUses computes subtreeUse for every function the kernels reach,
// each function once, after its callees (calleesFirst); ok false when some
// call chain from a kernel recurses. Without recursion a maximum over a
// kernel's tree is the maximum of its own and its callees' (what
// computeResources' walk of the tree finds), and its deepest chain is its
// frame plus its deepest callee's (what chainMarks.deepest finds without
// recursion, whichever order it visits the callees in). Walking each
// kernel's tree instead visits a function once per kernel that reaches
// it: in a deep call chain through 100 files, 0.4 ms of 12.7
// (docs/benchmarks.md, perf16).
func subtreeUses(ctx *linkContext) (uses []subtreeUse, ok bool) {
	uses = make([]subtreeUse, len(ctx.allFuncs))
	ok = calleesFirst(ctx, func(fn *function) {
		u := subtreeUse{regs: fn.regs, barriers: fn.barriers, stackUnknownIn: fn.stackUnknownIn}
		var frames, crs uint32
		for _, c := range fn.callees {
			cu := &uses[c.order]
			u.regs, u.barriers = max(u.regs, cu.regs), max(u.barriers, cu.barriers)
			u.stackUnknownIn = u.stackUnknownIn || cu.stackUnknownIn
			frames, crs = max(frames, cu.frames), max(crs, cu.crs)
		}
		u.frames, u.crs = fn.frameSize+frames, fn.crsStack+crs
		uses[fn.order] = u
	})
	return uses, ok
}

// calleesFirst calls visit for every function the live kernels reach,
// each once, after every function it calls (a depth-first search from
// each kernel in turn, iterative, so deep call graphs cannot overflow the
// goroutine stack). It returns false, and stops, at the first call chain
// that recurses: then no order puts every callee first.
func calleesFirst(ctx *linkContext, visit func(fn *function)) bool {
	const (
		unvisited = iota
		onPath
		done
	)
	state := make([]uint8, len(ctx.allFuncs))
	var stack []chainFrame
	for _, k := range ctx.funcs {
		if !ctx.isEntry(k.sym) || state[k.order] == done {
			continue
		}
		state[k.order] = onPath
		stack = append(stack[:0], chainFrame{k, 0})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next < len(top.fn.callees) {
				c := top.fn.callees[top.next]
				top.next++
				switch state[c.order] {
				case onPath:
					return false
				case unvisited:
					state[c.order] = onPath
					stack = append(stack, chainFrame{c, 0})
				}
				continue
			}
			visit(top.fn)
			state[top.fn.order] = done
			stack = stack[:len(stack)-1]
		}
	}
	return true
}

// recursiveEdges is how many times nvlink warns that kernel k's stack size
// cannot be statically determined: once for each edge of k's call graph
// (each direct call and each materialised indirect one, a callee named
// twice counting twice, as --dump-callgraph lists them) to a function from
// which some call chain recurses (nvlink 11.8, 12.4 and 12.5 alike). At
// least 1: k's own walk found the recursion.
func recursiveEdges(ctx *linkContext, k *function, chains *chainMarks, memo []int8) int {
	n := 0
	count := func(edges []*symbol) {
		for _, sym := range edges {
			c := ctx.funcOf(sym)
			if c == nil {
				continue
			}
			if memo[c.order] == 0 {
				memo[c.order] = 1
				if _, rec := chains.deepest(c, func(*function) uint32 { return 0 }); rec {
					memo[c.order] = 2
				}
			}
			if memo[c.order] == 2 {
				n++
			}
		}
	}
	count(k.edges)
	count(k.dumpIndirect)
	return max(n, 1)
}

// checkMaxRegs reports, as nvlink does, each kernel with a register limit
// (EIATTR_MAXREG_COUNT: -maxrregcount or __launch_bounds__) that calls,
// directly or not, a function compiled apart with more registers, unless
// dumpCallgraph has already done so (with the graph's propagation lines).
// These are errors of nvlink's "error" class: alone, they make the link
// exit 255.
func checkMaxRegs(ctx *linkContext) {
	if !ctx.regsPropagated {
		propagateRegisters(ctx, nil, nil)
	}
}

// propagateRegisters is nvlink's register propagation, which checks the
// register limits as it goes: for each function, input by input and each
// input's in its symbol table order, and each kernel that reaches it
// (kernels last node of the call graph first), the function's registers
// raise what the kernel needs so far when they are more. Each raise is a
// --dump-callgraph line (line, when not nil); one past the kernel's
// register limit is first an error, "entry function ... with max regcount
// of ...", so a kernel is reported again only for a function with more
// registers than the last reported. nvlink 11.8, 12.4 and 12.5 print each
// error just before the graph's line for the same raise (flush empties the
// dump's buffer before it), and without the graph at the same place: after
// 12.x's limit errors and undefined references, before 11.8's (measured
// on kernels compiled with -maxrregcount=24 calling two functions of
// another file, next to a kernel over the static shared limit and one
// calling an undefined function).
func propagateRegisters(ctx *linkContext, line func(fn, k *function), flush func()) {
	ctx.regsPropagated = true
	if line == nil && !canExceedRegisterLimit(ctx) {
		return
	}
	// need holds what each kept kernel needs so far; the callers lists
	// still name the kernels -kernels-used or the host objects left out.
	need := map[*function]int{}
	for _, k := range ctx.kernels() {
		need[k] = k.regs
	}
	// nvlink walks the functions input by input, each input's in its
	// symbol table order (measured: a function whose symbol comes first
	// in a later section, __internal_accurate_pow before dwave, is named
	// first; of two inputs, the earlier input's function).
	placeOf := ctx.definitionPlaces()
	byInput := slices.Clone(ctx.funcs)
	slices.SortStableFunc(byInput, func(a, b *function) int { return placeOf(a).compare(placeOf(b)) })
	var trees treeWalker
	for _, fn := range byInput {
		if ctx.isEntry(fn.sym) || len(fn.callers) == 0 {
			continue
		}
		entries := trees.entriesAbove(ctx, fn)
		slices.SortFunc(entries, func(a, b *function) int {
			return int(ctx.names.nodeOf(b.sym) - ctx.names.nodeOf(a.sym))
		})
		for _, k := range entries {
			if n, ok := need[k]; !ok || fn.regs <= n {
				continue
			}
			need[k] = fn.regs
			if k.maxRegs > 0 && fn.regs > k.maxRegs {
				if flush != nil {
					flush()
				}
				ctx.report(&linkError{
					file:     fn.text.file.Name,
					msg:      fmt.Sprintf("entry function '%s' with max regcount of %d calls function '%s' with regcount of %d", k.sym.name, k.maxRegs, fn.sym.name, fn.regs),
					nonFatal: true,
				})
			}
			if line != nil {
				line(fn, k)
			}
		}
	}
}

// canExceedRegisterLimit says whether propagateRegisters can report an
// error: whether some function a kernel calls has more registers than the
// lowest register limit of a kept kernel. nvcc gives every kernel a limit
// (EIATTR_MAXREG_COUNT: -maxrregcount, __launch_bounds__, else the
// architecture's 255), so the propagation's walks up the callers of every
// function, one per function, are mostly for nothing without the graph's
// lines: the deep chain of 100 files spent 0.4 ms of its 12.7 in them
// (docs/benchmarks.md, perf16).
func canExceedRegisterLimit(ctx *linkContext) bool {
	limit := 0 // the lowest kernel limit; 0: no kernel has one
	for _, k := range ctx.funcs {
		if k.maxRegs > 0 && ctx.isEntry(k.sym) && (limit == 0 || k.maxRegs < limit) {
			limit = k.maxRegs
		}
	}
	return limit > 0 && slices.ContainsFunc(ctx.funcs, func(fn *function) bool {
		return fn.regs > limit && len(fn.callers) > 0 && !ctx.isEntry(fn.sym)
	})
}

// definitionPlace is where nvlink met a function's definition: its
// input's index and its symbol's index there.
type definitionPlace struct{ file, index int }

func (p definitionPlace) compare(q definitionPlace) int {
	if c := cmp.Compare(p.file, q.file); c != 0 {
		return c
	}
	return cmp.Compare(p.index, q.index)
}

// definitionPlaces returns each function's definitionPlace. A weak
// function a later copy replaced (fewer registers) keeps the first copy's
// place, with the later copy's registers (measured with 11.8 and 12.4: a
// template function of w1 and of w2 built with -maxrregcount=40, linked w1
// mid w2, comes before mid's function in the register propagation).
func (ctx *linkContext) definitionPlaces() func(*function) definitionPlace {
	first := map[*symbol]definitionPlace{}
	for _, file := range ctx.files {
		for i, sym := range file.syms {
			if sym != nil && sym.file != file && file.replacedCopy(uint32(i)) {
				if _, ok := first[sym]; !ok {
					first[sym] = definitionPlace{file.index, i}
				}
			}
		}
	}
	return func(fn *function) definitionPlace {
		if p, ok := first[fn.sym]; ok {
			return p
		}
		return definitionPlace{fn.sym.file.index, int(fn.sym.esymIndex)}
	}
}

// chainMarks is computeResources' table for its walks of the call graph
// (deepest), by function.order: each function's state and best chain in
// the walk whose number it holds, so the table is never cleared between
// walks.
type chainMarks struct {
	walk  uint32
	marks []chainMark
	stack []chainFrame // deepest's, reused
}

// chainFrame is a function on deepest's path and the next of its callees
// to visit.
type chainFrame struct {
	fn   *function
	next int
}

type chainMark struct {
	walk, best uint32
	state      uint8
}

// deepest returns the largest sum of weight along any call chain from
// root, and whether some chain is recursive. It walks iteratively with
// memoisation, so deep call graphs cannot overflow the goroutine stack.
func (t *chainMarks) deepest(root *function, weight func(*function) uint32) (uint32, bool) {
	const (
		unvisited = iota
		onPath
		done
	)
	// A function not marked in this walk is unvisited.
	t.walk++
	walk := t.walk
	mark := func(fn *function) *chainMark {
		m := &t.marks[fn.order]
		if m.walk != walk {
			*m = chainMark{walk: walk}
		}
		return m
	}
	state := func(fn *function) uint8 {
		if m := &t.marks[fn.order]; m.walk == walk {
			return m.state
		}
		return unvisited
	}
	recursive := false
	stack := append(t.stack[:0], chainFrame{root, 0})
	defer func() { t.stack = stack[:0] }()
	mark(root).state = onPath
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next < len(top.fn.callees) {
			c := top.fn.callees[top.next]
			top.next++
			switch state(c) {
			case onPath:
				recursive = true
			case unvisited:
				mark(c).state = onPath
				stack = append(stack, chainFrame{c, 0})
			}
			continue
		}
		var deepest uint32
		for _, c := range top.fn.callees {
			if state(c) == done {
				deepest = max(deepest, mark(c).best)
			}
		}
		m := mark(top.fn)
		m.best, m.state = weight(top.fn)+deepest, done
		stack = stack[:len(stack)-1]
	}
	return mark(root).best, recursive
}

// reportResources prints nvlink's -v report: global and constant memory
// of the module, then for each kernel, last node first, its registers, stack and
// memory. The lines read as nvlink's, with cudalink's name in front. After
// errors nvlink does not call fatal it reports too, on what the link took:
// libcudadevrt's kernels only where chooseDevrt took it (an undefined
// reference takes it; a link that fails on its limits with nothing
// undefined lists none: 11.8, 12.4, 12.5).
func reportResources(ctx *linkContext) {
	if !ctx.config.Verbose || ctx.config.Stdout == nil {
		return
	}
	// -report-arch (nvcc -dlink for several architectures) ends every
	// line with the target, as nvlink's info messages.
	w := reportWriter{ctx.config.Stdout, reportArch(ctx.config)}
	var gmem, cmem3 uint64
	// After errors the link never assigned indices (sections); the
	// sections read here are never dropped.
	for _, osec := range ctx.sections() {
		switch osec.name {
		case ".nv.global", ".nv.global.init":
			gmem += osec.size
		case ".nv.constant3":
			cmem3 = ctx.constantBankSize(osec) // after the second merge, also when a limit error stopped the link before it
		}
	}
	line := fmt.Sprintf("%d bytes gmem", gmem)
	if cmem3 > 0 {
		line += fmt.Sprintf(", %d bytes cmem[3]", cmem3)
	}
	info(w, line)
	// The kernels kept as ordinary functions (demoted) are listed too,
	// with what is their own: registers, stack frame.
	var kernels []*function
	for _, fn := range ctx.funcs {
		if ctx.isEntry(fn.sym) || ctx.demoted(fn) {
			kernels = append(kernels, fn)
		}
	}
	// nvlink lists kernels from the last definition to the first, input by
	// input and each input's in symbol table order: the call graph's node
	// order but for a kernel called (launched) from an earlier input, whose
	// node comes with the call (measured with 11.8 and 12.4: kc, defined
	// after kb in b.o and launched from a.o, is listed before kb).
	placeOf := ctx.definitionPlaces()
	slices.SortStableFunc(kernels, func(a, b *function) int { return placeOf(b).compare(placeOf(a)) })
	for _, k := range kernels {
		use := ctx.resourcesOf(k)
		cmem2 := uint64(0)
		if bank2 := ctx.bank2.banks[k]; bank2 != nil {
			cmem2 = bank2.size
		}
		if ctx.demoted(k) {
			// Its own frame, as its registers are its own (measured
			// with 11.8 and 12.4: a kernel the host objects leave out,
			// with a 48-byte frame and a callee with a 64-byte one, under
			// -preserve-relocs and -g -suppress-debug-info: 48 stack).
			use.minStack = k.frameSize
			// And its own bank 2, which no bank of its own holds (11.8,
			// 12.4, 12.5: its .nv.constant2 section's size).
			cmem2 = ownBank2Size(k)
		}
		reportKernel(w, k, use, ctx.sharedOf(k).size, cmem2, ctx.bindlessSlots[k])
	}
}

// reportWriter is where the -v report goes, and the suffix of its lines.
type reportWriter struct {
	w      io.Writer
	suffix string
}

func info(w reportWriter, msg string) { fmt.Fprintf(w.w, "cudalink info    : %s%s\n", msg, w.suffix) }

// ownBank2Size is the size of a function's own .nv.constant2 section, 0
// if it has none.
func ownBank2Size(k *function) uint64 {
	for _, isec := range k.sections {
		if isec.name() == ".nv.constant2."+k.sym.name {
			return isec.sec.Size
		}
	}
	return 0
}

func reportKernel(w reportWriter, k *function, use resourceUse, smem, cmem2 uint64, slots slotCount) {
	info(w, fmt.Sprintf("Function properties for '%s':", k.sym.name))
	var cmem0 uint64
	for _, isec := range k.sections {
		if isec.out == nil {
			continue
		}
		switch isec.out.name {
		case ".nv.constant0." + k.sym.name:
			cmem0 = isec.out.size
		}
	}
	stack := uint64(use.minStack)
	if use.recursive {
		// nvlink reports a kernel whose call tree recurses with its own
		// frame alone (0 when it has none), its callees' left out.
		stack = uint64(k.frameSize)
	}
	line := fmt.Sprintf("used %d registers, %d stack, %d bytes smem, %d bytes cmem[0], ", use.regs, stack, smem, cmem0)
	if cmem2 > 0 {
		line += fmt.Sprintf("%d bytes cmem[2], ", cmem2)
	}
	line += "0 bytes lmem"
	if slots.textures > 0 {
		line += fmt.Sprintf(", %d textures", slots.textures)
	}
	if slots.surfaces > 0 {
		line += fmt.Sprintf(", %d surfaces", slots.surfaces)
	}
	info(w, line)
}
