package linker

import (
	"slices"
	"strings"

	"github.com/cudalink/cudalink/linker/cubin"
	"github.com/cudalink/cudalink/linker/hostobj"
)

// eliminateDeadCode keeps the functions reachable from the roots and drops
// the rest with all their sections, as nvlink 11.8 does by default.
//
// Roots are the kernels (with -kernels-used, only those whose mangled name
// contains one of its strings; otherwise, when every input is a host
// object, only those its host code references, as nvlink does unless
// -ignore-host-info). The functions whose address is taken are kept too
// (a device function pointer may be called from anywhere), but their
// callees only when a kept kernel reaches them; a kernel the host
// references leave out but device code launches stays whole, callees and
// all, and so does one -kernels-used leaves out, unless the host
// references or -kernels-used keep exactly one kernel: then it keeps only
// its own code, as an ordinary
// function (demoted: no entry point, its own registers and EXTERNS). Variables
// are always kept, also with -variables-used (see kernelUsed).
// The reason each function is kept or removed is recorded
// (linkContext.deadCode: why, pruned and, for a function kept because a
// kept one calls it, the caller), so --why-live and --map can follow
// the chain back to a root or say what removed it.
func eliminateDeadCode(ctx *linkContext) {
	ctx.deadCode = make([]deadCodeRecord, len(ctx.allFuncs)) // by function.order
	hostRefs := ctx.hostKernelRefs()
	for _, fn := range ctx.allFuncs {
		switch {
		case !ctx.isEntry(fn.sym):
		case !ctx.kernelUsed(fn.sym.name):
			ctx.deadCode[fn.order].pruned = removedByKernelsUsed
		case !hostRefs.keeps(fn):
			ctx.deadCode[fn.order].pruned = removedByHostRefs
		}
	}
	warnUnmatchedKernelsUsed(ctx)
	if ctx.config.PreserveRelocs && !ctx.config.Debug {
		// nvlink keeps the kernels it would remove as ordinary functions:
		// no kernel metadata, but the symbol stays a kernel's, and its
		// own shared memory is laid out as a kernel's (layoutShared).
		for _, fn := range ctx.allFuncs {
			if ctx.deadCode[fn.order].pruned != 0 && !fn.addrTaken {
				ctx.deadCode[fn.order].demoted = true
			}
		}
	}
	if ctx.config.Debug {
		// -g -suppress-debug-info keeps every function, but a kernel
		// -kernels-used leaves out was merged as an ordinary function,
		// and stays one: its callees' registers, barriers, stack and
		// bank-2 constants are not its own. So does one no host object
		// launches and no device code takes the address of (nvlink
		// writes its kernel metadata but no ^ in --dump-callgraph, and
		// its REGCOUNT stays its own: a -G kernel calling a function of
		// more registers, debug-suppress-host-unlaunched-kernel-not-entry-sm75).
		for _, fn := range ctx.allFuncs {
			if ctx.names.mergedPlain.has(fn) {
				ctx.deadCode[fn.order].demoted = true
			}
			if ctx.config.SuppressDebugInfo && ctx.deadCode[fn.order].pruned == removedByHostRefs && !fn.addrTaken {
				ctx.deadCode[fn.order].demoted = true
			}
		}
	}
	// An address-taken function is kept, but nvlink (11.8 and 12.x) only
	// follows its calls when a kept kernel reaches it: one that nothing
	// kept calls keeps its own callees only if something else does (with
	// -variables-used alone, or a -kernels-used kernel that does not call
	// it, a -G virtual destructor's call to the base one dangles).
	usedKernels := 0 // the kernels -kernels-used or the host objects' lists keep
	if len(ctx.config.KernelsUsed) > 0 || hostRefs != nil {
		for _, fn := range ctx.allFuncs {
			if ctx.isEntry(fn.sym) && ctx.deadCode[fn.order].pruned == 0 {
				usedKernels++
			}
		}
	}
	var stack []*function
	flooded := make([]bool, len(ctx.deadCode))
	for _, fn := range ctx.allFuncs {
		d := &ctx.deadCode[fn.order]
		switch {
		case ctx.isEntry(fn.sym) && d.pruned == 0:
			d.why = keptKernel
		case fn.addrTaken && d.pruned != 0 && !keptAlone(ctx, d, usedKernels):
			// A kernel device code launches, which the host code does
			// not (or -kernels-used leaves out): nvlink leaves it a
			// whole kernel, callees and all, unless the lists keep
			// exactly one kernel (below; measured with 11.8, 12.4 and
			// 12.5: none, two or more keep it whole; libcudadevrt's own
			// kernels count once it is linked).
			d.why = keptAddrTaken
		case fn.addrTaken:
			d.why = keptAddrTaken
			d.live = true
			if d.pruned != 0 {
				// A kernel -kernels-used or the host objects' lists
				// leave out that device code launches, when they keep a
				// single kernel: nvlink keeps its code alone (its
				// callees only if something kept calls them), as an
				// ordinary function's, no entry point (no '^' in its
				// call graph dump, no MIN_STACK_SIZE), with its own
				// registers, CRS stack and EXTERNS, no NEED_CNP_WRAPPER,
				// and -extra-warnings' "no calls to it found". With the
				// host objects' lists this is seen only in links whose
				// device launches stay undefined (libcudadevrt has no
				// image for the target, sm_53, sm_62, sm_72, sm_87, or
				// is not given): once linked, its kernels are kept too.
				// Under -g with debug information they keep it whole
				// (keptAlone).
				d.demoted = true
			}
			continue
		case ctx.keepsAll():
			d.why = keptAll
		default:
			continue
		}
		d.live = true
		flooded[fn.order] = true
		stack = append(stack, fn)
	}
	// Iterative flood: deep or recursive call graphs cannot overflow.
	for len(stack) > 0 {
		fn := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, callee := range fn.callees {
			if flooded[callee.order] {
				continue
			}
			flooded[callee.order] = true
			if d := &ctx.deadCode[callee.order]; !d.live {
				d.live, d.why, d.keptBy = true, keptCalled, fn
			}
			stack = append(stack, callee)
		}
	}
	for _, fn := range ctx.allFuncs {
		if d := &ctx.deadCode[fn.order]; !d.live {
			d.why = d.pruned
			if d.why == 0 {
				d.why = removedUnreachable
			}
		}
	}
	var live []*function
	for _, fn := range ctx.allFuncs {
		if ctx.isLive(fn) {
			live = append(live, fn)
		}
	}
	ctx.funcs = live
}

// liveFunc returns sym's function record unless dead-code elimination
// removed it: funcOf, buildFunctions' record of every definition, but nil
// once eliminateDeadCode has removed the function (mergeSections then
// marks its symbol deleted). Before it runs, and in a partial link, which
// runs none, it is funcOf. Nil for nil, and for a symbol that is no
// function's.
func (ctx *linkContext) liveFunc(sym *symbol) *function {
	if sym == nil {
		return nil
	}
	fn := ctx.funcOf(sym)
	if fn != nil && fn.order < len(ctx.deadCode) && !ctx.deadCode[fn.order].live {
		return nil
	}
	return fn
}

// deadCodeRecord is what eliminateDeadCode, its one writer, decided for
// one function and why; --why-live, --map and the metadata read it
// (decisionOf).
type deadCodeRecord struct {
	live bool // kept in the output
	// why: kept or removed, and why.
	why liveness
	// pruned, for a kernel, what the lists decide for it (0 when they
	// keep it), which a -preserve-relocs link overrides.
	pruned liveness
	// keptBy is the caller through which dead-code elimination reached
	// the function; nil for roots (kernels and address-taken functions)
	// and removed functions.
	keptBy *function
	// demoted: a kernel kept as an ordinary function (see demoted).
	demoted bool
}

// decisionOf returns what dead-code elimination decided for fn: the zero
// record before it ran, and in a partial link, which runs none.
func (ctx *linkContext) decisionOf(fn *function) deadCodeRecord {
	if fn.order >= len(ctx.deadCode) {
		return deadCodeRecord{}
	}
	return ctx.deadCode[fn.order]
}

// demoted says whether fn is a kernel dead-code elimination keeps as an
// ordinary function: one -preserve-relocs keeps because the lists prune
// it, or one -g -suppress-debug-info keeps after merging it as one. Its
// symbol keeps STO_CUDA_ENTRY, but it is no kernel (isEntry). Always
// kept.
func (ctx *linkContext) demoted(fn *function) bool {
	return fn.order < len(ctx.deadCode) && ctx.deadCode[fn.order].demoted
}

// isEntry says whether sym is a kernel's: it is marked STO_CUDA_ENTRY and
// the kernel was not demoted to a device function (see demoted). A
// demoted kernel is always kept, so funcOf serves before dead-code
// elimination, during it and after.
func (ctx *linkContext) isEntry(sym *symbol) bool {
	if sym.other&cubin.STO_CUDA_ENTRY == 0 {
		return false
	}
	fn := ctx.funcOf(sym)
	return fn == nil || !ctx.demoted(fn)
}

// isLive says whether dead-code elimination kept fn: false before it
// ran, and in a partial link.
func (ctx *linkContext) isLive(fn *function) bool {
	return fn.order < len(ctx.deadCode) && ctx.deadCode[fn.order].live
}

// liveness is what dead-code elimination decided for a function, and why.
type liveness uint8

const (
	keptKernel    liveness = iota + 1 // a kernel the lists (or the host references) keep, or every kernel
	keptAddrTaken                     // its address is taken: a pointer may call it from anywhere
	keptAll                           // -g or -preserve-relocs keeps every function
	keptCalled                        // a kept function calls it (deadCodeRecord.keptBy)
	// A kernel -kernels-used names not (or -variables-used alone, which
	// keeps no kernel).
	removedByKernelsUsed
	removedByHostRefs  // a kernel no host object's reference list names
	removedUnreachable // no kept function calls it and its address is not taken
)

// warnUnmatchedKernelsUsed gives cudalink's own warning for each
// -kernels-used name that no kernel's mangled name contains. nvlink 11.8,
// 12.4 and 12.5 say nothing, and when no name matches they remove every
// kernel, an output that launches nothing; a misspelt name (or one
// demangled, or the kernel's file missing from the link) is the likely
// cause. The output and the exit status stay nvlink's: -w silences the
// warning, -Werror does not make it an error (docs/errors.md).
func warnUnmatchedKernelsUsed(ctx *linkContext) {
	if len(ctx.config.KernelsUsed) == 0 {
		return
	}
	var kernels []string
	kept := false
	for _, fn := range ctx.allFuncs {
		if ctx.isEntry(fn.sym) {
			kernels = append(kernels, fn.sym.name)
			kept = kept || ctx.deadCode[fn.order].pruned == 0
		}
	}
	for _, s := range ctx.config.KernelsUsed {
		if slices.ContainsFunc(kernels, func(k string) bool { return strings.Contains(k, s) }) {
			continue
		}
		what := ""
		if !kept && len(kernels) > 0 {
			what = "; as no -kernels-used name matches, the output keeps no kernel but those device code launches"
		}
		ctx.ownWarnf("-kernels-used=%s matches no kernel of the inputs (no kernel's mangled name contains it)%s", s, what)
	}
}

// kernelUsed applies -kernels-used: a kernel stays a root when no list was
// given or when its mangled name contains one of the strings, as nvlink
// matches them. A -g link keeps every kernel, whatever the lists say.
//
// nvlink 11.8 removes no variable for -variables-used when it links
// relocatable code (the list only matters to link-time optimisation), but
// the option switches its kernel pruning on just as -kernels-used does:
// with -variables-used alone no kernel is used, and every kernel, and
// what only kernels call, is removed. Its output is byte for byte the one
// of -kernels-used with a string no kernel contains.
func (ctx *linkContext) kernelUsed(name string) bool {
	return ctx.config.Debug || ctx.kernelNamed(name)
}

// kernelMerged says whether nvlink merges a kernel as one (with its
// .nv.info.<k> and .nv.shared.<k>) rather than as an ordinary function:
// -kernels-used applies, unless -g without -suppress-debug-info ignores
// it.
func (ctx *linkContext) kernelMerged(name string) bool {
	return ctx.debugSymbols() || ctx.kernelNamed(name)
}

// kernelNamed says whether -kernels-used (or -variables-used, which keeps
// no kernel by name) lets a kernel stay, whatever -g says.
func (ctx *linkContext) kernelNamed(name string) bool {
	if !ctx.usedLists() {
		return true
	}
	for _, s := range ctx.config.KernelsUsed {
		if strings.Contains(name, s) {
			return true
		}
	}
	return false
}

// keepsAll says whether the link removes no function: with -g and with
// -preserve-relocs nvlink keeps them all (with -g whatever -kernels-used
// and the host objects say).
func (ctx *linkContext) keepsAll() bool { return ctx.config.Debug || ctx.config.PreserveRelocs }

// remergesConstants says whether nvlink merges the __constant__ data a
// second time (into its scratch section TEMP_MERGED_CONSTANTS), as it
// does when kernels or variables are pruned (by -kernels-used,
// -variables-used or the host objects' reference lists), unless -g
// (without -suppress-debug-info) skips its pruning step. -preserve-relocs
// does not stop it.
func (ctx *linkContext) remergesConstants() bool {
	return (ctx.usedLists() || ctx.hostKernelRefs() != nil) && !ctx.debugSymbols() && ctx.outByName.get(".nv.constant3") != nil
}

// usedLists says whether -kernels-used or -variables-used decides which
// kernels stay (then the host objects' reference lists do not).
func (ctx *linkContext) usedLists() bool {
	return len(ctx.config.KernelsUsed) > 0 || len(ctx.config.VariablesUsed) > 0
}

// hostRefs holds the kernel patterns host code references (.nvHRKE and
// .nvHRKI); nil means every kernel is kept.
type hostRefs []string

// linkUnits returns every unit the link read: the linked files', then
// those with no image for the target (ctx.unlinked), in that order.
func (ctx *linkContext) linkUnits() []*unit {
	units := make([]*unit, 0, len(ctx.files)+len(ctx.unlinked))
	for _, file := range ctx.files {
		units = append(units, file.unit)
	}
	for _, un := range ctx.unlinked {
		units = append(units, un.unit)
	}
	return units
}

// hostKernelRefs returns the patterns when they decide which kernels stay:
// every input is a host object with the host-reference sections (.nvHR*,
// which nvcc -dc writes), the kernel lists of some input other than
// libcudadevrt name a kernel, and neither -kernels-used nor
// -variables-used was given (nvlink then ignores the lists). Lists that
// name only variables keep every kernel. Inputs nothing is linked from
// count as well: a host object without the sections (from a host compiler
// alone, or nvcc -c), given by path or in an archive, makes nvlink keep
// every kernel, and the lists of one without an image for the target still
// keep the kernels they name. libcudadevrt's lists (an archive named
// libcudadevrt*, however it is given) never switch pruning on, linked,
// kept whole (-keep-system-libraries) or without an image for the target;
// once pruning is on they keep its own kernels.
func (ctx *linkContext) hostKernelRefs() hostRefs {
	if ctx.config.IgnoreHostInfo || ctx.usedLists() {
		return nil
	}
	var refs, system hostRefs
	for _, u := range ctx.linkUnits() {
		h := u.host
		if h == nil || !h.hasRefSections {
			// A plain cubin or .fatbin, or a host object with no lists:
			// nvlink keeps every kernel.
			return nil
		}
		list := &refs
		if u.system {
			list = &system
		}
		*list = append(*list, h.refs[hostobj.KernelExtern]...)
		*list = append(*list, h.refs[hostobj.KernelIntern]...)
	}
	if len(refs) == 0 {
		return nil
	}
	return append(refs, system...)
}

// keeps says whether a kernel stays: a pattern matches it.
func (refs hostRefs) keeps(fn *function) bool {
	if refs == nil {
		return true
	}
	for _, p := range refs {
		if globMatch(p, fn.sym.name) {
			return true
		}
	}
	return false
}

// globMatch matches name against a host-reference pattern, in which '*'
// stands for any run of characters (nvcc writes "_Z9klaunched*").
func globMatch(pattern, name string) bool {
	star := strings.IndexByte(pattern, '*')
	if star < 0 {
		return pattern == name
	}
	if !strings.HasPrefix(name, pattern[:star]) {
		return false
	}
	name, pattern = name[star:], pattern[star+1:]
	if pattern == "" {
		return true
	}
	// Try every position for the rest of the pattern.
	for i := 0; i <= len(name); i++ {
		if globMatch(pattern, name[i:]) {
			return true
		}
	}
	return false
}

// warnUncalledAddressTaken gives nvlink's -extra-warnings warning for every
// kept function (not a kernel) whose address is taken but that no kept
// kernel reaches, directly or through indirect calls of its prototype, in
// call graph node order, after the stack-size warnings. Calls from
// functions only their taken address keeps do not count, nor a function's
// calls of itself: with -kernels-used leaving one kernel, nvlink warns for
// a recursive address-taken function no kept kernel reaches and for the
// address-taken function only it calls (hunt46: 11.8 p4607). With -g or
// -preserve-relocs, which keep every function, nvlink warns for none
// (hunt46: 12.5 p4024 -preserve-relocs).
func warnUncalledAddressTaken(ctx *linkContext) {
	if !ctx.config.ExtraWarnings || ctx.keepsAll() {
		return
	}
	// What the kept kernels' call trees hold (a kernel's own tree holds
	// it, which the warning leaves out anyway).
	called := map[*function]bool{}
	trees := treeWalkers.Get().(*treeWalker)
	defer treeWalkers.Put(trees)
	for _, k := range ctx.funcs {
		if ctx.isEntry(k.sym) {
			for _, fn := range trees.walk(k) {
				called[fn] = true
			}
		}
	}
	for _, sym := range ctx.names.nodes {
		if fn := ctx.liveFunc(sym); fn != nil && fn.addrTaken && !ctx.isEntry(fn.sym) && !called[fn] {
			ctx.warnf("Function '%s' has address taken but no calls to it found", fn.sym.name)
		}
	}
}

// checkRemovedEWPKernels refuses a link that removes a kernel of an -ewp
// image (nvcc -c -ewp) holding functions ptxas copied into its code
// ($kernel$function, see markClones): the kernel goes, but those symbols
// still point into its section. nvlink 11.8 stops there with "Internal
// error: reference to deleted section" (exit status 1; 12.4 and 12.5
// crash), whether the host objects' reference lists or -kernels-used
// remove the kernel. The first such kernel, in input order, is reported.
func checkRemovedEWPKernels(ctx *linkContext) {
	if len(ctx.clones) == 0 {
		return // no -ewp image copied a function into a kernel
	}
	for _, file := range ctx.files {
		for _, sym := range file.syms {
			if sym == nil || !ctx.clones.has(sym) || sym.file != file {
				continue
			}
			k := sym.section.fn
			if k == nil || ctx.isLive(k) {
				continue
			}
			ctx.report(&linkError{
				file:   file.nvlinkName(),
				symbol: k.sym.name,
				msg:    "unused kernel of an -ewp image holds functions ptxas copied into it (" + sym.name + "), which nvlink cannot remove (Internal error: reference to deleted section)",
			})
			return
		}
	}
}

// keptAlone says whether an address-taken kernel that -kernels-used or the
// host objects' lists leave out (d) keeps only its own code, as an ordinary
// function: when they keep a single kernel (kept), but for the host
// objects' lists under -g with debug information, with which nvlink 11.8,
// 12.4 and 12.5 keep it a whole kernel ('^' in --dump-callgraph, its
// MIN_STACK_SIZE); -g -suppress-debug-info demotes it.
func keptAlone(ctx *linkContext, d *deadCodeRecord, kept int) bool {
	debugInfo := ctx.config.Debug && !ctx.config.SuppressDebugInfo
	return kept == 1 && (d.pruned == removedByKernelsUsed || d.pruned == removedByHostRefs && !debugInfo)
}
