package linker

import "github.com/cudalink/cudalink/linker/cubin"

// What a debug link (-g) changes, as nvlink 11.8 does it. The inputs'
// debug sections (.debug_*, .nv_debug_*) are merged like any other
// non-allocated data, with or without -g: concatenated by name in
// command-line order, their relocations against sections resolved and
// those against functions kept for the driver (mergeSections,
// applyRelocations). -g itself:
//
//   - keeps every function: no dead-code elimination, -kernels-used and the
//     host objects' kernel lists remove nothing (eliminateDeadCode), and
//     materialised indirect call edges are not merged with equal ones;
//   - keeps the unnamed local function each input gets for its first new
//     undefined function, to which kernel parameter records point
//     (addPlaceholder, rebuildFunctionInfo);
//   - with debug symbols (-g without -suppress-debug-info): publishes the
//     shared-memory variables a debugger needs (layoutDebugInfo), and
//     starts dynamic shared memory at one offset in every kernel
//     (sharedLayout.unifyDynamic).
//
// Without debug symbols, a debug section's reference to dynamic shared
// memory (which has no address then) is filled with all ones
// (debugUnknown).

// debugSymbols says whether the link publishes the symbols a debugger
// needs: -g without -suppress-debug-info.
func (ctx *linkContext) debugSymbols() bool {
	return ctx.Config.Debug && !ctx.Config.SuppressDebugInfo
}

// layoutDebugInfo publishes shared memory for the debugger, as nvlink -g
// does: the global function-level variables (see layoutShared) in an
// output .nv_debug.shared, with their symbols; the kernels' own variables'
// symbols; and every extern __shared__ array as a global object in
// .nv_debug.shared at the offset where the dynamic shared memory of the
// kernels using it starts (sharedLayout.unifyDynamic). Variables private to one
// kernel keep no symbol in 11.8; 12.x keeps theirs in the kernel's section
// (toolkit.DebugPrivateShared, layoutShared).
//
// -preserve-relocs publishes the shared variables as well (their symbols
// are what its relocations name), but not extern __shared__ arrays, except
// on sm_90 (see preservedDynamic).
func layoutDebugInfo(ctx *linkContext) {
	if !ctx.debugSymbols() && !ctx.Config.PreserveRelocs {
		return
	}
	g := ctx.sharedGlobals
	anyDyn := anyDynamic(ctx)
	dynamic := anyDyn && ctx.debugSymbols()
	// preservedDynamic: -preserve-relocs on sm_90 writes .nv_debug.shared
	// with the reserve whenever dynamic shared memory is used, and when it
	// holds variables, defines the extern __shared__ arrays in it at an
	// unknown address (all ones) moved by the reserve, as -g's are moved.
	preservedDynamic := anyDyn && !ctx.debugSymbols() && ctx.sharedReserve() > 0
	for _, k := range ctx.Funcs {
		own := ctx.sharedOf(k).own
		if own == nil {
			continue
		}
		file := own.File
		for j, esym := range file.ELF.Symbols {
			if esym.Shndx == own.Sec.Index && esym.Type() != cubin.STT_SECTION && file.Syms[j] != nil {
				file.Syms[j].debugShared = true
			}
		}
	}
	// Not those nvlink deletes (unusedShared). -preserve-relocs publishes
	// only what some function's code uses: not a -ewp image's extern
	// __shared__ array either, which -g publishes.
	var objects []*sharedObject
	for _, o := range g.objects {
		if !o.sym.unusedShared && (ctx.debugSymbols() || !o.unused) {
			objects = append(objects, o)
		}
	}
	if len(objects) == 0 && !dynamic && !preservedDynamic {
		return
	}
	// Like the kernels' sections, it starts with sm_90's reserve, and the
	// symbols of shared variables are moved by it (relocations are not).
	osec := ctx.outSection(".nv_debug.shared", cubin.SHT_NOBITS, cubin.SHF_WRITE|cubin.SHF_ALLOC)
	osec.Size, osec.Addralign = g.end+ctx.sharedReserve(), max(g.align, 1)
	osec.synthetic = osec.Size == 0 // nvlink names an empty one with no section symbol
	for _, o := range objects {
		o.sym.debugShared = true
		o.sym.Section.Out = osec
	}
	if anyDyn {
		osec.Addralign = max(osec.Addralign, 16)
	}
	if preservedDynamic && len(g.objects) > 0 {
		ctx.debugLayout.dynamicShift = ctx.sharedReserve()
		for _, sym := range ctx.Symbols {
			if !sym.Defined() && sym.space() == cubin.STO_CUDA_SHARED {
				sym.debugDynamic, sym.Value = true, ^uint64(0)
			}
		}
	}
	if !dynamic {
		return
	}
	if len(g.objects) > 0 {
		// nvlink moves the extern __shared__ symbols by the reserve only
		// when .nv_debug.shared holds variables.
		ctx.debugLayout.dynamicShift = ctx.sharedReserve()
	}
	for _, sym := range ctx.Symbols {
		if !sym.Defined() && sym.space() == cubin.STO_CUDA_SHARED {
			sym.debugDynamic = true
		}
	}
}

// debugUnknown fills a field of a debug section that refers to dynamic
// shared memory when the link has no debug symbols: nvlink takes the
// address as unknown (S = -1), adds the addend (sm_90's carry the 1 KiB
// shared reserve), and keeps no relocation.
func (ctx *linkContext) debugUnknown(how cubin.RelocHow, field []byte, a int64) {
	how.Insert(field, how.Select(^uint64(0)+uint64(a)), 0)
}

// debugDanglingLabel says whether a relocation of a debug section names an
// undefined local symbol: a label ptxas left in .debug_loc without
// defining it ($L__tmp58). Nothing can resolve it; nvlink drops the
// relocation and leaves the field as it is.
func debugDanglingLabel(osec *outputSection, sym *symbol) bool {
	return osec.Flags&cubin.SHF_ALLOC == 0 && sym.Local && !sym.Defined() && sym.Type() == cubin.STT_NOTYPE
}
