package linker

import (
	"cmp"
	"fmt"
	"slices"
)

// Hardware limits nvlink checks once the layout is fixed. ptxas checks each
// file on its own; only the link sees what several files add up to.
const (
	maxConstantBank3 = 0x10000 // __constant__ data of the whole program (bank 3)
	maxStaticShared  = 0xc000  // static __shared__ memory of one kernel, its callees' included (11.8)
)

// staticSharedLimit is the most static shared memory a kernel may have
// for the target, as the toolkit's nvlink checks it: 11.8 allows 48 KiB
// everywhere; 12.4's and 12.5's limit depends on the SM (measured: each
// release's message names it, "uses too much shared data (0x29004 bytes,
// 0x29000 max)").
func (ctx *linkContext) staticSharedLimit() uint64 {
	if ctx.toolkit.archSharedLimits {
		switch ctx.config.Arch {
		case 50, 53, 60, 62, 72, 75:
			return 0x10000
		case 52, 61, 70:
			return 0x18000
		case 86:
			return 0x19000
		case 80, 87, 89, 90:
			return 0x29000
		}
	}
	return maxStaticShared
}

// checkLimitsBeforeCallgraph is checkLimits where nvlink 12.x runs it:
// before the undefined references, the --dump-callgraph graph and the
// register limit errors.
func checkLimitsBeforeCallgraph(ctx *linkContext) {
	if ctx.toolkit.undefinedBeforeCallgraph {
		checkLimits(ctx)
	}
}

// checkLimitsAfterCallgraph is checkLimits where nvlink 11.8 runs it:
// after the graph and the register limit errors, before the undefined
// references.
func checkLimitsAfterCallgraph(ctx *linkContext) {
	if !ctx.toolkit.undefinedBeforeCallgraph {
		checkLimits(ctx)
	}
}

// checkLimits reports what exceeds a hardware limit, in nvlink's words and
// order: every kernel's static shared memory (without sm_90's reserved KiB,
// as nvlink counts it), the output's .nv_debug.shared and the module's
// constant bank 3, in the order nvlink made their output sections (it
// walks them so: a weak template kernel's section is made where its first
// copy is met, a -r output's kernels keep its order, bank 3 comes after the
// first input's kernels; the hunt44 and hunt45 sweeps). nvlink reports
// these as errors rather than fatal ones, so alone they exit 255 as undefined
// references do. Every release reports them after the stack size warnings
// (computeResources); 11.8 after the --dump-callgraph graph and the register
// limit errors (propagateRegisters), 12.x before them, both before the
// undefined references.
func checkLimits(ctx *linkContext) {
	limit := ctx.staticSharedLimit()
	type check struct {
		rank uint64 // when nvlink made the output section
		err  *linkError
	}
	var errs []check
	at := func(osec *outputSection) uint64 {
		if osec == nil {
			return 1 << 63 // after the others, in function order
		}
		return ctx.sectionCreated(osec)
	}
	for _, k := range ctx.funcs {
		if !ctx.isEntry(k.sym) && !ctx.demoted(k) {
			continue // a demoted kernel (-preserve-relocs) is checked as a kernel
		}
		if size := k.staticShared(ctx); size > limit {
			errs = append(errs, check{at(ctx.outByName.get(".nv.shared." + k.sym.name)), &linkError{file: k.text.file.Name, symbol: k.sym.name, nonFatal: true,
				msg: fmt.Sprintf("entry function uses too much shared data (0x%x bytes, 0x%x max)", size, limit)}})
		}
	}
	// -g and -preserve-relocs: nvlink checks the output's .nv_debug.shared
	// as one more kernel's shared section, named by what follows
	// ".nv.shared." in the section's name: 'hared' (11.8, 12.4, 12.5).
	if debug := ctx.outByName.get(".nv_debug.shared"); debug != nil {
		if size := sharedWithoutReserve(ctx, debug.size); size > limit {
			errs = append(errs, check{at(debug), &linkError{section: debug.name, symbol: "hared", nonFatal: true,
				msg: fmt.Sprintf("entry function uses too much shared data (0x%x bytes, 0x%x max)", size, limit)}})
		}
	}
	// Bank 3 as the second merge leaves it, when there is one: what it
	// folds does not count (it never makes the bank larger, so a bank
	// within the limit is not merged again here); 12.x's rebuild past 64
	// KiB (rebuildConstantBank) counts instead.
	if osec := ctx.outByName.get(".nv.constant3"); osec != nil && osec.size > maxConstantBank3 {
		if size := ctx.constantBankSize(osec); size > maxConstantBank3 {
			errs = append(errs, check{at(osec), &linkError{section: osec.name, nonFatal: true,
				msg: fmt.Sprintf("File uses too much global constant data (0x%x bytes, 0x%x max)", size, maxConstantBank3)}})
		}
	}
	// nvlink walks its output sections in the order it made them (not
	// grouped as it writes them): each error comes where its section does.
	slices.SortStableFunc(errs, func(a, b check) int { return cmp.Compare(a.rank, b.rank) })
	for _, e := range errs {
		ctx.report(e.err)
	}
}

// staticShared is a kernel's static shared memory as nvlink checks it:
// without the KiB sm_90 reserves.
func (k *function) staticShared(ctx *linkContext) uint64 {
	return sharedWithoutReserve(ctx, ctx.sharedOf(k).size)
}

// sharedWithoutReserve is a shared size as nvlink checks it: without the
// KiB sm_90 reserves.
func sharedWithoutReserve(ctx *linkContext, size uint64) uint64 {
	if ctx.config.Arch >= 90 && size >= sharedReserve90 {
		return size - sharedReserve90
	}
	return size
}
