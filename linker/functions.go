package linker

import (
	"cmp"
	"slices"
	"strings"

	"github.com/cudalink/cudalink/linker/cubin"
)

// kernels returns the kernels among the link's functions, in function
// order (a new slice: callers sort or filter it).
func (ctx *linkContext) kernels() []*function {
	var kernels []*function
	for _, fn := range ctx.funcs {
		if ctx.isEntry(fn.sym) {
			kernels = append(kernels, fn)
		}
	}
	return kernels
}

// buildFunctions makes one function per chosen function definition, gathers
// the sections that travel with it (.nv.info.f, .nv.constant0.f, ...) and
// turns every file's call graph records into edges between Functions.
// A weak definition that lost resolution contributes nothing.
func buildFunctions(ctx *linkContext) {
	var all []*function
	ctx.symFuncs = make([]*function, ctx.symbolIDs)
	var copies weakCopies // bank-2 constants of weak copies (bank2.go)
	for _, file := range ctx.files {
		byText := map[int]*function{}
		lostTo := map[int]*function{} // a weak copy's code section -> the copy that won, met earlier
		bank2 := codeBank2{file: file}
		for i, isec := range file.sections {
			s := isec.sec
			if s.Type != cubin.SHT_PROGBITS || !strings.HasPrefix(s.Name, ".text.") {
				continue
			}
			symIdx := s.Info & 0xffffff
			if symIdx == 0 || int(symIdx) >= len(file.syms) {
				ctx.report(&linkError{file: file.Name, section: s.Name, msg: "code section names no function symbol in sh_info"})
				continue
			}
			sym := file.syms[symIdx]
			copies.meet(sym, &bank2, i)
			if sym != nil && sym.bind() == cubin.STB_WEAK && sym.file != nil && sym.file.index > file.index && file.replacedCopy(symIdx) && bank2.has(i) {
				copies.firstAt(sym, 2*len(all)-1)
			}
			if sym.file != file || sym.section != isec {
				if fn := ctx.funcOf(sym); fn != nil && sym.file.index < file.index {
					lostTo[i] = fn
				}
				copies.lose(sym, symIdx, &bank2, i)
				continue // a weak copy that lost, or a stray section
			}
			copies.kept(sym, &bank2, i)
			if sym.local && bank2.has(i) {
				copies.own(sym)
			}
			fn := &function{sym: sym, text: isec, regs: int(s.Info >> 24), barriers: s.Barriers(), order: len(all), listKey: copies.listKey(sym, len(all))}
			isec.fn = fn
			ctx.symFuncs[sym.id] = fn
			byText[i] = fn
			all = append(all, fn)
		}
		for _, isec := range file.sections {
			s := isec.sec
			if isRelocType(s.Type) || isec.fn != nil || s.Info == 0 {
				continue
			}
			if fn := byText[int(s.Info)]; fn != nil && strings.HasPrefix(s.Name, ".nv.") {
				isec.fn = fn
				fn.sections = append(fn.sections, isec)
			} else if fn := lostTo[int(s.Info)]; fn != nil && isConstant2(s) {
				if local := copies.localOwner(ctx, fn.sym); local != nil {
					// nvlink finds the kept copy's bank 2 by name, and
					// an earlier file's local function of the name
					// made it first (bank2.go).
					appendLostConstants(ctx, local, isec, false)
				} else {
					appendLostConstants(ctx, fn, isec, !copies.keptHas[fn.sym]) // bank2.go
				}
			}
		}
		listBySectionSymbols(file, byText) // bank2.go
		if file.ELF.Header.Type == cubin.ET_CUDA_EWP {
			markClones(ctx, file)
		}
		for _, r := range file.globalRecs {
			if r.attr == cubin.EIATTR_GEN_ERRBAR_AT_EXIT && r.format == eifmtNVal {
				continue
			}
			if sym := file.syms[r.sym]; sym != nil && ctx.clones.has(sym) && r.attr == cubin.EIATTR_FRAME_SIZE {
				owner := sym.section.fn
				owner.clones = append(owner.clones, cloneFrame{sym: sym, frame: r.value})
				continue
			}
			fn := ctx.funcIn(file.syms[r.sym], file)
			if fn == nil {
				continue
			}
			switch r.attr {
			case cubin.EIATTR_REGCOUNT:
				fn.regs = int(r.value)
			case cubin.EIATTR_FRAME_SIZE:
				fn.frameSize = r.value
			case cubin.EIATTR_MIN_STACK_SIZE:
				fn.stackUnknownIn = r.value == stackUnknown
			}
		}
	}
	markEmptiedBank2(ctx, &copies) // bank2.go
	var recs []infoRecord
	for _, fn := range all {
		for _, isec := range fn.sections {
			if isec.sec.Type != cubin.SHT_CUDA_INFO {
				continue
			}
			var err error
			recs, err = isec.file.appendFunctionInfo(recs[:0], isec.sec)
			if err != nil {
				ctx.report(err)
				continue
			}
			fn.noteTreeRecords(recs)
			for _, r := range recs {
				if r.attr == cubin.EIATTR_CRS_STACK_SIZE && r.format == eifmtSVal && len(r.payload) >= 4 {
					fn.crsStack = le.Uint32(r.payload)
				}
				if r.attr == cubin.EIATTR_CTAIDZ_USED {
					fn.ctaidZ = true
				}
				if r.attr == cubin.EIATTR_RESERVED_SMEM_USED && r.format == eifmtNVal {
					fn.reservedSmem = true
				}
				if r.attr == cubin.EIATTR_S2RCTAID_INSTR_OFFSETS {
					fn.ctaidRead = true
				}
				if r.attr == cubin.EIATTR_NUM_MBARRIERS && r.format == eifmtHVal {
					fn.mbarriers, fn.hasMbarriers = uint32(le.Uint16(r.payload)), true
				}
				if r.attr == cubin.EIATTR_SPARSE_MMA_MASK && r.format == eifmtHVal {
					fn.sparseMask = le.Uint16(r.payload)
				}
				if r.attr == cubin.EIATTR_MAXREG_COUNT && r.format == eifmtHVal {
					fn.maxRegs = int(le.Uint16(r.payload))
				}
				if r.attr == cubin.EIATTR_EXTERNS && r.format == eifmtSVal {
					for off := 0; off+4 <= len(r.payload); off += 4 {
						if idx := le.Uint32(r.payload[off:]); idx != 0 && int(idx) < len(isec.file.syms) {
							fn.externs = appendSymOnce(fn.externs, isec.file.syms[idx])
						}
					}
				}
			}
		}
	}
	ctx.allFuncs = all
	linkCallGraph(ctx)
}

// markClones adds to linkContext.clones the local functions of a -ewp
// image (ELF type 0xff00) that ptxas copied into a kernel's code: a symbol
// $kernel$function inside the kernel's .text, with no section of its own.
// nvlink keeps them, as local functions of the kernel's section, and their
// EIATTR_FRAME_SIZE.
func markClones(ctx *linkContext, file *inputFile) {
	for _, sym := range file.syms {
		if sym != nil && sym.local && sym.typ() == cubin.STT_FUNC && sym.section != nil &&
			sym.section.fn != nil && sym.section.fn.sym != sym {
			ctx.clones.add(sym)
		}
	}
}

// funcOf returns the function record buildFunctions made for sym's chosen
// definition (linkContext.symFuncs), whether dead-code elimination keeps
// it or not (the passes after it ask liveFunc); nil for nil, for a symbol
// that names no function's definition, and before buildFunctions runs.
func (ctx *linkContext) funcOf(sym *symbol) *function {
	if sym == nil || int(sym.id) >= len(ctx.symFuncs) {
		return nil
	}
	return ctx.symFuncs[sym.id]
}

// funcIn returns sym's function if its chosen definition is in file.
func (ctx *linkContext) funcIn(sym *symbol, file *inputFile) *function {
	if sym == nil || sym.file != file {
		return nil
	}
	return ctx.funcOf(sym)
}

// linkCallGraph turns .nv.callgraph records into edges. Indirect call
// sites get an edge to every address-taken function with the same
// prototype, as nvlink materialises them.
func linkCallGraph(ctx *linkContext) {
	byProto := map[string][]*function{}
	undefByProto := map[string][]*symbol{}
	for _, file := range ctx.files {
		// nvlink takes each file's address-taken functions by symbol index.
		addrTaken := slices.Clone(file.addrTaken)
		slices.SortStableFunc(addrTaken, func(a, b [2]uint32) int { return cmp.Compare(a[0], b[0]) })
		for _, at := range addrTaken {
			if ctx.dropsAddrTaken(file, at[0]) {
				continue
			}
			fn := ctx.funcOf(file.syms[at[0]])
			if sym := file.syms[at[0]]; fn == nil && sym != nil && !sym.defined() {
				// A function whose address is taken but that no input
				// defines: nvlink keeps it as it keeps every address-taken
				// function (so it is an undefined reference, whatever
				// removed the code taking its address), and an indirect
				// call site of its prototype calls it too.
				ctx.undefAddrTaken.add(sym)
				p := file.protoStrings[at[1]]
				undefByProto[p] = appendSymOnce(undefByProto[p], sym)
				continue
			}
			if fn == nil {
				continue
			}
			if !fn.addrTaken {
				ctx.addrTaken = append(ctx.addrTaken, fn)
			}
			fn.addrTaken = true
			p := file.protoStrings[at[1]]
			fn.proto, fn.descOnly = p, false
			byProto[p] = appendOnce(byProto[p], fn)
		}
		// A function descriptor relocation takes its function's address
		// too: on sm_90 ptxas lists no kernel a kernel launches (its
		// descriptor is all the code holds), and nvlink adds it with
		// prototype offset 0 (buildCallgraph orders the list).
		for _, idx := range file.funcDescs { // sorted
			if int(idx) >= len(file.syms) || file.syms[idx] == nil {
				continue
			}
			if fn := ctx.funcOf(file.syms[idx]); fn != nil && !fn.addrTaken {
				ctx.addrTaken = append(ctx.addrTaken, fn)
				fn.addrTaken, fn.descOnly = true, true
			}
		}
	}
	edges := make([]int32, len(ctx.allFuncs)) // how many edges each function has (linkContext.edgeCounts)
	for _, file := range ctx.files {
		for _, c := range file.calls {
			caller, replaced := ctx.funcIn(file.syms[c[0]], file), false
			if caller == nil {
				caller, replaced = ctx.replacedCaller(file, c[0])
			}
			if caller == nil {
				continue
			}
			edges[caller.order]++
			callee := file.syms[c[1]]
			if fn := ctx.funcOf(callee); fn != nil {
				addCall(caller, fn)
			} else if !callee.defined() && replaced {
				caller.lostExterns = appendSymOnce(caller.lostExterns, callee)
			} else if !callee.defined() {
				caller.externs = appendSymOnce(caller.externs, callee)
			}
		}
		// CUDA 12's group -4: the functions whose address a function
		// takes. They are not calls (no stack or register propagation);
		// the targets are address-taken, so roots, anyway. As with calls,
		// a weak copy a later one replaced leaves its records, and the
		// later copy's come again: nvlink merges no equal ones.
		for _, r := range file.refs {
			caller := ctx.funcIn(file.syms[r[0]], file)
			if caller == nil {
				caller, _ = ctx.replacedCaller(file, r[0])
			}
			if caller != nil {
				caller.refs = append(caller.refs, file.syms[r[1]])
			}
		}
		// Indirect call sites materialise, each caller's last site first,
		// into an edge to every address-taken function of its prototype.
		for i := len(file.indirect) - 1; i >= 0; i-- {
			site := file.indirect[i]
			caller := ctx.funcIn(file.syms[site[0]], file)
			if caller == nil {
				continue
			}
			caller.indirectProtos = append(caller.indirectProtos, file.protoStrings[site[1]])
			targets := byProto[file.protoStrings[site[1]]]
			if ctx.toolkit.indirectEdges {
				edges[caller.order] += int32(len(targets) + len(undefByProto[file.protoStrings[site[1]]]))
			}
			// 12.x does not write these edges (the inputs' group -4
			// lists the targets their compiler knows); buildCallEdges
			// writes 11.8's, and 12.x's for --dump-callgraph.
			for _, fn := range targets {
				addCall(caller, fn)
			}
		}
	}
	ctx.addrTakenByProto, ctx.undefAddrTakenByProto, ctx.edgeCounts = byProto, undefByProto, edges
}

// replacedCaller returns the function that the caller of a call graph
// record of file (its symbol idx) names when it is not the file's
// definition (funcIn, which callers ask first), nil for none: the chosen
// copy for a weak copy a later one replaced (replaced). nvlink merged
// such a copy's calls when it met it, and they stay the symbol's; its
// EXTERNS record went with it, so the undefined functions it calls stay
// in the output (for the edges) but are not the function's externs.
func (ctx *linkContext) replacedCaller(file *inputFile, idx uint32) (caller *function, replaced bool) {
	if file.replacedCopy(idx) {
		return ctx.funcOf(file.syms[idx]), true
	}
	return nil, false
}

// addCall records that caller calls callee, once: callee joins
// caller.callees and caller joins callee.callers, each at the end of the
// list, if not there yet. Only addCall adds to either list, so caller is
// in callee.callers exactly when callee is in caller.callees: the
// callers list is not searched, which cost a scan of a much-called
// function's callers at every call of it (quadratic: 12 ms of a warm
// worker's relink of the large 400-object program).
func addCall(caller, callee *function) {
	n := len(caller.callees)
	caller.callees = appendOnce(caller.callees, callee)
	if len(caller.callees) > n {
		callee.callers = append(callee.callers, caller)
	}
}

func appendOnce(list []*function, fn *function) []*function {
	for _, f := range list {
		if f == fn {
			return list
		}
	}
	return append(list, fn)
}

func appendSymOnce(list []*symbol, sym *symbol) []*symbol {
	for _, s := range list {
		if s == sym {
			return list
		}
	}
	return append(list, sym)
}

// isFuncDesc says whether a relocation writes a function descriptor.
func isFuncDesc(t cubin.RelocType) bool {
	switch t {
	case cubin.R_CUDA_FUNC_DESC32_23, cubin.R_CUDA_FUNC_DESC32_LO_23, cubin.R_CUDA_FUNC_DESC32_HI_23,
		cubin.R_CUDA_FUNC_DESC_32, cubin.R_CUDA_FUNC_DESC_64,
		cubin.R_CUDA_FUNC_DESC32_20, cubin.R_CUDA_FUNC_DESC32_LO_20, cubin.R_CUDA_FUNC_DESC32_HI_20,
		cubin.R_CUDA_FUNC_DESC32_32, cubin.R_CUDA_FUNC_DESC32_LO_32, cubin.R_CUDA_FUNC_DESC32_HI_32,
		cubin.R_CUDA_FUNC_DESC_8_0, cubin.R_CUDA_FUNC_DESC_8_8, cubin.R_CUDA_FUNC_DESC_8_16, cubin.R_CUDA_FUNC_DESC_8_24,
		cubin.R_CUDA_FUNC_DESC_8_32, cubin.R_CUDA_FUNC_DESC_8_40, cubin.R_CUDA_FUNC_DESC_8_48, cubin.R_CUDA_FUNC_DESC_8_56:
		return true
	}
	return false
}

// replacedCopy says whether the file's symbol idx defines a weak function
// copy that won resolution when nvlink met it, and that a later file's
// copy then replaced (fewer registers).
func (file *inputFile) replacedCopy(idx uint32) bool {
	if int(idx) >= len(file.ELF.Symbols) || file.syms[idx] == nil {
		return false
	}
	esym := &file.ELF.Symbols[idx]
	sym := file.syms[idx]
	return esym.Type() == cubin.STT_FUNC && esym.Bind() == cubin.STB_WEAK && esym.Shndx != cubin.SHN_UNDEF &&
		sym.file != file && !file.skippedCopy(idx)
}

// dropsAddrTaken says whether nvlink drops the file's record that the
// address of its function idx is taken: nvlink drops what a file says of a
// weak copy it skipped (a copy replaced by a later one with fewer registers
// keeps its record), but 12.x keeps the record when the file's group -4
// names the function, code of the file taking its address (12.4, 12.5: a
// kernel storing &tf<float>, whose copy an earlier file's call made lose;
// the address taken by a data initializer alone leaves no group -4 entry
// and the record is dropped, unless -G code loads it).
func (ctx *linkContext) dropsAddrTaken(file *inputFile, idx uint32) bool {
	if !file.skippedCopy(idx) {
		return false
	}
	if ctx.toolkit.indirectGroup && file.ELF.Symbols[idx].Other&cubin.STO_CUDA_ENTRY == 0 {
		// (a kernel's group -4 entry is a device-side launch: its
		// skipped copy's record is dropped all the same,
		// cuda12-weak-kernel-address-taken-in-skipped-copy-sm80)
		for _, r := range file.refs {
			if r[1] == idx {
				return false
			}
		}
	}
	return true
}

// skippedCopy says whether the file's symbol idx defines a weak function
// copy that lost resolution to an earlier file's (see weakSkipped).
func (file *inputFile) skippedCopy(idx uint32) bool {
	if file.weakSkipped == nil || int(idx) >= len(file.ELF.Symbols) {
		return false
	}
	return file.weakSkipped[uint32(file.ELF.Symbols[idx].Shndx)]
}
