package linker

import (
	"slices"

	"github.com/cudalink/cudalink/linker/cubin"
)

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
	return ctx.config.Debug && !ctx.config.SuppressDebugInfo
}

// debugLayout is what layoutDebugInfo decides for the view of shared
// memory that -g (and -preserve-relocs) publishes; layoutDebugInfo writes
// it, the symbol table, relocation and the writer read it.
type debugLayout struct {
	// dynamicShift moves the extern __shared__ symbols layoutDebugInfo
	// defines (sm_90's reserve, sometimes).
	dynamicShift uint64
	// symbols are the shared-memory symbols the output keeps, and how.
	symbols map[*symbol]debugSymbol
	// values are the st_value of the symbols published at a place of
	// their own, which placeSymbols gives them over layoutShared's: the
	// extern __shared__ arrays sm_90's -preserve-relocs defines at an
	// unknown address (all ones), and a -ewp image's variables at the
	// image's own offsets (preserveEWPShared).
	values map[*symbol]uint64
	// moved are the inputs' .nv_debug.shared sections whose variables
	// the output publishes, and the output's .nv_debug.shared: every
	// symbol defined in one is placed in it (placeSymbols; the merge step
	// leaves these sections out of the output).
	moved map[*inputSection]*outputSection
}

// move records that the symbols defined in isec are in osec.
func (d *debugLayout) move(isec *inputSection, osec *outputSection) {
	if d.moved == nil {
		d.moved = map[*inputSection]*outputSection{}
	}
	d.moved[isec] = osec
}

// place records that the output publishes sym with st_value v.
func (d *debugLayout) place(sym *symbol, v uint64) {
	if d.values == nil {
		d.values = map[*symbol]uint64{}
	}
	d.values[sym] = v
}

// debugSymbol is how the output keeps a shared-memory symbol.
type debugSymbol uint8

const (
	notPublished debugSymbol = iota
	// publishedShared: a shared variable whose symbol the output keeps.
	publishedShared
	// preservedShared: a variable private to one kernel, whose symbol
	// -preserve-relocs keeps in the kernel's section (11.8's -g does not;
	// 12.x's keeps it as a debug symbol, toolkit.debugPrivateShared).
	preservedShared
	// publishedDynamic: an extern __shared__ array, defined in
	// .nv_debug.shared.
	publishedDynamic
)

// of says how the output keeps sym (notPublished for most symbols).
func (d *debugLayout) of(sym *symbol) debugSymbol { return d.symbols[sym] }

// shared says whether the output keeps sym as a shared variable.
func (d *debugLayout) shared(sym *symbol) bool {
	k := d.symbols[sym]
	return k == publishedShared || k == preservedShared
}

// publish records how the output keeps sym.
func (d *debugLayout) publish(sym *symbol, how debugSymbol) {
	if d.symbols == nil {
		d.symbols = map[*symbol]debugSymbol{}
	}
	d.symbols[sym] = how
}

// layoutDebugInfo publishes shared memory for the debugger, as nvlink -g
// does, from what layoutShared laid out (kernelMemory, sharedVariables):
// the global function-level variables in an output .nv_debug.shared, with
// their symbols; the kernels' own variables' symbols; and every extern
// __shared__ array as a global object in .nv_debug.shared at the offset
// where the dynamic shared memory of the kernels using it starts
// (sharedLayout.unifyDynamic). Variables private to one kernel keep no
// symbol in 11.8; 12.x keeps theirs in the kernel's section
// (toolkit.debugPrivateShared, sharedVariables.kept).
//
// -preserve-relocs publishes the shared variables as well (their symbols
// are what its relocations name), but not extern __shared__ arrays, except
// on sm_90 (see preservedDynamic).
func layoutDebugInfo(ctx *linkContext) {
	if !ctx.debugSymbols() && !ctx.config.PreserveRelocs {
		return
	}
	d := &ctx.debugLayout
	g := ctx.sharedVars
	// The private variables layoutShared kept in their kernel's section:
	// -g's are debug symbols (st_other 0), -preserve-relocs' are marked.
	debugPrivate := ctx.debugSymbols() && ctx.toolkit.debugPrivateShared
	for _, k := range g.kept {
		sym := k.sym
		if debugPrivate {
			d.publish(sym, publishedShared)
		} else {
			d.publish(sym, preservedShared)
		}
	}
	anyDyn := anyDynamic(ctx)
	dynamic := anyDyn && ctx.debugSymbols()
	// preservedDynamic: -preserve-relocs on sm_90 writes .nv_debug.shared
	// with the reserve whenever dynamic shared memory is used, and when it
	// holds variables, defines the extern __shared__ arrays in it at an
	// unknown address (all ones) moved by the reserve, as -g's are moved.
	preservedDynamic := anyDyn && !ctx.debugSymbols() && ctx.sharedReserve() > 0
	for _, k := range ctx.funcs {
		own := ctx.sharedOf(k).own
		if own == nil {
			continue
		}
		for _, j := range ctx.sectionSymbols.of(own.file, own.sec.Index) {
			d.publish(own.file.syms[j], publishedShared)
		}
	}
	// Not those nvlink deletes (sharedVariables.deleted). -preserve-relocs
	// publishes only what some function's code uses: not a -ewp image's
	// extern __shared__ array either, which -g publishes.
	var objects []*sharedObject
	for _, o := range g.globals {
		if !g.deleted[o.sym] && (ctx.debugSymbols() || !o.unused) {
			objects = append(objects, o)
		}
	}
	if len(objects) == 0 && !dynamic && !preservedDynamic {
		return
	}
	// Like the kernels' sections, it starts with sm_90's reserve, and the
	// symbols of shared variables are moved by it (relocations are not).
	osec := ctx.outSection(".nv_debug.shared", cubin.SHT_NOBITS, cubin.SHF_WRITE|cubin.SHF_ALLOC)
	osec.size, osec.addralign = g.end+ctx.sharedReserve(), max(g.align, 1)
	if len(objects) == 0 {
		// Made for dynamic memory alone, it takes that memory's
		// alignment, not that of the inputs' shared sections, though a
		// variable private to one kernel aligned them to more
		// (debug-dynamic-shared-private-align128-*).
		osec.addralign = 1
	}
	osec.synthetic = osec.size == 0 // nvlink names an empty one with no section symbol
	for _, o := range objects {
		d.publish(o.sym, publishedShared)
		d.move(o.sym.section, osec)
	}
	if anyDyn {
		osec.addralign = max(osec.addralign, 16)
	}
	// dcGlobals: .nv_debug.shared holds variables of relocatable inputs,
	// not only a -ewp -G image's own file-scope variables. Only then does
	// nvlink move the extern __shared__ symbols by sm_90's reserve, and
	// -preserve-relocs keep the image's symbols on other architectures
	// (measured with 11.8, 12.4 and 12.5: such an image linked with an
	// nvcc -dc object's extern array puts it at 0, and leaves it out with
	// -preserve-relocs; with a -dc file-scope variable too, both arrays
	// are moved, and sm_75 and sm_80 keep the image's symbols).
	dcGlobals := slices.ContainsFunc(g.globals, func(o *sharedObject) bool {
		return ctx.files[o.file].ELF.Header.Type != cubin.ET_CUDA_EWP
	})
	if ctx.config.PreserveRelocs && (ctx.sharedReserve() > 0 || dcGlobals) {
		preserveEWPShared(ctx, osec)
	}
	if preservedDynamic && dcGlobals {
		d.dynamicShift = ctx.sharedReserve()
		for _, sym := range ctx.symbols {
			if !sym.defined() && sym.space() == cubin.STO_CUDA_SHARED {
				d.publish(sym, publishedDynamic)
				d.place(sym, ^uint64(0))
			}
		}
	}
	if !dynamic {
		return
	}
	if dcGlobals {
		d.dynamicShift = ctx.sharedReserve()
	}
	for _, sym := range ctx.symbols {
		if !sym.defined() && sym.space() == cubin.STO_CUDA_SHARED {
			d.publish(sym, publishedDynamic)
		}
	}
}

// preserveEWPShared: -preserve-relocs on sm_90 keeps the symbols a -ewp
// -G image names in its .nv_debug.shared, its file-scope variables (even
// those nvlink deletes) and its extern __shared__ array, in the output's
// .nv_debug.shared at the image's own offsets, those -g did not publish
// already (on sm_75 and sm_80 it keeps none, unless nvcc -dc objects put
// variables there too).
func preserveEWPShared(ctx *linkContext, osec *outputSection) {
	d := &ctx.debugLayout
	for _, file := range ctx.files {
		if file.ELF.Header.Type != cubin.ET_CUDA_EWP {
			continue // no need to look at its symbols
		}
		for j, esym := range file.ELF.Symbols {
			sym := file.syms[j]
			if sym == nil || esym.Type() == cubin.STT_SECTION || !file.inEWPDebugShared(esym.Shndx) || d.of(sym) != notPublished {
				continue
			}
			d.publish(sym, preservedShared)
			d.place(sym, esym.Value) // not where layoutShared put a global
			if sym.section != nil {
				d.move(sym.section, osec)
			}
		}
	}
}

// inEWPDebugShared says whether the file is a -ewp image and its section
// shndx its .nv_debug.shared.
func (file *inputFile) inEWPDebugShared(shndx uint32) bool {
	ef := file.ELF
	return ef.Header.Type == cubin.ET_CUDA_EWP && int(shndx) < len(ef.Sections) && ef.Sections[shndx].Name == ".nv_debug.shared"
}

// debugUnknown fills a field of a debug section that refers to dynamic
// shared memory when the link has no debug symbols: nvlink takes the
// address as unknown (S = -1), adds the addend (sm_90's carry the 1 KiB
// shared reserve), and keeps no relocation. The field, at p in osec, is
// patched as any relocated field is.
func debugUnknown(osec *outputSection, p uint64, typ cubin.RelocType, a int64) {
	osec.patch(p, typ, cubin.HowToRelocate(typ).Select(^uint64(0)+uint64(a)), 0)
}

// debugDanglingLabel says whether a relocation of a debug section names an
// undefined local symbol: a label ptxas left in .debug_loc without
// defining it ($L__tmp58). nvlink resolves it against the null symbol
// (fillDanglingLabels) and keeps no relocation.
func debugDanglingLabel(osec *outputSection, sym *symbol) bool {
	return osec.flags&cubin.SHF_ALLOC == 0 && sym.local && !sym.defined() && sym.typ() == cubin.STT_NOTYPE
}

// lateField is a field of osec at off whose relocation (of type typ,
// addend addend: the field's own for REL) is applied once the second merge
// of bank 3 is done: one naming a label ptxas left undefined
// (debugDanglingLabel), or a device function's .nv.ptx.const0.size
// (fillConstantBankSizes).
type lateField struct {
	osec   *outputSection
	off    uint64
	typ    cubin.RelocType
	addend int64
}

// fillDanglingLabels writes into each field whose relocation names a label
// ptxas left undefined the null symbol's st_value plus the addend: nvlink
// resolves the relocation against symbol 0, whose value it has changed by
// then (nullSymbol), so the field holds 0 in most links and, for example,
// 0x94 in a curand program whose weak __cuda_sm20_dblrcp_rn_slowpath_v3
// lost a copy's bank-2 constants at 0x94. nvlink 11.8 (REL), 12.4 and 12.5
// (RELA) alike. It runs after the second merge of bank 3, which sets the
// value when kernels are pruned (remergeConstants).
func fillDanglingLabels(ctx *linkContext) {
	if len(ctx.dangling) == 0 {
		return
	}
	s := ctx.null.value()
	for _, d := range ctx.dangling {
		d.osec.patch(d.off, d.typ, cubin.HowToRelocate(d.typ).Select(s+uint64(d.addend)), 0)
	}
	ctx.dangling = nil
}
