package linker

import "github.com/cudalink/cudalink/linker/cubin"

// Where each symbol lands in the output. resolveSymbols gives a symbol
// its chosen definition (symbol.file and symbol.section, the st_value
// inputValue reads). The layout steps then decide where storage goes,
// each in a record of its own, and write no symbol:
//
//   - allocateCommons (mergeSections): each common's .nv.global
//     contribution (linkContext.commons);
//   - placeContributions (layoutSections, layoutRelocatable): where each
//     input section lands in its output section (inputSection.outOff);
//   - layoutShared: the offset of each shared variable it lays out and of
//     each extern __shared__ array under -g (sharedVariables.offsets), and
//     the kernel sections that keep private variables' symbols
//     (sharedVariables.kept);
//   - layoutDebugInfo: the values of the symbols it publishes at a place
//     of their own (debugLayout.values), and the inputs' .nv_debug.shared
//     sections whose symbols join the output's (debugLayout.moved);
//   - keepLostCopyLocals: the winners' parameter and bank-2 sections
//     that weak kernel copies' _param and .const_opt. symbols move to
//     (linkContext.lostCopyLocals);
//   - createRelocatableMetadataSections (-r): the output's .nv.callgraph
//     and .nv.prototype that the inputs' section symbols name
//     (linkContext.metadataInputs).
//
// placeSymbols, one step right after them, turns those records into each
// symbol's placement (linkContext.placements, its one writer): its output
// value and section. The passes after it read them through placed; the
// symbol keeps its input's definition.

// placement is where a symbol lands in the output.
type placement struct {
	// value is the symbol's st_value in the output: relative to out, or
	// the input's value for a symbol in no output section (absolute,
	// common in a partial link, a shared variable a partial link leaves
	// for the final link to lay out).
	value uint64
	// out is the output section the symbol is defined in, nil for an
	// undefined symbol or one whose section the output leaves out.
	out *outputSection
}

// placed returns where sym lands in the output (placeSymbols, which the
// passes that ask run after): the zero placement for a symbol no input
// defines.
func (ctx *linkContext) placed(sym *symbol) placement {
	return ctx.placements[sym.id]
}

// movedSymbol is a symbol that moves to another output section than its
// input section's: a kernel's section for a private shared variable
// (sharedVariables.kept), the winner's parameter bank for a losing weak
// kernel's _param or a replaced one's .const_opt. constants
// (linkContext.lostCopyLocals).
type movedSymbol struct {
	sym *symbol
	out *outputSection
}

// placeSymbols gives every symbol its output value and section from the
// layout records, in the order the layout decided them: a symbol defined
// in an input section that is in the output (or in an input
// .nv_debug.shared section layoutDebugInfo moved to the output's, or for
// -r in an input .nv.callgraph or .nv.prototype) moves
// by where the section landed (not a shared variable's in a partial link,
// whose st_value stays its alignment for the final link to lay out); a
// common moves to its contribution; then shared memory's offsets, the
// debug view's values and the moves to other sections replace what they
// name.
func placeSymbols(ctx *linkContext) {
	p := make([]placement, ctx.symbolIDs)
	relocatable := ctx.config.Relocatable
	moved := ctx.debugLayout.moved
	if relocatable {
		moved = ctx.metadataInputs // -r lays out no debug view
	}
	someMoved := len(moved) > 0
	for _, file := range ctx.files {
		esyms := file.ELF.Symbols
		for j, sym := range file.syms {
			if !file.defines(sym, j) {
				continue
			}
			pl := placement{value: esyms[j].Value}
			if isec := sym.section; isec != nil {
				pl.out = isec.out
				if someMoved && moved[isec] != nil {
					pl.out = moved[isec]
				}
				if pl.out != nil && sym.typ() != cubin.STT_SECTION && !(relocatable && isec.sec.Type == cubin.SHT_CUDA_SHARED) {
					pl.value += isec.outOff
				}
			} else if esyms[j].Shndx == cubin.SHN_COMMON {
				pl.value = ctx.inputValue(sym) // the first common's alignment
			}
			p[sym.id] = pl
		}
	}
	for _, c := range ctx.commons {
		p[c.sym.id] = placement{value: c.isec.outOff, out: c.isec.out}
	}
	for sym, at := range ctx.sharedVars.offsets {
		p[sym.id].value = at
	}
	for _, m := range ctx.sharedVars.kept {
		p[m.sym.id].out = m.out
	}
	for sym, v := range ctx.debugLayout.values {
		p[sym.id].value = v
	}
	for _, m := range ctx.lostCopyLocals {
		p[m.sym.id].out = m.out
	}
	ctx.placements = p
}
