package linker

import (
	"github.com/cudalink/cudalink/linker/cubin"
)

// buildRelocatableMetadata fills, for a partial link, the metadata
// sections in terms of the output's symbols: the module-wide
// .nv.info (each input's records, in input order), each function's
// .nv.info.f (its records in their order), .nv.callgraph (each group's
// entries, in input order) and .nv.prototype. Nothing is recomputed: the
// register counts, frame sizes, EXTERNS lists and call edges are the
// inputs', so that the final link sees what it would have seen in the
// inputs themselves. Records and edges of a weak function that lost
// resolution are dropped with its sections.
//
// The symbol table and the sections it fills exist already
// (createRelocatableMetadataSections, assignRelocatableIndices).
func buildRelocatableMetadata(ctx *linkContext) {
	if global := ctx.outByName.get(".nv.info"); global != nil {
		var w infoWriter
		for _, file := range ctx.files {
			for r := range file.globalInfo() {
				if r, ok := ctx.remapInfo(file, r); ok {
					w.record(r)
				}
			}
		}
		global.setBytes(w.buf)
		global.addralign = 4
	}

	var recs []infoRecord
	for _, fn := range ctx.allFuncs { // a partial link keeps every function
		for _, isec := range fn.sections {
			if isec.sec.Type != cubin.SHT_CUDA_INFO || isec.out == nil {
				continue
			}
			var err error
			recs, err = isec.file.appendFunctionInfo(recs[:0], isec.sec)
			if err != nil {
				ctx.report(err)
				continue
			}
			var w infoWriter
			for _, r := range recs {
				if r, ok := ctx.remapInfo(isec.file, r); ok {
					w.record(r)
				}
			}
			isec.out.setBytes(w.buf)
			isec.out.addralign = 4
		}
	}
	ctx.buildRelocatableCallgraph()
}

// createRelocatableMetadataSections creates, for a partial link, the
// .nv.callgraph and .nv.prototype that buildRelocatableMetadata fills. They
// take the input ones' place, so that the inputs' section symbols for them
// map to the output's. 12.x's call graph, with its fifth group, is written
// even when no input has one; the module .nv.info waits for the symbol
// table (assignRelocatableIndices).
func createRelocatableMetadataSections(ctx *linkContext) {
	records, protos := false, false
	for _, file := range ctx.files {
		for _, isec := range file.sections {
			if s := isec.sec; s.Type == cubin.SHT_CUDA_CALLGRAPH || s.Type == cubin.SHT_CUDA_PROTOTYPE {
				if ctx.metadataInputs == nil {
					ctx.metadataInputs = map[*inputSection]*outputSection{}
				}
				ctx.metadataInputs[isec] = ctx.outSection(s.Name, s.Type, 0)
			}
		}
		records = records || len(file.calls)+len(file.addrTaken)+len(file.indirect)+len(file.refs) > 0
		protos = protos || len(file.protoList) > 0
	}
	if records || ctx.toolkit.indirectGroup {
		ctx.outSection(".nv.callgraph", cubin.SHT_CUDA_CALLGRAPH, 0)
	}
	if protos {
		ctx.outSection(".nv.prototype", cubin.SHT_CUDA_PROTOTYPE, 0)
	}
}

// moduleInfoKept says whether some record of the inputs' module .nv.info
// names what the output keeps: inputs without functions (only data) have
// no .nv.info, nor does their partial output. The symbol table is built.
func (ctx *linkContext) moduleInfoKept() bool {
	for _, file := range ctx.files {
		for r := range file.globalInfo() {
			if _, ok := ctx.remapInfo(file, r); ok {
				return true
			}
		}
	}
	return false
}

// buildRelocatableSymtab orders the output symbols as nvcc creates them:
// input by input, each input's symbols in its order, a global name where it
// is first seen, a section symbol where the first input's symbol for that
// output section is. Locals whose section was dropped (with a weak function
// that lost) are left out; every global name is kept, defined or not.
// .symtab's sh_info is, as nvcc writes it, the index of the first
// STB_GLOBAL symbol.
func buildRelocatableSymtab(ctx *linkContext) {
	ctx.symtab = newOutputSymbols(ctx)
	ctx.firstGlobal = 0
	add := func(sym *symbol) {
		ctx.symtab.add(sym)
		if ctx.firstGlobal == 0 && !sym.local && sym.bind() == cubin.STB_GLOBAL {
			ctx.firstGlobal = int(ctx.symtab.indexOf(sym))
		}
	}
	placed := map[*symbol]bool{}
	for _, file := range ctx.files {
		for _, sym := range file.syms[min(1, len(file.syms)):] {
			switch {
			case !sym.local:
				if !placed[sym] {
					placed[sym] = true
					add(sym)
				}
			case sym.typ() == cubin.STT_SECTION:
				if osec := ctx.placed(sym).out; osec != nil && osec.symIndex == 0 {
					ctx.symtab.addSection(osec)
				}
			case sym.section == nil || ctx.placed(sym).out != nil:
				add(sym)
			}
		}
	}
	if ctx.firstGlobal == 0 {
		ctx.firstGlobal = len(ctx.symtab.entries)
	}
}

// remapInfo rewrites the symbol indices of one .nv.info record of file in
// output terms. A record about a symbol the output does not keep, or about
// a definition that lost resolution, is dropped.
func (ctx *linkContext) remapInfo(file *inputFile, r infoRecord) (infoRecord, bool) {
	switch {
	case r.symWord():
		idx := r.sym()
		if ctx.lostHere(file, idx) {
			return r, false
		}
		out := ctx.outSymIndex(file.syms[idx])
		if out == 0 {
			return r, false
		}
		p := append([]byte(nil), r.payload...)
		le.PutUint32(p, out)
		r.payload = p
	case r.attr == cubin.EIATTR_EXTERNS && r.format == eifmtSVal:
		var p []byte
		for off := 0; off+4 <= len(r.payload); off += 4 {
			idx := le.Uint32(r.payload[off:])
			if int(idx) < len(file.syms) {
				if out := ctx.outSymIndex(file.syms[idx]); out != 0 {
					p = le.AppendUint32(p, out)
				}
			}
		}
		if len(p) == 0 {
			return r, false
		}
		r.payload = p
	}
	return r, true
}

// lostHere says whether file's symbol idx is a definition that lost
// resolution to another file's.
func (ctx *linkContext) lostHere(file *inputFile, idx uint32) bool {
	if idx == 0 || int(idx) >= len(file.syms) {
		return false
	}
	sym := file.syms[idx]
	return sym != nil && !sym.local && file.ELF.Symbols[idx].Shndx != cubin.SHN_UNDEF && sym.file != file
}

// buildRelocatableCallgraph writes .nv.callgraph in the inputs' layout:
// the call edges of every input, in input order, then the address-taken
// functions, then the indirect call sites (and with 12.x the functions
// whose address each function takes), each group after its marker;
// and .nv.prototype, one signature per output symbol, the first an input
// gives. Prototype strings move to the output's .strtab.
func (ctx *linkContext) buildRelocatableCallgraph() {
	var b []byte
	pair := func(a, c uint32) { b = le.AppendUint32(le.AppendUint32(b, a), c) }
	pair(0, cgCalls)
	for _, file := range ctx.files {
		for _, c := range file.calls {
			if ctx.funcIn(file.syms[c[0]], file) == nil {
				continue // a weak caller that lost
			}
			caller, callee := ctx.outSymIndex(file.syms[c[0]]), ctx.outSymIndex(file.syms[c[1]])
			if caller != 0 && callee != 0 {
				pair(caller, callee)
			}
		}
	}
	pair(0, cgAddrTaken)
	seen := map[[2]uint32]bool{}
	for _, file := range ctx.files {
		for _, at := range file.addrTaken {
			if ctx.dropsAddrTaken(file, at[0]) {
				continue // as a final link drops it (linkCallGraph)
			}
			fn := ctx.outSymIndex(file.syms[at[0]])
			e := [2]uint32{fn, ctx.strtab.add(file.protoStrings[at[1]])}
			if fn != 0 && !seen[e] {
				seen[e] = true
				pair(e[0], e[1])
			}
		}
	}
	pair(0, cgIndirect)
	for _, file := range ctx.files {
		for _, site := range file.indirect {
			if ctx.funcIn(file.syms[site[0]], file) == nil {
				continue
			}
			if caller := ctx.outSymIndex(file.syms[site[0]]); caller != 0 {
				pair(caller, ctx.strtab.add(file.protoStrings[site[1]]))
			}
		}
	}
	if ctx.toolkit.indirectGroup {
		// 12.x's group -4: each function and the functions whose
		// address it takes, input by input.
		pair(0, cgRefs)
		for _, file := range ctx.files {
			for _, r := range file.refs {
				if ctx.funcIn(file.syms[r[0]], file) == nil {
					continue
				}
				fn, target := ctx.outSymIndex(file.syms[r[0]]), ctx.outSymIndex(file.syms[r[1]])
				if fn != 0 && target != 0 {
					pair(fn, target)
				}
			}
		}
	}
	if osec := ctx.outByName.get(".nv.callgraph"); osec != nil {
		osec.setBytes(b)
		osec.addralign = 4
	}

	var p []byte
	protoSeen := map[uint32]bool{}
	for _, file := range ctx.files {
		for _, proto := range file.protoList {
			sym := ctx.outSymIndex(file.syms[proto.sym])
			if sym == 0 || protoSeen[sym] {
				continue
			}
			protoSeen[sym] = true
			p = le.AppendUint32(p, sym)
			p = le.AppendUint32(p, ctx.strtab.add(proto.sig))
		}
	}
	if osec := ctx.outByName.get(".nv.prototype"); osec != nil {
		osec.setBytes(p)
		osec.addralign = 4
	}
}
