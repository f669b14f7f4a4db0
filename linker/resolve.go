package linker

import (
	"cmp"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/cudalink/cudalink/linker/cubin"
)

// resolveSymbols gives every global name one Symbol and picks its
// definition. Files are visited in command-line order, so ties are broken by
// that order and never by scheduling.
func resolveSymbols(ctx *linkContext) {
	// Names are looked up only here: later passes reach symbols through
	// file.syms, so the map goes with the pass.
	n := 0
	nlocal := make([]int, len(ctx.files))
	for i, file := range ctx.files {
		nlocal[i] = locals(file.ELF)
		n += len(file.ELF.Symbols) - 1 - nlocal[i]
	}
	g := globalSymbols{byName: make(map[string]*symbol, n)}
	before := ctx.fatalErrors()
	ewp := ctx.hasEWP()
	for fi, file := range ctx.files {
		if ctx.fatalErrors() > before {
			// nvlink merges the inputs one by one and stops after the
			// first whose symbols gave a fatal error (a duplicate
			// definition: "merge_elf failed"), so the inputs after it
			// report nothing (11.8, 12.4 and 12.5), -ewp mix warnings
			// included.
			break
		}
		if ewp && ctx.warnMixedEWPFile(file) {
			break // -Werror: nvlink stops at the first
		}
		ef := file.ELF
		file.syms = make([]*symbol, len(ef.Symbols))
		local := make([]symbol, nlocal[fi]) // one allocation for the file's locals
		var dataDups []*linkError
		for i := 1; i < len(ef.Symbols); i++ {
			esym := &ef.Symbols[i]
			if esym.Bind() == cubin.STB_LOCAL {
				sym := &local[0]
				local = local[1:]
				*sym = symbol{name: esym.Name, info: esym.Info, other: esym.Other,
					size: esym.Size, file: file, shndx: esym.Shndx,
					section: file.sectionOf(esym.Shndx), local: true, esymIndex: int32(i), id: g.nextID()}
				file.syms[i] = sym
				continue
			}
			sym, first := g.symbol(ctx, esym.Name)
			if first {
				sym.firstBind = esym.Bind()
			}
			file.syms[i] = sym
			if dup := ctx.addDefinition(sym, file, i); dup != nil {
				dataDups = append(dataDups, dup)
			}
		}
		// nvlink reports a file's duplicate functions first, then its
		// duplicate variables, each in symbol-table order (11.8, 12.4
		// and 12.5).
		for _, dup := range dataDups {
			ctx.report(dup)
		}
	}
	// One more id for each file, for the placeholder registerNames may
	// make in it (placeholderID).
	ctx.symbolIDs = g.next + int32(len(ctx.files))
}

// placeholderID is the id resolveSymbols kept for the placeholder of file
// (see addPlaceholder).
func (ctx *linkContext) placeholderID(file *inputFile) int32 {
	return ctx.symbolIDs - int32(len(ctx.files)) + int32(file.index)
}

// locals counts the local symbols of ef, but for the null symbol.
func locals(ef *cubin.File) int {
	n := 0
	for i := 1; i < len(ef.Symbols); i++ {
		if ef.Symbols[i].Bind() == cubin.STB_LOCAL {
			n++
		}
	}
	return n
}

// globalSymbols makes the global symbols while names are resolved: one per
// name, handed out from slabs of symbolSlab. It numbers them, and the
// files' local symbols, in the order they are made (symbol.id).
type globalSymbols struct {
	byName map[string]*symbol
	slab   []symbol
	next   int32 // the next symbol's id
}

// nextID hands out the next symbol id.
func (g *globalSymbols) nextID() int32 {
	g.next++
	return g.next - 1
}

const symbolSlab = 256

// symbol returns the global symbol for name, creating it on first sight
// (first).
func (g *globalSymbols) symbol(ctx *linkContext, name string) (sym *symbol, first bool) {
	if known, ok := g.byName[name]; ok {
		return known, false
	}
	if len(g.slab) == 0 {
		g.slab = make([]symbol, symbolSlab)
	}
	sym = &g.slab[0]
	g.slab = g.slab[1:]
	sym.name, sym.id = name, g.nextID()
	g.byName[name] = sym
	ctx.symbols = append(ctx.symbols, sym)
	return sym, true
}

// inputValue is the st_value of sym's chosen definition: relative to its
// input section (symbol.section), a common's alignment (that of the first
// common of its name: resolveSymbols' commonAlign), 0 for an undefined
// symbol or a placeholder.
func (ctx *linkContext) inputValue(sym *symbol) uint64 {
	if sym.file == nil || sym.isPlaceholder() {
		return 0
	}
	if sym.defRank() == rankCommon {
		if a, ok := ctx.commonAlign[sym]; ok {
			return a
		}
	}
	return sym.file.ELF.Symbols[sym.esymIndex].Value
}

// sectionOf returns the input section for a symbol's section index, nil for
// undefined and special indices.
func (file *inputFile) sectionOf(shndx uint32) *inputSection {
	if shndx == cubin.SHN_UNDEF || int(shndx) >= len(file.sections) ||
		(shndx >= cubin.SHN_LORESERVE && shndx <= cubin.SHN_XINDEX && len(file.sections) <= int(cubin.SHN_LORESERVE)) {
		return nil
	}
	return file.sections[shndx]
}

// Definition ranks, highest wins.
const (
	rankUndefined = iota
	rankCommon
	rankWeak
	rankStrong
)

// rank orders the kinds of definition of one name:
//
//	strong (STB_GLOBAL, defined)  beats every other kind; two of them are an error
//	weak (STB_WEAK, defined)      beats common and undefined; between two weak
//	                              functions the one using fewer registers (as
//	                              its code section's sh_info records them)
//	                              wins, then the one from newer PTX (higher virtual
//	                              architecture), then the one first on the
//	                              command line
//	common (SHN_COMMON)           beats undefined; between two commons the
//	                              largest size is kept, with the alignment
//	                              of the first (commons are allocated in
//	                              .nv.global by allocateCommons)
//	undefined                     only records the reference
//
// Data definitions must agree in size (checkDataDefinitions has nvlink's
// rules, which also let a common stay ahead of a later uninitialized
// strong definition).
func rank(esym *cubin.Symbol) int {
	switch {
	case esym.Shndx == cubin.SHN_UNDEF:
		return rankUndefined
	case esym.Shndx == cubin.SHN_COMMON:
		return rankCommon
	case esym.Bind() == cubin.STB_WEAK:
		return rankWeak
	}
	return rankStrong
}

// addDefinition merges one file's view of a global name into sym. A second
// strong definition of a variable is returned, for the caller to report
// after the file's other errors; any other error it reports itself.
func (ctx *linkContext) addDefinition(sym *symbol, file *inputFile, idx int) *linkError {
	esym := &file.ELF.Symbols[idx]
	newRank := rank(esym)
	if newRank == rankUndefined {
		if sym.file == nil && sym.info == 0 {
			sym.info, sym.other, sym.size = esym.Info, esym.Other, esym.Size
		}
		return nil
	}
	oldRank := rankUndefined
	if sym.file != nil {
		oldRank = sym.defRank()
	}
	if oldRank != rankUndefined && esym.Type() != cubin.STT_FUNC && !ctx.checkDataDefinitions(sym, file, esym, newRank) {
		return nil
	}
	take := false
	switch {
	case newRank > oldRank:
		take = true
	case newRank < oldRank:
	case newRank == rankStrong:
		if esym.Type() != cubin.STT_FUNC {
			return &linkError{file: file.nvlinkName(), symbol: sym.name,
				msg:  "duplicate definition of device symbol",
				refs: []string{firstDefinedIn(ctx.firstHolder(sym, file), file)}}
		}
		ctx.report(&linkError{file: file.nvlinkName(), symbol: sym.name,
			msg:  "duplicate definition of device symbol",
			refs: []string{firstDefinedIn(sym.file, file)}})
	case newRank == rankWeak:
		if esym.Other&cubin.STO_CUDA_ENTRY != 0 && ctx.isEntry(sym) {
			if a, b := file.paramBankSize(esym), sym.file.paramBankSize(&sym.file.ELF.Symbols[sym.esymIndex]); a != b {
				ctx.report(&linkError{file: file.nvlinkName(), symbol: sym.name,
					msg:  fmt.Sprintf("weak kernel defined again with a parameter bank of another size (0x%x bytes here, 0x%x first)", a, b),
					refs: []string{"first defined in " + sym.file.nvlinkName()}})
				return nil
			}
		}
		if esym.Type() == cubin.STT_FUNC {
			// nvlink compares the registers with the chosen copy's but
			// the virtual architecture with the first copy's: after a
			// copy from PTX for an older one (compiled by the link) lost
			// to a later copy, every later copy of an equal count wins
			// too (11.8, 12.4 and 12.5). A third copy with fewer registers
			// than the first but more than the chosen one loses
			// (weak-function-fewer-registers-compared-with-chosen-copy-sm80).
			firstVSM, ok := ctx.weakFirstVSM[sym]
			if !ok {
				firstVSM = sym.file.ELF.Header.VirtualSM()
				if ctx.weakFirstVSM == nil {
					ctx.weakFirstVSM = map[*symbol]int{}
				}
				ctx.weakFirstVSM[sym] = firstVSM
			}
			newRegs, oldRegs := file.regCount(idx), sym.file.regCount(int(sym.esymIndex))
			take = newRegs < oldRegs ||
				newRegs == oldRegs && file.ELF.Header.VirtualSM() > firstVSM
			if take && esym.Other&cubin.STO_CUDA_ENTRY != 0 {
				if _, ok := ctx.weakFirstBankLink[sym]; !ok {
					if ctx.weakFirstBankLink == nil {
						ctx.weakFirstBankLink = map[*symbol]bool{}
					}
					first := sym.file.paramBank(&sym.file.ELF.Symbols[sym.esymIndex])
					ctx.weakFirstBankLink[sym] = first != nil && first.Flags&cubin.SHF_INFO_LINK != 0
				}
			}
			if !take && sym.file != file {
				// nvlink skips this copy's symbols (registerNames).
				if file.weakSkipped == nil {
					file.weakSkipped = map[uint32]bool{}
				}
				file.weakSkipped[uint32(esym.Shndx)] = true
			}
		}
	case newRank == rankCommon:
		if esym.Size > sym.size {
			// The larger common is the one nvlink names from now on; the
			// first common's alignment (its st_value) stays.
			if _, ok := ctx.commonAlign[sym]; !ok {
				if ctx.commonAlign == nil {
					ctx.commonAlign = map[*symbol]uint64{}
				}
				ctx.commonAlign[sym] = sym.file.ELF.Symbols[sym.esymIndex].Value
			}
			sym.size, sym.file, sym.esymIndex = esym.Size, file, int32(idx)
		}
	}
	if !take {
		if newRank == rankWeak && oldRank >= rankWeak && esym.Type() != cubin.STT_FUNC {
			// nvlink skips this copy (see lostStorage).
			if file.skippedData == nil {
				file.skippedData = map[uint32]bool{}
			}
			file.skippedData[uint32(idx)] = true
		}
		return nil
	}
	sym.info, sym.other, sym.size = esym.Info, esym.Other, esym.Size
	sym.file, sym.shndx = file, esym.Shndx
	sym.section = file.sectionOf(esym.Shndx)
	sym.esymIndex = int32(idx)
	return nil
}

// firstDefinedIn is a duplicate definition's "first defined in" line,
// which says when the two definitions come from one file given twice (by
// the same name or another path to it; the same unit of it, since an ld -r
// object's units are files of their own): nvlink names that file twice
// with no more to say, and a build script that lists an object twice is
// the likely cause.
func firstDefinedIn(first, file *inputFile) string {
	ref := "first defined in " + first.nvlinkName()
	if first != file && !first.unit.member && !file.unit.member && first.unit.id == file.unit.id && sameFile(first.Name, file.Name) {
		ref += " (the same file, given twice on the command line: give each input once)"
	}
	return ref
}

// sameFile says whether the paths a and b name one file.
func sameFile(a, b string) bool {
	if a == b {
		return true
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// firstHolder is the first input before file, in link order, whose symbol
// table names sym, a reference or a definition: nvlink's "first defined
// in" for a data symbol defined twice (11.8, 12.4 and 12.5: an object that
// only refers to the variable, ahead of its two definitions, is named; for
// a function, the first definition is). Only a duplicate asks, so the
// inputs' symbols are searched then.
func (ctx *linkContext) firstHolder(sym *symbol, file *inputFile) *inputFile {
	for _, f := range ctx.files {
		if f == file {
			break
		}
		if slices.Contains(f.syms, sym) {
			return f
		}
	}
	return sym.file
}

// checkDataDefinitions applies nvlink's rules for a second definition of a
// data symbol (sym, already defined or common) in file, and says whether
// resolution goes on to rank it:
//
//   - two definitions with contents or storage (weak or strong, initialized
//     or not) must have the same size;
//   - a common must not be larger than an initialized definition, in
//     either order; the initialized one is kept;
//   - an uninitialized strong definition after a common of the same size
//     leaves the common in charge (its storage stays, unused); of another
//     size it is a size mismatch;
//   - a common after an uninitialized strong definition is a duplicate
//     definition (and a size mismatch if the sizes differ).
func (ctx *linkContext) checkDataDefinitions(sym *symbol, file *inputFile, esym *cubin.Symbol, newRank int) bool {
	old := &sym.file.ELF.Symbols[sym.esymIndex]
	sizeMismatch := func() {
		ctx.report(&linkError{file: file.nvlinkName(), symbol: sym.name,
			msg:  fmt.Sprintf("size of device symbol differs (0x%x bytes here, 0x%x first)", esym.Size, sym.size),
			refs: []string{"first specified in " + sym.file.nvlinkName()}})
	}
	largerCommon := func(common, init *inputFile, commonSize, initSize uint64) {
		ctx.report(&linkError{file: common.Name, symbol: sym.name,
			msg:  fmt.Sprintf("common symbol has larger size (0x%x bytes) than its initialization (0x%x bytes)", commonSize, initSize),
			refs: []string{"initialized in " + init.Name}})
	}
	switch oldCommon, newCommon := sym.defRank() == rankCommon, newRank == rankCommon; {
	case oldCommon && newCommon:
		return true
	case oldCommon:
		if file.initialized(esym) {
			if sym.size > esym.Size {
				largerCommon(sym.file, file, sym.size, esym.Size)
				return false
			}
			return true
		}
		if esym.Size != sym.size {
			sizeMismatch()
		}
		return false
	case newCommon:
		if sym.file.initialized(old) {
			if esym.Size > sym.size {
				largerCommon(file, sym.file, esym.Size, sym.size)
			}
			return false
		}
		if esym.Size != sym.size {
			sizeMismatch()
		}
		if sym.defRank() == rankStrong {
			ctx.report(&linkError{file: file.nvlinkName(), symbol: sym.name,
				msg:  "duplicate definition of device symbol (a common after a definition)",
				refs: []string{firstDefinedIn(sym.file, file)}})
		}
		return false
	}
	if esym.Size != sym.size {
		sizeMismatch()
		// Two strong ones are also a duplicate, which the caller reports.
		return sym.defRank() == rankStrong && newRank == rankStrong
	}
	return true
}

// paramBankSize returns the size of a kernel's parameter bank, its
// .nv.constant0.<k> section (0 if it has none).
func (file *inputFile) paramBankSize(esym *cubin.Symbol) uint64 {
	if s := file.paramBank(esym); s != nil {
		return s.Size
	}
	return 0
}

// paramBank returns a kernel's parameter bank, its .nv.constant0.<k>
// section (nil if it has none).
func (file *inputFile) paramBank(esym *cubin.Symbol) *cubin.Section {
	for _, isec := range file.sections {
		if s := isec.sec; s.Type == cubin.SHT_CUDA_CONSTANT_B0 && s.Info == esym.Shndx {
			return s
		}
	}
	return nil
}

// initialized says whether a data symbol of the file lives in a section
// with contents (.nv.global.init, constant banks) rather than in NOBITS
// storage.
func (file *inputFile) initialized(esym *cubin.Symbol) bool {
	isec := file.sectionOf(esym.Shndx)
	return isec != nil && cubin.HasFileData(isec.sec.Type)
}

// regCount returns the register count nvlink compares for a weak function:
// the register byte of its code section's sh_info (0 for a device function
// on sm_90, where only the EIATTR_REGCOUNT record says; ties then keep the
// first copy), else that record.
func (file *inputFile) regCount(idx int) int {
	esym := &file.ELF.Symbols[idx]
	if isec := file.sectionOf(esym.Shndx); isec != nil {
		return int(isec.sec.Info >> 24)
	}
	for r := range file.globalInfo() {
		if r.attr == cubin.EIATTR_REGCOUNT && r.symWord() && r.sym() == uint32(idx) {
			return int(r.value())
		}
	}
	return 0
}

// isDriverSyscall says whether name is one of the undefined functions the
// CUDA driver provides; a link may leave them undefined, as nvlink does.
// (A switch, not a map: a map would be built when the process starts.)
func isDriverSyscall(name string) bool {
	switch name {
	case "vprintf", "malloc", "free", "vfprintf", "__assertfail", "__profile",
		"cnpGetParameterBuffer", "cnpLaunchDevice", "cnpCtxSynchronize", "cnpFuncGetAttribute",
		"cnpStreamCreate", "cnpStreamDestroy", "cnpStreamWaitEvent", "cnpEventCreate", "cnpEventRecord",
		"cnpEventDestroy", "cnpDeviceGetName", "cnpDeviceGetAttribute", "cnpGetDeviceCount",
		"cnpGetDevice", "cnpGetLastError", "cnpSetLastError", "cnpGetCacheConfig",
		"cnpGetSharedMemConfig", "cnpGetLimit", "cnpDeviceGetTotalMem", "cnpGetParameterBufferV2",
		"cnpLaunchDeviceV2":
		return true
	}
	return false
}

// isDeviceGraphFunction says whether name is one of the device graph
// functions of CUDA 12's device runtime that nvlink 12.4 and 12.5 leave
// undefined for the driver, as they leave isDriverSyscall's (it is their
// list after cnpLaunchDeviceV2); libcudadevrt defines none of them.
func isDeviceGraphFunction(name string) bool {
	switch name {
	case "cudaGraphLaunch", "cudaGraphSetConditional", "cudaGraphKernelNodeSetParam",
		"cudaGraphKernelNodeSetGridDim", "cudaGraphKernelNodeSetEnabled", "cudaGraphKernelNodeUpdatesApply":
		return true
	}
	return false
}

// mayStayUndefined says whether an undefined symbol is acceptable in the
// output: driver syscalls (and, for 12.x, the device graph functions),
// textures, samplers, surfaces and dynamic shared memory.
func (ctx *linkContext) mayStayUndefined(sym *symbol) bool {
	return undefinedIsFine(ctx.toolkit, sym.name, sym.typ(), sym.other)
}

// undefinedIsFine is mayStayUndefined for a symbol of that name, type
// (STT_*) and st_other, in a link that reproduces tk's nvlink.
func undefinedIsFine(tk *toolkit, name string, typ, other uint8) bool {
	if isDriverSyscall(name) || strings.HasPrefix(name, "__cuda_syscall") || tk.deviceGraphAPI && isDeviceGraphFunction(name) {
		return true
	}
	switch typ {
	case cubin.STT_CUDA_TEXTURE, cubin.STT_CUDA_SAMPLER, cubin.STT_CUDA_SURFACE:
		return true
	}
	return other&cubin.STO_CUDA_SPACE_MASK == cubin.STO_CUDA_SHARED
}

// undefinedFirst says whether the undefined references are reported
// before --dump-callgraph's output and the register limit errors
// (propagateRegisters), as nvlink 12.x does, with or without the option;
// 11.8 reports them after both.
func (ctx *linkContext) undefinedFirst() bool {
	return ctx.toolkit.undefinedBeforeCallgraph
}

// reportUndefinedBeforeCallgraph is reportUndefined where nvlink 12.x runs
// it: before the call graph and the register limit errors.
func reportUndefinedBeforeCallgraph(ctx *linkContext) {
	if ctx.undefinedFirst() {
		reportUndefined(ctx)
	}
}

// reportUndefinedAfterCallgraph is reportUndefined everywhere else.
func reportUndefinedAfterCallgraph(ctx *linkContext) {
	if !ctx.undefinedFirst() {
		reportUndefined(ctx)
	}
}

// reportUndefined reports every global that no input defines, with every
// file that references it, in the order nvlink 11.8 reports them. As nvlink
// does, it runs once dead code is removed, and with --dump-callgraph after
// the call graph (11.8) or before it (12.x): a function that only removed
// code calls is no error (and is left out of the output), while an
// undefined variable is one wherever it is used.
func reportUndefined(ctx *linkContext) {
	var undefined []*symbol
	// used holds the undefined functions, true once live code is found to
	// call or reference one. Most links have none, and skip the walk of
	// every input's relocations that finds them.
	var used map[*symbol]bool
	for _, sym := range ctx.symbols {
		if sym.file == nil && !ctx.mayStayUndefined(sym) && !ctx.isUnifiedTable(sym) {
			undefined = append(undefined, sym)
			if sym.isFunc() {
				if used == nil {
					used = map[*symbol]bool{}
				}
				used[sym] = false
			}
		}
	}
	if len(used) > 0 {
		use := func(sym *symbol) {
			if _, ok := used[sym]; ok {
				used[sym] = true
			}
		}
		for _, fn := range ctx.funcs {
			for _, c := range fn.edges {
				use(c)
			}
		}
		for sym := range ctx.undefAddrTaken {
			use(sym) // kept as every address-taken function is
		}
		var walk inputWalk // relocations are read from the inputs
		for _, file := range ctx.files {
			walk.visit(ctx, file)
			for _, isec := range file.sections {
				if isec.fn != nil && !ctx.isLive(isec.fn) {
					continue
				}
				for r := range isec.relocs() {
					if r.Sym != 0 && int(r.Sym) < len(file.syms) {
						use(file.syms[r.Sym])
					}
				}
			}
		}
		undefined = slices.DeleteFunc(undefined, func(sym *symbol) bool { return sym.isFunc() && !used[sym] })
	}
	// nvlink reports them in the order it created the names (see
	// registerNames): input by input, a file's functions in symbol-table
	// order before its other symbols.
	slices.SortStableFunc(undefined, func(a, b *symbol) int {
		return cmp.Compare(uint32(ctx.names.createdAt(a)-1), uint32(ctx.names.createdAt(b)-1)) // names never created last
	})
	for i, sym := range undefined {
		ctx.reportUndefinedSymbol(sym, i == len(undefined)-1)
	}
}

// reportUndefinedSymbol reports sym as undefined, naming every file that
// references it; the last one reported also names the inputs skipped for
// holding no relocatable device code (nvlink names none: a file compiled
// with nvcc -c instead of -dc is the usual cause of such an error).
func (ctx *linkContext) reportUndefinedSymbol(sym *symbol, last bool) {
	e := &linkError{symbol: sym.name, msg: "undefined device symbol", nonFatal: true}
	for _, file := range ctx.files {
		for i, s := range file.syms {
			if s == sym && file.ELF.Symbols[i].Shndx == cubin.SHN_UNDEF {
				e.refs = append(e.refs, "referenced by "+file.nvlinkName())
				break
			}
		}
	}
	if last {
		for _, name := range ctx.noRDC {
			e.refs = append(e.refs, "note: "+name+" was skipped: it holds no relocatable device code (compiled with nvcc -c, without -rdc?); if it defines this, compile it with nvcc -dc or -rdc=true")
		}
	}
	ctx.report(e)
}
