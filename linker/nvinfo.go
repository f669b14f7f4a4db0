package linker

import (
	"cmp"
	"encoding/hex"
	"slices"
	"strings"

	"github.com/cudalink/cudalink/linker/cubin"
)

// buildNVInfo rebuilds the metadata sections in output terms: the global
// .nv.info (per function FRAME_SIZE and REGCOUNT, per kernel
// MIN_STACK_SIZE), each function's .nv.info.f with symbols remapped and
// EXTERNS pruned to what is still undefined, the merged .nv.callgraph with
// indirect edges materialised, .nv.prototype and .nv.rel.action.
func buildNVInfo(ctx *linkContext) {
	// nvlink lists functions in the reverse of the order the inputs'
	// .nv.info records name them.
	order := ctx.infoOrder
	// MIN_STACK_SIZE per kernel, by output symbol index. A kernel
	// -kernels-used leaves out but device code launches (address-taken)
	// keeps its own metadata; when -kernels-used names a single kernel,
	// nvlink counts only that one: the launched kernels get no
	// MIN_STACK_SIZE and do not stop it from being the single kernel.
	// With two or more named, every kernel kept gets one.
	kernels := ctx.kernels()
	if ctx.config.Debug && ctx.config.SuppressDebugInfo {
		// -g skips nvlink's pruning step, -g -suppress-debug-info does
		// not: every kernel stays, but only those pruning would keep get
		// MIN_STACK_SIZE, a kernel the host code does not launch but
		// device code does included (host-reference pruning keeps it
		// whole; eliminateDeadCode).
		kernels = slices.DeleteFunc(kernels, func(fn *function) bool {
			d := ctx.decisionOf(fn)
			return d.pruned != 0 && !(d.pruned == removedByHostRefs && fn.addrTaken) || !ctx.kernelNamed(fn.sym.name)
		})
	}
	if used := slices.DeleteFunc(slices.Clone(kernels), func(fn *function) bool { return !ctx.kernelUsed(fn.sym.name) }); len(used) == 1 {
		kernels = used
	}
	slices.SortFunc(kernels, func(a, b *function) int { return cmp.Compare(ctx.symtab.indexOf(a.sym), ctx.symtab.indexOf(b.sym)) })
	// Records of 12 bytes: two a function, then one a kernel.
	w := infoWriter{buf: make([]byte, 0, 12*(2*len(order)+len(kernels)))} // clones of -ewp images aside
	for i := len(order) - 1; i >= 0; i-- {
		fn := order[i]
		if fn == nil {
			w.record(infoRecord{format: eifmtNVal, attr: cubin.EIATTR_GEN_ERRBAR_AT_EXIT})
			continue
		}
		w.symRecord(cubin.EIATTR_FRAME_SIZE, ctx.symtab.indexOf(fn.sym), fn.frameSize)
		for j := len(fn.clones) - 1; j >= 0; j-- {
			w.symRecord(cubin.EIATTR_FRAME_SIZE, ctx.symtab.indexOf(fn.clones[j].sym), fn.clones[j].frame)
		}
		w.symRecord(cubin.EIATTR_REGCOUNT, ctx.symtab.indexOf(fn.sym), uint32(ctx.resourcesOf(fn).regs))
	}
	for _, fn := range kernels {
		w.symRecord(cubin.EIATTR_MIN_STACK_SIZE, ctx.symtab.indexOf(fn.sym), ctx.resourcesOf(fn).minStackRecord())
	}
	if global := ctx.outByName.get(".nv.info"); global != nil {
		global.setBytes(w.buf)
		global.addralign = 4
	}

	var moduleExterns []*symbol // with a single kernel, see rebuildFunctionInfo
	var single *function
	if len(kernels) == 1 {
		single = kernels[0]
		for _, fn := range ctx.funcs {
			for _, ext := range ctx.ownExterns(fn) {
				moduleExterns = appendSymOnce(moduleExterns, ext)
			}
		}
		slices.Reverse(moduleExterns)
	}
	// The single kernel also gets CTAIDZ_USED when another kernel kept
	// in the output (one device code launches) reads blockIdx.z.
	ctaidZ := false
	if single != nil && !single.ctaidZ {
		for _, fn := range ctx.funcs {
			ctaidZ = ctaidZ || fn != single && fn.ctaidZ
		}
	}
	ctx.cnpPatched = cnpPatchedFunctions(ctx)
	var recs []infoRecord // rebuildFunctionInfo's buffer, reused
	var trees *treeWalker // and its walker, if a kernel's call tree can give it anything
	if slices.ContainsFunc(ctx.allFuncs, ctx.givesTreeRecords) {
		trees = new(treeWalker)
	}
	for _, fn := range ctx.funcs {
		for _, isec := range fn.sections {
			if isec.sec.Type == cubin.SHT_CUDA_INFO && isec.out != nil {
				if fn == single {
					ctx.rebuildFunctionInfo(&recs, trees, fn, isec, true, moduleExterns, ctaidZ)
				} else {
					ctx.rebuildFunctionInfo(&recs, trees, fn, isec, false, nil, false)
				}
			}
		}
	}
	ctx.buildCallgraph()
	ctx.buildPrototypes()
	ra := ctx.outByName.get(".nv.rel.action")
	ra.setBytes(ctx.toolkit.relAction)
	ra.addralign = 8
}

// infoOrder returns the live functions in the order the inputs' global
// .nv.info records first name them; functions without records follow.
//
// A nil entry stands for an EIATTR_GEN_ERRBAR_AT_EXIT record, which nvcc
// 12.5 -G writes after each function's records: nvlink 12.5 keeps every
// one where it met it among the inputs' records, those following a
// function removed or named before included, so that, written in reverse,
// each comes just before the records of the function it followed.
func infoOrder(ctx *linkContext) []*function {
	seen := make([]bool, len(ctx.allFuncs)) // by function.order
	order := make([]*function, 0, len(ctx.funcs))
	for _, file := range ctx.files {
		for _, r := range file.globalRecs { // kept at parse: the inputs are not read
			if r.attr == cubin.EIATTR_GEN_ERRBAR_AT_EXIT && r.format == eifmtNVal {
				order = append(order, nil)
				continue
			}
			if fn := ctx.funcIn(file.syms[r.sym], file); fn != nil && ctx.isLive(fn) && !seen[fn.order] {
				seen[fn.order] = true
				order = append(order, fn)
			}
		}
	}
	for _, fn := range ctx.funcs {
		if !seen[fn.order] {
			order = append(order, fn)
		}
	}
	return order
}

// infoWriter appends .nv.info records.
type infoWriter struct{ buf []byte }

// record appends r and returns where its payload starts in buf, for a
// caller that rewrites a word of it there (rather than in a copy).
func (w *infoWriter) record(r infoRecord) int {
	w.buf = append(w.buf, r.format, byte(r.attr))
	if r.format == eifmtSVal {
		w.buf = le.AppendUint16(w.buf, uint16(len(r.payload)))
	}
	at := len(w.buf)
	w.buf = append(w.buf, r.payload...)
	for len(w.buf)%4 != 0 {
		w.buf = append(w.buf, 0)
	}
	return at
}

func (w *infoWriter) symRecord(attr cubin.Attr, sym, value uint32) {
	var p [8]byte
	le.PutUint32(p[:], sym)
	le.PutUint32(p[4:], value)
	w.record(infoRecord{format: eifmtSVal, attr: attr, payload: p[:]})
}

// wordRecord appends an EIFMT_SVAL record of one word.
func (w *infoWriter) wordRecord(attr cubin.Attr, value uint32) {
	var p [4]byte
	le.PutUint32(p[:], value)
	w.record(infoRecord{format: eifmtSVal, attr: attr, payload: p[:]})
}

// outSymIndex returns the output symbol index for a file's symbol; section
// symbols map to their output section's symbol. 0 if it was dropped.
func (ctx *linkContext) outSymIndex(sym *symbol) uint32 {
	if sym == nil {
		return 0
	}
	if sym.typ() == cubin.STT_SECTION && sym.local {
		if out := ctx.placed(sym).out; out != nil {
			return out.symIndex
		}
		return 0
	}
	return ctx.symtab.indexOf(sym)
}

// rebuildFunctionInfo writes .nv.info.f: the input records in reverse
// order (as nvlink writes them) with symbol indices remapped. buf is a
// buffer for the records, reused from one call to the next; trees walks a
// kernel's call tree, nil when no function gives a kernel anything
// (givesTreeRecords).
//
// When the output has a single kernel, nvlink gives it what every kept
// function's record names (moduleExterns: gathered in function order,
// written last gathered first), also what functions it does not reach call
// (kept by -g or -preserve-relocs);
// unless that is just what its own record lists (then the record stays as
// it is), the record is dropped and the new list goes at the end.
func (ctx *linkContext) rebuildFunctionInfo(buf *[]infoRecord, trees *treeWalker, fn *function, isec *inputSection, single bool, moduleExterns []*symbol, ctaidZ bool) {
	recs, err := isec.file.appendFunctionInfo((*buf)[:0], isec.sec)
	*buf = recs
	if err != nil {
		ctx.report(err)
		return
	}
	// A kernel's EXTERNS list every undefined function its call tree
	// calls; other functions keep their own.
	var externs []byte
	tree := []*function{fn}
	if ctx.isEntry(fn.sym) && trees != nil {
		tree = externsOrder(trees, fn)
	}
	var seen []*symbol
	for _, f := range tree {
		for _, ext := range f.externs {
			if ctx.symtab.indexOf(ext) != 0 && ctx.staysExtern(ext) && len(appendSymOnce(seen, ext)) > len(seen) {
				seen = append(seen, ext)
				externs = le.AppendUint32(externs, ctx.symtab.indexOf(ext))
			}
		}
	}
	appendNew := false // nvlink's list replaces the input record, at the end
	if ctx.isEntry(fn.sym) && moduleExterns != nil && !sameSymbols(ctx.ownExterns(fn), moduleExterns) {
		externs, appendNew = nil, true
		for _, ext := range moduleExterns {
			externs = le.AppendUint32(externs, ctx.symtab.indexOf(ext))
		}
	}
	// A kernel's NUM_MBARRIERS counts the mbarriers of every function of
	// its call tree, each once (its own included): nvlink rewrites the
	// kernel's record or adds one when any function of the tree has one,
	// even a record of 0.
	// The single kernel of an output counts those of every kept
	// function, also of the functions it does not reach (kept by -g or
	// -preserve-relocs), as for its EXTERNS; so it does for
	// RESERVED_SMEM_USED (singleTree).
	var mbarriers uint32
	treeMbarriers := false
	singleTree := tree
	if single && ctx.isEntry(fn.sym) {
		inTree := make(map[*function]bool, len(tree))
		for _, f := range tree {
			inTree[f] = true
		}
		singleTree = slices.Clone(tree)
		for _, f := range ctx.funcs {
			if !inTree[f] {
				singleTree = append(singleTree, f)
			}
		}
	}
	if ctx.isEntry(fn.sym) {
		for _, f := range singleTree {
			mbarriers += f.mbarriers
			treeMbarriers = treeMbarriers || f.hasMbarriers
		}
	}
	// The single kernel's SPARSE_MMA_MASK is unknown (0x8000; cuobjdump:
	// "Used Sparse Variants : UNKNOWN") when a kept function holds a
	// function a -ewp image's ptxas copied into it ($kernel$function),
	// which has no record of its own: measured with 12.4 and 12.5, an
	// image of one kernel calling a __noinline__ function, whatever the
	// options, and -kernels-used naming one kernel of several, with or
	// without -preserve-relocs, where the kernel or one kept as a
	// function holds such a copy.
	sparseUnknown := single && ctx.isEntry(fn.sym) && slices.ContainsFunc(singleTree, func(f *function) bool { return len(f.clones) > 0 })
	// A kernel's mask is that of every function of its call tree (the
	// single kernel's: of every kept function), its own included, and the
	// unknown bit with it: nvlink 12.4 and 12.5 rewrite the kernel's
	// record (a kernel using HMMA.SP itself and holding a copy: "HMMA.SP
	// UNKNOWN"); a device function keeps its own, whatever it calls.
	var sparsePayload [2]byte
	if ctx.isEntry(fn.sym) {
		var mask uint16
		for _, f := range singleTree {
			mask |= f.sparseMask
		}
		if sparseUnknown {
			mask |= sparseUnknownMask
		}
		le.PutUint16(sparsePayload[:], mask)
	}
	var mbarPayload [2]byte // the record's payload, rewritten or added
	le.PutUint16(mbarPayload[:], uint16(mbarriers))
	use := ctx.resourcesOf(fn)
	crs := fn.crsStack
	if ctx.isEntry(fn.sym) {
		crs = use.crsChain
	}
	// The records are about the input's, give or take the ones rewritten
	// or added below: sized so, buf is allocated once.
	w := infoWriter{buf: make([]byte, 0, len(isec.sec.Data)+len(externs)+24)}
	wroteExterns, wroteCRS, wroteMbarriers := false, false, false
	var word [4]byte // a one-word payload
	for i := len(recs) - 1; i >= 0; i-- {
		r := recs[i]
		switch {
		case r.attr == cubin.EIATTR_EXTERNS && r.format == eifmtSVal:
			// nvlink rewrites the record in place, even when every
			// function it named is now defined; with nothing left to
			// list it drops the record.
			if len(externs) == 0 || appendNew {
				continue
			}
			r.payload, wroteExterns = externs, true
		case r.attr == cubin.EIATTR_NUM_MBARRIERS && r.format == eifmtHVal && ctx.isEntry(fn.sym):
			r.payload, wroteMbarriers = mbarPayload[:], true
		case r.attr == cubin.EIATTR_SPARSE_MMA_MASK && r.format == eifmtHVal && ctx.isEntry(fn.sym):
			r.payload = sparsePayload[:]
		case r.attr == cubin.EIATTR_CRS_STACK_SIZE && r.format == eifmtSVal:
			if use.recursive || use.stackUnknownIn {
				// Unknown, in place: ptxas writes a record of 0 for
				// recursion inside a file (sm_70 and up) and, with -G,
				// for kernels making virtual calls.
				le.PutUint32(word[:], stackUnknown)
				r.payload, wroteCRS = word[:], true
				break
			}
			le.PutUint32(word[:], crs)
			r.payload, wroteCRS = word[:], true
		case (r.attr == cubin.EIATTR_KPARAM_INFO || r.attr == cubin.EIATTR_KPARAM_INFO_V2) && r.format == eifmtSVal && len(r.payload) >= 4:
			// nvlink maps the parameter's index word through the file's
			// symbol map, in which index 0 stands for the file's
			// placeholder (see addPlaceholder): only -g and
			// -preserve-relocs keep it. 12.x's records for parameters
			// over 4 KiB (V2) are mapped the same way.
			if ph := isec.file.placeholder; le.Uint32(r.payload) == 0 && ph != nil && ctx.symtab.indexOf(ph) != 0 {
				le.PutUint32(w.buf[w.record(r):], ctx.symtab.indexOf(ph))
				continue
			}
		case r.symWord():
			out := ctx.outSymIndex(isec.file.syms[r.sym()])
			if out == 0 {
				continue
			}
			le.PutUint32(w.buf[w.record(r):], out)
			continue
		}
		w.record(r)
	}
	switch {
	case (use.recursive || use.stackUnknownIn) && !wroteCRS:
		// nvlink marks a recursive kernel's CRS stack as unknown.
		w.wordRecord(cubin.EIATTR_CRS_STACK_SIZE, stackUnknown)
	case crs > 0 && !wroteCRS:
		w.wordRecord(cubin.EIATTR_CRS_STACK_SIZE, crs)
	}
	if ctaidZ {
		// After the CRS stack size nvlink adds (sm_35 to sm_6x).
		w.record(infoRecord{format: eifmtNVal, attr: cubin.EIATTR_CTAIDZ_USED})
	}
	// The records a kernel gets from its call tree come after, in the
	// order nvlink meets them: function by function (the kernel, then its
	// callees in input order), each function's records in its own order.
	var added []treeRecord
	if len(externs) > 0 && !wroteExterns {
		rec := firstInTree(tree, cubin.EIATTR_EXTERNS, func(f *function) bool {
			return slices.ContainsFunc(f.externs, func(ext *symbol) bool { return ctx.symtab.indexOf(ext) != 0 && ctx.staysExtern(ext) })
		})
		if appendNew {
			// The single kernel's new list goes after every other
			// record, those it takes from the functions it does not
			// reach included.
			rec.fn = len(ctx.funcs) + 1
		}
		added = append(added, rec)
	}
	if treeMbarriers && !wroteMbarriers {
		added = append(added, firstInTree(singleTree, cubin.EIATTR_NUM_MBARRIERS, func(f *function) bool { return f.hasMbarriers }))
	}
	if ctx.isEntry(fn.sym) && !fn.ctaidZ && !ctaidZ && slices.ContainsFunc(tree, func(f *function) bool { return f.ctaidZ }) {
		// A kernel whose callee reads blockIdx.z reads it too.
		added = append(added, firstInTree(tree, cubin.EIATTR_CTAIDZ_USED, func(f *function) bool { return f.ctaidZ }))
	}
	if ctx.isEntry(fn.sym) && !fn.reservedSmem && slices.ContainsFunc(singleTree, func(f *function) bool { return f.reservedSmem }) {
		// A kernel whose callee uses the reserved shared memory uses
		// it too (nvlink 12.x; ptxas 11.8 writes no such record).
		added = append(added, firstInTree(singleTree, cubin.EIATTR_RESERVED_SMEM_USED, func(f *function) bool { return f.reservedSmem }))
	}
	slices.SortStableFunc(added, func(a, b treeRecord) int { return cmp.Or(cmp.Compare(a.fn, b.fn), cmp.Compare(a.rec, b.rec)) })
	if single && ctx.isEntry(fn.sym) {
		// The single kernel of an output takes RESERVED_SMEM_USED before
		// NUM_MBARRIERS, whichever function gives it each (measured with
		// 12.4 and 12.5: -kernels-used naming one kernel, with or without
		// -preserve-relocs, and the two records' functions in either
		// order; without the list, the functions' order decides).
		mbar := slices.IndexFunc(added, func(a treeRecord) bool { return a.attr == cubin.EIATTR_NUM_MBARRIERS })
		smem := slices.IndexFunc(added, func(a treeRecord) bool { return a.attr == cubin.EIATTR_RESERVED_SMEM_USED })
		if mbar >= 0 && smem > mbar {
			added[mbar], added[smem] = added[smem], added[mbar]
		}
	}
	for _, a := range added {
		switch a.attr {
		case cubin.EIATTR_EXTERNS:
			w.record(infoRecord{format: eifmtSVal, attr: cubin.EIATTR_EXTERNS, payload: externs})
		case cubin.EIATTR_NUM_MBARRIERS:
			w.record(infoRecord{format: eifmtHVal, attr: cubin.EIATTR_NUM_MBARRIERS, payload: mbarPayload[:]})
		case cubin.EIATTR_CTAIDZ_USED:
			w.record(infoRecord{format: eifmtNVal, attr: cubin.EIATTR_CTAIDZ_USED})
		case cubin.EIATTR_RESERVED_SMEM_USED:
			w.record(infoRecord{format: eifmtNVal, attr: cubin.EIATTR_RESERVED_SMEM_USED})
		}
	}
	if ctx.isEntry(fn.sym) && ctx.config.Arch < 70 && callsCNP(singleTree) {
		// Before Volta the driver wraps a kernel that calls into the
		// device runtime (launches, synchronizes, queries). The single
		// kernel of an output gets the records as soon as any kept
		// function calls into it (a kernel -kernels-used leaves out and
		// -preserve-relocs keeps as a function), as for its mbarriers.
		w.record(infoRecord{format: eifmtNVal, attr: cubin.EIATTR_NEED_CNP_WRAPPER})
		if ctx.config.Arch < 50 || fn.ctaidRead {
			// On Kepler (sm_35, sm_37) the driver also patches it, and
			// on Maxwell and Pascal where it reads blockIdx.
			w.record(infoRecord{format: eifmtNVal, attr: cubin.EIATTR_NEED_CNP_PATCH})
		}
	} else if ctx.cnpPatched[fn] {
		w.record(infoRecord{format: eifmtNVal, attr: cubin.EIATTR_NEED_CNP_PATCH})
	}
	osec := isec.out
	osec.setBytes(w.buf)
	osec.addralign = 4
}

// cnpPatchedFunctions returns the device functions that get
// EIATTR_NEED_CNP_PATCH before Volta: those whose code reads blockIdx
// (S2RCTAID_INSTR_OFFSETS), in the call tree of a kernel the driver wraps
// (reachesCNP), as the kernel itself gets it when it reads blockIdx
// (measured with nvlink 11.8 on sm_35, sm_52 and sm_61: a kernel that
// launches kernels and a noinline helper of it that reads blockIdx.x;
// CUDA 12.x device launches need no wrapper).
func cnpPatchedFunctions(ctx *linkContext) map[*function]bool {
	if ctx.config.Arch >= 70 {
		return nil
	}
	var patched map[*function]bool
	for _, k := range ctx.funcs {
		if !ctx.isEntry(k.sym) || !reachesCNP(k) {
			continue
		}
		for _, fn := range callTree(k) {
			if fn != k && fn.ctaidRead && !ctx.isEntry(fn.sym) {
				if patched == nil {
					patched = map[*function]bool{}
				}
				patched[fn] = true
			}
		}
	}
	return patched
}

// reachesCNP says whether kernel k's call tree calls a device-runtime
// syscall of the driver (cnpLaunchDeviceV2, cnpCtxSynchronize, ...; not
// the __cuda_syscall_ ones), directly or through the functions of
// libcudadevrt.
func reachesCNP(k *function) bool { return callsCNP(callTree(k)) }

// callsCNP says whether a function of tree calls into the device runtime.
func callsCNP(tree []*function) bool {
	for _, fn := range tree {
		for _, ext := range fn.externs {
			if !ext.defined() && isDriverSyscall(ext.name) && strings.HasPrefix(ext.name, "cnp") {
				return true
			}
		}
	}
	return false
}

// ownExterns returns what fn's own EXTERNS record still names.
func (ctx *linkContext) ownExterns(fn *function) []*symbol {
	var own []*symbol
	for _, ext := range fn.externs {
		if ctx.symtab.indexOf(ext) != 0 && ctx.staysExtern(ext) {
			own = appendSymOnce(own, ext)
		}
	}
	return own
}

// sameSymbols says whether two lists hold the same symbols.
func sameSymbols(a, b []*symbol) bool {
	if len(a) != len(b) {
		return false
	}
	for _, sym := range a {
		if !slices.Contains(b, sym) {
			return false
		}
	}
	return true
}

// staysExtern says whether EXTERNS keep naming a function after the link:
// one no input defines (a driver syscall), or a kernel, which device code
// launches through the driver: by its symbol, also one kept as an ordinary
// function (demoted), as nvlink lists the launched kernels -kernels-used
// leaves out.
func (ctx *linkContext) staysExtern(sym *symbol) bool {
	return !sym.defined() || sym.other&cubin.STO_CUDA_ENTRY != 0
}

// buildCallgraph writes the merged call graph: every edge between live
// functions (and to undefined externs), then address-taken functions, then
// indirect call sites.
func (ctx *linkContext) buildCallgraph() {
	var b []byte
	pair := func(a, c uint32) { b = le.AppendUint32(le.AppendUint32(b, a), c) }
	pair(0, cgCalls)
	// Callers in the order nvlink created their symbols; each caller's
	// edges in the reverse of the order recorded.
	callers := slices.Clone(ctx.funcs)
	slices.SortStableFunc(callers, func(a, b *function) int {
		return cmp.Compare(ctx.names.createdAt(a.sym), ctx.names.createdAt(b.sym))
	})
	for _, fn := range callers {
		for i := len(fn.edges) - 1; i >= 0; i-- {
			if c := fn.edges[i]; ctx.symtab.indexOf(c) != 0 && !ctx.isDeleted(c) {
				pair(ctx.symtab.indexOf(fn.sym), ctx.symtab.indexOf(c))
			}
		}
	}
	pair(0, cgAddrTaken)
	// Input by input, each function under the input that made its symbol
	// first (which defines it or first names it, not the one that takes
	// its address), each input's in the order its symbols were made. (Not
	// output symbol order: the final link of a partial output makes its
	// global op_neg before the weak virtual members the output's .symtab
	// puts first, and lists op_neg first: partial-address-taken-order-*.)
	addrTaken := slices.Clone(ctx.addrTaken)
	slices.SortStableFunc(addrTaken, func(a, b *function) int {
		return cmp.Or(cmp.Compare(ctx.names.createdIn(a.sym), ctx.names.createdIn(b.sym)), cmp.Compare(ctx.names.createdAt(a.sym), ctx.names.createdAt(b.sym)))
	})
	for _, fn := range addrTaken {
		switch {
		case ctx.isLive(fn) && fn.descOnly:
			pair(ctx.symtab.indexOf(fn.sym), 0)
		case ctx.isLive(fn):
			pair(ctx.symtab.indexOf(fn.sym), ctx.strtab.add(fn.proto))
		}
	}
	pair(0, cgIndirect)
	for _, fn := range callers {
		for _, p := range fn.indirectProtos {
			pair(ctx.symtab.indexOf(fn.sym), ctx.strtab.add(p))
		}
	}
	if ctx.toolkit.indirectGroup {
		pair(0, cgRefs)
		for _, fn := range callers {
			for i := len(fn.refs) - 1; i >= 0; i-- {
				if r := fn.refs[i]; ctx.symtab.indexOf(r) != 0 && !ctx.isDeleted(r) {
					pair(ctx.symtab.indexOf(fn.sym), ctx.symtab.indexOf(r))
				}
			}
		}
	}
	osec := ctx.outByName.get(".nv.callgraph")
	osec.setBytes(b)
	osec.addralign = 4
}

// collectPrototypes lists what .nv.prototype will hold: the signature of
// every output non-kernel function and called extern, the first time a file
// names it, files in command-line order, each file's symbols by index. The
// signature is the first file's that gives one: a file may name a function
// without giving it (an nvcc -c -ewp image has no .nv.prototype; its calls
// into libcudadevrt get their slots where it names them). A function whose
// address any input takes is left out (ptxas leaves it out of the file that
// takes it; nvlink also of the files that define or call it).
func (ctx *linkContext) collectPrototypes() []protoEntry {
	sigs := map[*symbol]string{}
	for _, file := range ctx.files {
		for _, proto := range file.protoList {
			sym := file.syms[proto.sym]
			if _, ok := sigs[sym]; !ok && sym != nil {
				sigs[sym] = proto.sig
			}
		}
	}
	var list []protoEntry
	seen := map[*symbol]bool{}
	for _, file := range ctx.files {
		for _, sym := range file.syms {
			sig, ok := sigs[sym]
			if !ok || seen[sym] || ctx.isEntry(sym) || ctx.liveFunc(sym) != nil && ctx.funcOf(sym).addrTaken || sym.local && !ctx.keepLocal(sym) || !sym.local && !ctx.keepGlobal(sym) {
				continue
			}
			seen[sym] = true
			list = append(list, protoEntry{sym, sig})
		}
	}
	return list
}

type protoEntry struct {
	sym *symbol
	sig string
}

// buildPrototypes writes .nv.prototype.
func (ctx *linkContext) buildPrototypes() {
	osec := ctx.outByName.get(".nv.prototype")
	if osec == nil {
		return
	}
	var b []byte
	for _, p := range ctx.prototypes {
		b = le.AppendUint32(b, ctx.symtab.indexOf(p.sym))
		b = le.AppendUint32(b, ctx.strtab.add(p.sig))
	}
	osec.setBytes(b)
	osec.addralign = 4
}

type prototype struct {
	sym uint32
	sig string
}

func mustHex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// sparseUnknownMask is the bit of EIATTR_SPARSE_MMA_MASK that says the
// mask is not fully known (cuobjdump: "UNKNOWN").
const sparseUnknownMask = 0x8000

// A treeRecord is a record a kernel gets from its call tree (EXTERNS,
// NUM_MBARRIERS, CTAIDZ_USED, RESERVED_SMEM_USED), placed where nvlink first meets it: fn is
// the index in the tree of the first function that has it, rec the index
// of that function's own record (-1 for externs it names without one).
type treeRecord struct {
	attr    cubin.Attr
	fn, rec int
}

// treeAttrs are the records a kernel takes from its call tree (see
// treeRecord).
var treeAttrs = [...]cubin.Attr{cubin.EIATTR_EXTERNS, cubin.EIATTR_NUM_MBARRIERS, cubin.EIATTR_CTAIDZ_USED, cubin.EIATTR_RESERVED_SMEM_USED}

// noteTreeRecords notes in fn.infoAt where fn's first record of each of
// treeAttrs is among recs, the records of one of its .nv.info sections,
// unless an earlier section had one.
func (fn *function) noteTreeRecords(recs []infoRecord) {
	for k, attr := range treeAttrs {
		if fn.infoAt[k] != 0 {
			continue
		}
		if j := slices.IndexFunc(recs, func(r infoRecord) bool { return r.attr == attr }); j >= 0 {
			fn.infoAt[k] = int32(j + 1)
		}
	}
}

// firstInTree finds the first function of tree that has, and the place
// of its record attr (one of treeAttrs) among its own records.
func firstInTree(tree []*function, attr cubin.Attr, has func(*function) bool) treeRecord {
	k := slices.Index(treeAttrs[:], attr)
	for i, f := range tree {
		if has(f) {
			return treeRecord{attr, i, int(f.infoAt[k]) - 1}
		}
	}
	return treeRecord{attr, len(tree), 0}
}

// givesTreeRecords says whether f has something that rebuildFunctionInfo
// gives the kernels whose call tree holds it: an extern that stays one,
// mbarriers, a read of blockIdx.z, reserved shared memory, a sparse MMA
// mask or a -ewp copy. When no function has (dead ones included, so
// that a tree cannot hold one unseen), a kernel's records are its own and
// buildNVInfo walks no tree: in a deep call chain through 100 files
// each kernel reaches 150 functions on average, whose EXTERNS the link all
// resolved (docs/benchmarks.md, perf16).
func (ctx *linkContext) givesTreeRecords(f *function) bool {
	return slices.ContainsFunc(f.externs, ctx.staysExtern) || f.hasMbarriers || f.mbarriers != 0 ||
		f.ctaidZ || f.reservedSmem || f.sparseMask != 0 || len(f.clones) > 0
}

// externsOrder returns fn and the functions it reaches in the order nvlink
// gathers their EXTERNS: fn first, then the others in function order (the
// order of their .nv.info sections), whatever the call graph's order.
// The list is the walker's, until its next walk.
func externsOrder(trees *treeWalker, fn *function) []*function {
	tree := trees.walk(fn)
	slices.SortStableFunc(tree[1:], func(a, b *function) int { return cmp.Compare(a.order, b.order) })
	return tree
}
