package linker

import (
	"strings"

	"github.com/cudalink/cudalink/linker/cubin"
)

// createMetadataSections creates the metadata sections that buildNVInfo
// fills (the module .nv.info when some function or record goes in it,
// .nv.callgraph, .nv.prototype when some function has a prototype,
// .nv.rel.action), so that they exist when names are finished, get their
// section symbols and are numbered (assignIndices) before they are
// filled; it also marks the externals kept code references and collects
// what .nv.info and .nv.prototype list.
func createMetadataSections(ctx *linkContext) {
	ctx.infoOrder = infoOrder(ctx)
	if len(ctx.infoOrder) > 0 {
		// With no function left, nvlink writes no module .nv.info.
		ctx.outSection(".nv.info", cubin.SHT_CUDA_INFO, 0)
	}
	ctx.outSection(".nv.callgraph", cubin.SHT_CUDA_CALLGRAPH, 0)
	ctx.referenced = referencedUndefined(ctx)
	ctx.prototypes = ctx.collectPrototypes()
	if len(ctx.prototypes) > 0 {
		ctx.outSection(".nv.prototype", cubin.SHT_CUDA_PROTOTYPE, 0)
	}
	ctx.outSection(".nv.rel.action", cubin.SHT_CUDA_RELOCINFO, 0)
}

// referencedUndefined returns the undefined symbols that kept code still
// references, which the output keeps: the functions a kept function's
// EXTERNS name (and those a weak copy it replaced called), textures and
// surfaces that have a bindless slot (assignBindlessSlots), and the symbols
// of relocations kept for the driver (applyRelocations' driverRefs).
func referencedUndefined(ctx *linkContext) symbolSet {
	set := ctx.driverRefs.clone()
	for _, fn := range ctx.funcs {
		for _, ext := range fn.externs {
			set.add(ext)
		}
		for _, ext := range fn.lostExterns {
			set.add(ext)
		}
	}
	for _, sym := range ctx.bindlessRefs {
		set.add(sym)
	}
	return set
}

// buildSymbolTable decides which symbols the output keeps and in what
// order, and gives each its output index (the first half of
// assignIndices). Locals come first (section symbols in the order nvlink
// creates them, then other locals), then globals in first-seen order;
// .symtab's sh_info is the first global.
//
// Dropped: parameter-block (_param), shared-variable and OCG constant
// locals, which nvlink folds away; symbols of removed functions and of
// sections that did not survive.
func buildSymbolTable(ctx *linkContext) {
	ctx.symtab = newOutputSymbols(ctx)
	addSection := func(osec *outputSection) {
		if osec == nil || osec.symIndex != 0 || osec.synthetic || osec.typ == cubin.SHT_CUDA_INFO || isRelocType(osec.typ) {
			return
		}
		if ctx.bank2.unwritten(osec) || ctx.bank3Dropped(osec) {
			return // a kernel bank nvlink made for emptied constants, or bank 3 left empty, not written (assignIndices)
		}
		if osec.size == 0 && len(osec.members) > 0 {
			// Only empty contributions, such as the .debug_frame of inputs
			// without functions: nvlink keeps the section but drops its
			// section symbol, which it made when it met the section.
			return
		}
		ctx.symtab.addSection(osec)
	}
	add := ctx.symtab.add
	for _, c := range ctx.names.local {
		if c.isSection {
			addSection(ctx.outByName.get(c.section))
			continue
		}
		if c.sym.isPlaceholder() {
			if ctx.keepsAll() {
				add(c.sym) // nvlink removes it with the unused symbols, which -g and -preserve-relocs keep
			}
			continue
		}
		if c.sym.local && ctx.keepLocal(c.sym) || !c.sym.local && ctx.keepGlobal(c.sym) {
			add(c.sym)
		}
	}
	// Sections the registry did not foresee (made by the linker itself).
	for _, osec := range ctx.made {
		if osec.group() == groupConstant || osec.group() == groupText || osec.group() == groupData {
			addSection(osec)
		}
	}
	ctx.firstGlobal = len(ctx.symtab.entries)
	for _, sym := range ctx.names.global {
		if ctx.keepGlobal(sym) {
			add(sym)
		}
	}
	for _, sym := range ctx.symbols {
		// A name the registry never created (it is in neither list).
		if ctx.names.createdAt(sym) == 0 && ctx.keepGlobal(sym) {
			add(sym)
		}
	}
	forgetFunctionSections(ctx)
	// Every name is in the string tables now (the writer looks them up).
	if !ctx.gc.off {
		ctx.strtab.compact()
		ctx.names.shstrtab.compact()
	}
}

// forgetFunctionSections drops from outByName the sections of functions
// and the relocation sections: once the symbol table is built, sections
// are found by name only among the module-wide ones (.nv.info,
// .nv.callgraph, .nv_debug.shared, ...), and a large link's tens of
// thousands of other keys need not stay.
func forgetFunctionSections(ctx *linkContext) {
	var byName nameIndex[*outputSection]
	for _, osec := range ctx.outByName.entries {
		if osec.fn == nil && !osec.isReloc() {
			byName.put(osec)
		}
	}
	ctx.outByName = byName
}

// outSym is one entry of the output .symtab: a link symbol, or the
// section symbol of an output section, which needs no symbol of its own
// (a large link has tens of thousands).
type outSym struct {
	sym *symbol
	sec *outputSection // a section symbol's section; sym is nil
}

// outputSymbols is the output .symtab, and where each symbol of the link
// went in it.
type outputSymbols struct {
	entries []outSym // index 0 the null symbol
	// index is, by symbol id, the symbol's index in entries, 0 if the
	// output drops it: add is its one writer (see indexOf).
	index []uint32
}

// newOutputSymbols returns a symbol table that holds the null symbol, for
// the symbols of ctx.
func newOutputSymbols(ctx *linkContext) outputSymbols {
	entries := []outSym{{}}
	if ctx.gc.off {
		// Room for every symbol and section symbol it may take, so that
		// no array append outgrew stays in the heap (see registerNames).
		entries = make([]outSym, 1, 1+len(ctx.names.local)+len(ctx.names.global)+len(ctx.symbols)+len(ctx.made))
	}
	return outputSymbols{entries: entries, index: make([]uint32, ctx.symbolIDs)}
}

// add appends sym and gives it its output index, for a full link's and a
// partial link's symbol table.
func (t *outputSymbols) add(sym *symbol) {
	t.index[sym.id] = uint32(len(t.entries))
	t.entries = append(t.entries, outSym{sym: sym})
}

// indexOf is sym's index in the output .symtab, 0 if the output drops it
// or the table is not built yet.
func (t *outputSymbols) indexOf(sym *symbol) uint32 {
	if int(sym.id) < len(t.index) {
		return t.index[sym.id]
	}
	return 0
}

// addSection appends osec's section symbol and gives the section its
// output symbol index: the one writer of outputSection.symIndex.
func (t *outputSymbols) addSection(osec *outputSection) {
	osec.symIndex = uint32(len(t.entries))
	t.entries = append(t.entries, outSym{sec: osec})
}

// keepLostCopyLocals moves the _param symbol of a weak kernel that lost
// resolution to the winner's parameter bank: -preserve-relocs keeps every
// file's _param, and nvlink keeps the losing copy's too, in the section of
// the same name that survives. So it does the .const_opt. symbols of a
// kernel copy whose bank-2 section no output section took (the first
// copy, replaced by a later one with fewer registers: nvlink keeps them at
// their values in the kernel's bank; 11.8, 12.4, 12.5,
// weak-kernel-replaced-copy-bank2-align-callee-blocks-objects-sm52). Only
// with -preserve-relocs. It records the move in ctx.lostCopyLocals;
// placeSymbols makes it (movedFromLostCopy).
func keepLostCopyLocals(ctx *linkContext) {
	if !ctx.config.PreserveRelocs {
		return
	}
	for _, file := range ctx.files {
		for _, sym := range file.syms {
			if sym == nil || !sym.local || !(isParamSymbol(sym.name) || isConstOpt(sym)) || sym.file != file || sym.section == nil || sym.section.out != nil {
				continue
			}
			text := file.sectionOf(sym.section.sec.Info)
			if text == nil || text.sec.Info&0xffffff == 0 || int(text.sec.Info&0xffffff) >= len(file.syms) {
				continue
			}
			winner := file.syms[text.sec.Info&0xffffff]
			fn := ctx.liveFunc(winner)
			if fn == nil || winner.file == file || isConstOpt(sym) && !ctx.isEntry(fn.sym) {
				continue
			}
			var out *outputSection
			for _, isec := range fn.sections {
				if isec.sec.Name == sym.section.sec.Name && isec.out != nil {
					out = isec.out
				}
			}
			if out != nil {
				ctx.lostCopyLocals = append(ctx.lostCopyLocals, movedSymbol{sym: sym, out: out})
			}
		}
	}
}

// isConstOpt says whether sym is one of ptxas's .const_opt. locals in a
// bank-2 section (a function's jump tables and wide immediates).
func isConstOpt(sym *symbol) bool {
	return strings.Contains(sym.name, ".const_opt.") && sym.section != nil && isConstant2(sym.section.sec)
}

// isParamSymbol says whether a local names a kernel's parameter bank in
// its .nv.constant0.<k>: ptxas writes _param for a kernel with parameters
// and _SREG, at the bank's end, for one without. nvlink drops both (their
// names stay in .strtab) unless -preserve-relocs keeps every symbol.
func isParamSymbol(name string) bool { return name == "_param" || name == "_SREG" }

// keepLocal says whether a local symbol that is not a section symbol
// appears in the output.
func (ctx *linkContext) keepLocal(sym *symbol) bool {
	if ctx.isDeleted(sym) || isParamSymbol(sym.name) && !ctx.config.PreserveRelocs || sym.space() == cubin.STO_CUDA_SHARED && !ctx.debugLayout.shared(sym) ||
		strings.Contains(sym.name, ".const_opt.") && !(ctx.config.PreserveRelocs && (ctx.inKernelBank2(sym) || ctx.movedFromLostCopy(sym))) {
		return false
	}
	if sym.section != nil && ctx.placed(sym).out == nil {
		return false
	}
	if sym.typ() == cubin.STT_FUNC && ctx.liveFunc(sym) == nil && !ctx.clones.has(sym) {
		return false
	}
	return sym.section != nil
}

// inKernelBank2 says whether sym is a kernel's own bank-2 constant
// (-preserve-relocs keeps those symbols, not its callees').
func (ctx *linkContext) inKernelBank2(sym *symbol) bool {
	if sym.section == nil || !isConstant2(sym.section.sec) || sym.section.fn == nil {
		return false
	}
	k := sym.section.fn
	return ctx.isEntry(k.sym) || ctx.demoted(k)
}

// movedFromLostCopy says whether sym's section joined no output section
// but sym was placed in another's: keepLostCopyLocals moved it to the
// winning weak copy's section of the same name.
func (ctx *linkContext) movedFromLostCopy(sym *symbol) bool {
	return sym.section != nil && sym.section.out == nil && ctx.placed(sym).out != nil
}

// keepGlobal says whether a global symbol appears in the output.
func (ctx *linkContext) keepGlobal(sym *symbol) bool {
	if ctx.isDeleted(sym) {
		return false
	}
	if ctx.debugLayout.of(sym) == publishedDynamic {
		return true
	}
	if !sym.defined() {
		return ctx.referenced.has(sym)
	}
	if sym.isFunc() {
		return ctx.liveFunc(sym) != nil
	}
	if sym.space() == cubin.STO_CUDA_SHARED && !ctx.debugLayout.shared(sym) {
		// Only -g and -preserve-relocs publish shared variables
		// (layoutDebugInfo), not all that share an input section.
		return false
	}
	return sym.section == nil || ctx.placed(sym).out != nil
}

// outInfo and outOther are the st_info and st_other nvlink writes: CUDA
// object types become STT_OBJECT and memory-space bits are cleared, but
// for an undefined symbol's, unless the output defines it (how, from
// layoutDebugInfo).
func (sym *symbol) outInfo() uint8 {
	if sym.typ() == cubin.STT_CUDA_OBJECT {
		return sym.info&0xf0 | cubin.STT_OBJECT
	}
	return sym.info
}

func (sym *symbol) outOther(how debugSymbol) uint8 {
	if !sym.defined() && how != publishedDynamic {
		return sym.other
	}
	return sym.other &^ cubin.STO_CUDA_SPACE_MASK
}
