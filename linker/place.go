package linker

import "github.com/cudalink/cudalink/linker/cubin"

// Where each symbol lands in the output. resolveSymbols gives a symbol
// its chosen definition's st_value and input section (symbol.value,
// symbol.section). The layout steps then decide where storage goes, each
// in a record of its own, and write no symbol:
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
//   - keepLostParams: the parameter banks losing weak kernels' _param
//     symbols move to (linkContext.lostParams).
//
// placeSymbols, one step right after them, moves every symbol from its
// input's place to the output's. It is the one writer of symbol.value and
// symbol.section after resolveSymbols: before it they are the input's,
// from it on the output's.

// movedSymbol is a symbol that moves to another output section than its
// input section's: a kernel's section for a private shared variable
// (sharedVariables.kept), the winner's parameter bank for a losing weak
// kernel's _param (linkContext.lostParams).
type movedSymbol struct {
	sym *symbol
	out *outputSection
}

// placeSymbols gives every symbol its output value and section from the
// layout records, in the order the layout decided them: a common moves to
// its contribution; a symbol defined in an input section that is in the
// output moves by where the section landed (not a shared variable's in a
// partial link, whose st_value stays its alignment for the final link to
// lay out); then shared memory's offsets, the debug view's values and the
// moves to other sections replace what they name.
func placeSymbols(ctx *linkContext) {
	for _, c := range ctx.commons {
		c.sym.section, c.sym.value = c.isec, 0
	}
	relocatable := ctx.config.Relocatable
	moved := movedSections(ctx.debugLayout.moved)
	for _, file := range ctx.files {
		for j, sym := range file.syms {
			if moved != nil && file.defines(sym, j) && sym.section != nil {
				if isec := moved[sym.section]; isec != nil {
					sym.section = isec
				}
			}
			if !file.defines(sym, j) || sym.section == nil || sym.section.out == nil || sym.typ() == cubin.STT_SECTION {
				continue
			}
			if relocatable && sym.section.sec.Type == cubin.SHT_CUDA_SHARED {
				continue
			}
			sym.value += sym.section.outOff
		}
	}
	for sym, at := range ctx.sharedVars.offsets {
		sym.value = at
	}
	for _, m := range ctx.sharedVars.kept {
		m.sym.section = &inputSection{file: m.sym.file, sec: m.sym.section.sec, out: m.out}
	}
	for sym, v := range ctx.debugLayout.values {
		sym.value = v
	}
	for _, m := range ctx.lostParams {
		m.sym.section = &inputSection{file: m.sym.file, sec: m.sym.section.sec, out: m.out}
	}
}

// movedSections gives each input section of moves a copy in the output
// section moves names, which the symbols defined in it take as their
// section (nil without moves). The input's own record keeps the merge
// step's out.
func movedSections(moves map[*inputSection]*outputSection) map[*inputSection]*inputSection {
	if len(moves) == 0 {
		return nil
	}
	m := make(map[*inputSection]*inputSection, len(moves))
	for isec, osec := range moves {
		c := *isec
		c.out = osec
		m[isec] = &c
	}
	return m
}
