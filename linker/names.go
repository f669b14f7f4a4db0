package linker

import (
	"slices"
	"strconv"
	"strings"

	"github.com/cudalink/cudalink/linker/cubin"
)

// registerNames replays the order in which nvlink 11.8 creates names,
// sections and symbols while it merges each input, so that the output's
// string tables, section order and symbol order are nvlink's. The order was
// read off nvlink's own .strtab and .shstrtab, which keep every name in
// creation order, including names of things dead-code elimination later
// removed. Per input, in command-line order:
//
//  1. function symbols in symbol-table order (which also numbers the
//     call graph's nodes): the name,
//     then its .text section; a kernel also gets .nv.info.<k> and
//     .nv.shared.<k>;
//  2. every other symbol in symbol-table order: the section that holds it
//     (a kernel's parameter bank .nv.constant0.<k> brings
//     .rel.nv.constant0.<k>), then the symbol; then the non-allocated
//     data sections (.debug_*) in section-header order, with or without a
//     section symbol; then the sections of the section symbols, in
//     symbol-table order;
//  3. every remaining section in section-header order; .nv.prototype
//     contributes its signature strings, .nv.callgraph waits for the end.
//
// finishNames adds what nvlink creates after all inputs are merged. Sections get a
// section symbol when they are created, except .nv.info* and relocation
// sections. Global-binding names go to the global part of .symtab; local
// and weak ones to the local part, in creation order.
func registerNames(ctx *linkContext) {
	r := &ctx.names
	// Size the tables once, for the case where every input section and
	// symbol name is new.
	var secBytes, symBytes, sections, symbols int
	for _, file := range ctx.files {
		sections += len(file.ELF.Sections)
		symbols += len(file.ELF.Symbols)
		for _, s := range file.ELF.Sections {
			secBytes += len(s.Name) + 1
		}
		for i := range file.ELF.Symbols {
			symBytes += len(file.ELF.Symbols[i].Name) + 1
		}
	}
	r.shstrtab.reserve(secBytes)
	ctx.strtab.reserve(secBytes + symBytes)
	if ctx.gc.off {
		// With the collector off, every array an append outgrew stays
		// in the heap to the end. The lists, sized for every section
		// and symbol (and a placeholder per file), touch only the pages
		// their entries fill.
		r.secOrder.reserve(sections + 1) // and .nv.info
		r.local = make([]createdSym, 0, sections+symbols+len(ctx.files))
		r.global = make([]*symbol, 0, symbols)
	}
	// The string tables' slots, touched wherever a name hashes, are sized
	// once for half of the names (they repeat across inputs: 3,924 of
	// 7,498 in the flat 100-object benchmark program, 2,819 of 4,100
	// section names), and the created sections' index likewise (2,815
	// keys of 4,100 sections). With the collector off, the slots a rehash
	// outgrew stayed resident (flat 100: the heap's resident pages 5,600
	// -> 5,400 KiB, perf17, docs/benchmarks.md; doubling secOrder from 64
	// slots left 20 KB, perf18). With it on (a large link, the worker),
	// growing by doubling re-read and re-hashed every name added so far,
	// 6 times over from 1,024 slots: sized once, the large 400-object
	// program's tables end the same size (65,536 slots each), and its
	// link runs 400 -> 383 million instructions outside the Go runtime
	// (callgrind, three runs each, within 0.5 million; the runtime's
	// collector varies by 2% from run to run), a worker's one cold and
	// four warm links 1,842 -> 1,757 million (perf36).
	r.secOrder.rehash(sections / 2)
	r.shstrtab.rehash(sections / 2)
	ctx.strtab.rehash((sections + symbols) / 2)
	// A .text name for each function, at most: sized once, as a map
	// that grows leaves its outgrown tables in the heap while the
	// collector is off (flat 100: 53 -> 30 KB, perf18).
	r.textOwner = make(map[string]*symbol, len(ctx.allFuncs))
	r.dupFuncs = map[*function]bool{}
	// Every defined function takes a node, and the few undefined ones.
	r.node = make(map[*symbol]int32, len(ctx.allFuncs)+len(ctx.allFuncs)/8)
	for _, name := range []string{".shstrtab", ".strtab", ".symtab", ".symtab_shndx"} {
		r.shstrtab.add(name)
		ctx.strtab.add(name)
	}
	r.createSection(ctx, ".nv.info")
	launched := map[*symbol]bool{} // functions earlier inputs take the address of
	var bySection []uint32         // a file's section symbols' sections (step 2)
	var walk inputWalk             // relocations are read from the inputs
	r.fileStart = make([]int32, len(ctx.files))
	r.created = make([]int32, ctx.symbolIDs)
	for i, file := range ctx.files {
		r.fileStart[i] = int32(r.count) + 1
		if i > 0 {
			markLaunched(ctx.files[i-1], launched)
		}
		walk.visit(ctx, file)
		ef := file.ELF
		sectionName := func(shndx uint32) string {
			if isec := file.sectionOf(shndx); isec != nil {
				return isec.sec.Name
			}
			return ""
		}
		// 1. Functions.
		var function func(i int)
		function = func(i int) {
			esym := &ef.Symbols[i]
			sym := file.syms[i]
			if sym != nil && ctx.clones.has(sym) {
				// A function a -ewp image copied into a kernel's code:
				// its section brings the kernel first.
				if owner := sym.section.sec.Info & 0xffffff; owner != uint32(i) && r.createdAt(file.syms[owner]) == 0 {
					function(int(owner))
				}
				// It is a call graph node of its own, after its kernel's.
				if _, ok := r.node[sym]; !ok {
					r.nodes = append(r.nodes, sym)
					r.node[sym] = int32(len(r.nodes))
				}
				r.addSymbol(ctx, sym)
				return
			}
			// An undefined kernel (one the file launches) makes no
			// placeholder; the first other undefined function does.
			if esym.Shndx == cubin.SHN_UNDEF && esym.Other&cubin.STO_CUDA_ENTRY == 0 && file.placeholder == nil && (sym == nil || r.createdAt(sym) == 0) {
				r.addPlaceholder(ctx, file)
				// The nameless function takes a call graph node.
				r.nodes = append(r.nodes, file.placeholder)
			}
			if _, ok := r.node[sym]; sym != nil && !ok {
				r.nodes = append(r.nodes, sym)
				r.node[sym] = int32(len(r.nodes))
			}
			r.addSymbol(ctx, sym)
			if name := sectionName(esym.Shndx); name != "" {
				r.checkDuplicate(ctx, sym, name)
				if isec := file.sectionOf(esym.Shndx); isec.fn == nil && file.replacedCopy(uint32(i)) {
					r.noteReplaced(isec, ctx.funcOf(sym))
				}
				r.createSection(ctx, r.sectionKey(file.sectionOf(esym.Shndx)))
				// A kernel -kernels-used leaves out is merged as an ordinary
				// function, unless an earlier input launches it (takes its
				// address) and this is not a weak copy nvlink skips (whose
				// symbols it skips). -g ignores the list here, -g
				// -suppress-debug-info does not (though it keeps the kernel).
				fn := ctx.funcOf(sym)
				// So is a kernel of an LTO cubin linked with libcudadevrt
				// that no host object references (ltoState.devrtLinked),
				// but with -g.
				plainLTO := ctx.lto.devrtLinked && !ctx.debugSymbols() && fn != nil && slices.Contains(ctx.lto.objs, file.Object) && !ctx.hostKernelRefs().keeps(fn)
				if esym.Other&cubin.STO_CUDA_ENTRY != 0 && !plainLTO && (ctx.kernelMerged(esym.Name) || launched[sym] && !file.weakSkipped[uint32(esym.Shndx)]) {
					r.createSection(ctx, r.funcKey(fn, ".nv.info."+esym.Name))
					r.createSection(ctx, r.funcKey(fn, ".nv.shared."+esym.Name))
				} else if esym.Other&cubin.STO_CUDA_ENTRY != 0 && fn != nil {
					r.mergedPlain.add(fn)
				}
			}
		}
		for i := 1; i < len(ef.Symbols); i++ {
			if ef.Symbols[i].Type() == cubin.STT_FUNC {
				function(i)
			}
		}
		// A weak data copy that lost when met (skippedData) makes no
		// section: nvlink skips the symbol. A section holding only such
		// copies (onlyLost) is not made by a symbol of it either: an
		// initialized one (.nv.global.init, merged whole) is made with the
		// section symbols' sections, and .nv.global storage
		// (lostStorage), which nvlink never merges, gets no name at all.
		// A section that also holds something else is named where that
		// is met (11.8, 12.4, 12.5: inline and template __device__
		// variables initialized in one file, without initializer in
		// another, either first).
		var onlyLost map[uint32]bool
		if len(file.skippedData) > 0 {
			onlyLost = map[uint32]bool{}
			for i := 1; i < len(ef.Symbols); i++ {
				esym := &ef.Symbols[i]
				if esym.Type() == cubin.STT_SECTION || file.sectionOf(esym.Shndx) == nil {
					continue
				}
				skipped := file.skippedData[uint32(i)]
				if prev, seen := onlyLost[esym.Shndx]; seen {
					skipped = skipped && prev
				}
				onlyLost[esym.Shndx] = skipped
			}
		}
		// 2. Every other symbol in symbol-table order, then the section
		// symbols.
		for i := 1; i < len(ef.Symbols); i++ {
			esym := &ef.Symbols[i]
			if esym.Type() == cubin.STT_FUNC || esym.Type() == cubin.STT_SECTION {
				continue
			}
			if esym.Bind() == cubin.STB_LOCAL && esym.Shndx == cubin.SHN_UNDEF && esym.Type() == cubin.STT_NOTYPE {
				continue // a label ptxas left undefined (see debugDanglingLabel): nvlink skips it
			}
			name := sectionName(esym.Shndx)
			if esym.Shndx == cubin.SHN_UNDEF && esym.Other&cubin.STO_CUDA_SPACE_MASK == cubin.STO_CUDA_SHARED {
				// extern __shared__: nvlink files it under .nv_debug.shared.
				name = ".nv_debug.shared"
			}
			if isec := file.sectionOf(esym.Shndx); isec != nil && isConstant2(isec.sec) && file.weakSkipped[isec.sec.Info] {
				continue // the bank-2 constants of a weak copy that lost when met: nvlink skips its symbols
			} else if isec != nil {
				if !file.skippedData[uint32(i)] { // see onlyLost above
					r.createHolder(ctx, r.sectionKey(isec))
				}
			} else if name != "" {
				r.createHolder(ctx, name)
			}
			r.addSymbol(ctx, file.syms[i])
		}
		// The non-allocated data (.debug_frame, .debug_line, ...) comes
		// first, in section-header order, whether or not it has a section
		// symbol: an input without functions has an empty .debug_frame
		// without one, and nvlink still creates it before .debug_line.
		for _, s := range ef.Sections[1:] {
			if s.Type == cubin.SHT_PROGBITS && s.Flags&cubin.SHF_ALLOC == 0 {
				r.createSection(ctx, r.sectionKey(file.sections[s.Index]))
			}
		}
		// Then the section symbols' sections, in section-header order, not
		// symbol order: where the two disagree nvlink follows the headers
		// (11.8, 12.4, 12.5). On sm_90 nvcc puts .nv.global.init after the
		// .text sections and before the kernels' .nv.constant0, whose
		// section symbols come last; a partial output of cudalink -r has
		// its .nv.global.init after every .nv.constant0, its section
		// symbol between them. An initialized
		// section of lost copies only (onlyLost) is made here too (a
		// partial output's is such a section without symbols); their
		// .nv.global storage is not.
		bySection = bySection[:0]
		for i := 1; i < len(ef.Symbols); i++ {
			esym := &ef.Symbols[i]
			if esym.Type() == cubin.STT_SECTION && sectionName(esym.Shndx) != "" && !isMetadataSection(file.sections[esym.Shndx].sec) && !(onlyLost[esym.Shndx] && file.lostStorage(file.sections[esym.Shndx])) {
				bySection = append(bySection, esym.Shndx)
			}
		}
		slices.Sort(bySection)
		for _, shndx := range bySection {
			if isec := file.sections[shndx]; isec.fn != nil && r.mergedPlain.has(isec.fn) && strings.HasPrefix(isec.sec.Name, ".nv.shared.") {
				// The .nv.shared.<k> of a kernel merged as an ordinary
				// function (-kernels-used or -variables-used leave it
				// out), known only by its section symbol (an -ewp image
				// names no variable in it): nvlink makes it with the
				// remaining sections, in section-header order.
				continue
			}
			r.createHolder(ctx, r.sectionKey(file.sections[shndx]))
		}
		// 3. Remaining sections.
		kernelDesc := !r.emptyName && !ctx.toolkit.compactStrings && kernelDescIn(file)
		for _, s := range ef.Sections[1:] {
			switch s.Type {
			case cubin.SHT_SYMTAB, cubin.SHT_STRTAB, cubin.SHT_SYMTAB_SHNDX:
				continue
			case cubin.SHT_CUDA_CALLGRAPH:
				// The prototype strings of address-taken functions, then
				// of indirect call sites, each in the file's order: nvlink
				// names a call site's even when no function of that
				// prototype has its address taken.
				for _, at := range file.addrTaken {
					if ctx.dropsAddrTaken(file, at[0]) {
						// nvlink drops the record of a weak copy it
						// skipped (dropsAddrTaken).
						continue
					}
					if p := file.protoStrings[at[1]]; p != "" {
						ctx.strtab.add(p)
					} else if r.protoEmptyAt == 0 {
						// nvlink 12.x names a function listed without a
						// prototype by an empty string of its own, made
						// here (compactStrings keeps it if used).
						r.protoEmptyAt = uint32(len(ctx.strtab.buf))
					}
				}
				for _, site := range file.indirect {
					if p := file.protoStrings[site[1]]; p != "" {
						ctx.strtab.add(p)
					}
				}
				continue
			case cubin.SHT_CUDA_PROTOTYPE:
				for _, p := range file.protoList {
					ctx.strtab.add(p.sig)
				}
				continue
			}
			if (s.Type == cubin.SHT_REL || s.Type == cubin.SHT_RELA) && (s.Size == 0 || file.weakSkipped[s.Info]) {
				// nvlink makes nothing of an empty relocation section, nor
				// of one of a weak copy it skipped.
				continue
			}
			if onlyLost[s.Index] && file.lostStorage(file.sections[s.Index]) || (s.Type == cubin.SHT_REL || s.Type == cubin.SHT_RELA) && (len(file.skippedData) > 0 || len(file.weakSkipped) > 0) && relocatesOnlySkipped(file, s) {
				continue
			}
			key := r.sectionKey(file.sections[s.Index])
			if kernelDesc && (s.Type == cubin.SHT_REL || s.Type == cubin.SHT_RELA) {
				// nvlink 11.8 makes the empty name (once) before the
				// first relocation table of the first file that writes
				// a kernel's function descriptor (device code taking a
				// kernel's address), whichever table writes it.
				r.addEmptyName(ctx)
			}
			r.createSection(ctx, key)
			if (s.Type == cubin.SHT_REL || s.Type == cubin.SHT_RELA) && ctx.config.PreserveRelocs && int(s.Info) < len(ef.Sections) {
				// -preserve-relocs: where the resolved ones go.
				r.createSection(ctx, resolvedRelaPrefix+r.sectionKey(file.sections[s.Info]))
			}
			if s.Type == cubin.SHT_RELA && hasZeroAddend(file, s) {
				// nvlink then also names the .rel twin of the section.
				r.createSection(ctx, ".rel"+strings.TrimPrefix(key, ".rela"))
			}
		}
	}
}

// finishNames adds the names nvlink creates after merging every input:
// the rebuilt metadata sections, the dynamic-shared-memory placeholder (when
// a kernel that survives uses it), the bank-2 sections made for kernels by
// foldConstant2 and, when kernels are pruned and there is __constant__
// data, a scratch section.
func finishNames(ctx *linkContext) {
	r := &ctx.names
	if ctx.outByName.get(".nv.global") != nil {
		// Storage of common symbols, when no input has a .nv.global.
		r.createSection(ctx, ".nv.global")
	}
	r.createSection(ctx, ".nv.callgraph")
	r.createSection(ctx, ".nv.prototype")
	if len(ctx.bindless) > 0 {
		// nvlink makes a module bank-0 section (never written) and one
		// symbol per texture slot (never in .symtab) when it assigns
		// bindless slots: before the shared-memory and bank-2 names
		// below (a texture reference and extern __shared__ in one link).
		r.createSection(ctx, ".nv.constant0")
		for _, sym := range ctx.bindlessRefs {
			ctx.strtab.add("$NVLINKBINDLESSOFF_" + sym.name)
		}
	}
	// A kernel -preserve-relocs keeps as a function, or one merged as an
	// ordinary function, has no .nv.shared.<k> of its own until the
	// shared-memory layout gives it one: for its variables, or else for
	// dynamic shared memory (orderMadeSections).
	made := func(fns []*function) {
		for _, fn := range fns {
			if key := r.funcKey(fn, ".nv.shared."+fn.sym.name); ctx.outByName.get(key) != nil {
				r.createSection(ctx, key)
			}
		}
	}
	made(ctx.sharedMade.objects)
	for _, fn := range ctx.funcs {
		// With debug symbols the extern __shared__ arrays are defined
		// instead (layoutDebugInfo).
		if ctx.sharedOf(fn).usesDynamic && !ctx.debugSymbols() {
			ctx.strtab.add("externsharedinstance")
			break
		}
	}
	made(ctx.sharedMade.dynamic)
	r.createKernelBanks(ctx) // bank2.go
	if ctx.remergesConstants() {
		// nvlink's scratch section for re-merging __constant__ data after
		// it prunes kernels; it is never written. With -g (unless
		// -suppress-debug-info) nvlink skips its pruning step altogether,
		// and with it this section.
		r.createSection(ctx, "TEMP_MERGED_CONSTANTS")
	}
	r.createSection(ctx, ".nv.rel.action")
}

// hasZeroAddend says whether a .rela section has an entry with addend 0
// other than its first one: such an entry could be a .rel entry, and nvlink
// names the .rel twin for it. Whatever the type: on sm_90 a section of one
// call (type 75, addend 0, first in the section) and its return-address
// pair names no twin, one whose call comes after another entry does; one
// or several shared-memory ABS32_32 entries, a texture reference, a
// single R_CUDA_64 in .nv.global.init, all follow the same rule, and so do
// two __constant__ reads (CONST_FIELD21_38, which the linker resolves): a
// twin only when c[0]'s zero-addend entry is not first
// (sm90-rel-twin-constant-reads). Two calls to one function or to two, or
// three, name it too (sm90-rel-twin-calls). The entries nvlink drops, those
// patching a weak data copy that lost when met (in .nv.constant3 only
// those naming weak data: keptInLostBank3), do not count, not even as the
// first (weak-data-lost-copy-relocation-makes-no-rel-twin-sm90).
func hasZeroAddend(file *inputFile, s *cubin.Section) bool {
	rs := file.ELF.RelocSectionOf(s)
	if rs == nil {
		return false
	}
	target := file.ELF.Sections[s.Info]
	skipped := skippedRanges(file, s.Info)
	first := true
	for r := range rs.All() {
		if !keepsReloc(file, target, skipped, r) {
			continue
		}
		if !first && r.Addend == 0 {
			return true
		}
		first = false
	}
	return false
}

// skippedRanges returns the bytes of section shndx that weak data copies
// that lost when met (skippedData) hold.
func skippedRanges(file *inputFile, shndx uint32) [][2]uint64 {
	var ranges [][2]uint64
	for idx := range file.skippedData {
		if esym := &file.ELF.Symbols[idx]; esym.Shndx == shndx {
			ranges = append(ranges, [2]uint64{esym.Value, esym.Value + esym.Size})
		}
	}
	return ranges
}

// relocatesOnlySkipped says whether every entry of the relocation section
// s patches the bytes of a weak data copy that lost when met
// (skippedData) and is not kept all the same (keptInLostBank3), or that
// droppedInBank3 drops: nvlink drops such entries as it meets them and makes no
// name for a section left without any (11.8, 12.4: an initialized inline
// __device__ pointer, a copy without initializer met first).
func relocatesOnlySkipped(file *inputFile, s *cubin.Section) bool {
	ranges := skippedRanges(file, s.Info)
	target := file.ELF.Sections[s.Info]
	if len(ranges) == 0 && target.Type != cubin.SHT_CUDA_CONSTANT_B0+3 {
		return false
	}
	rs := file.ELF.RelocSectionOf(s)
	if rs == nil {
		return false
	}
	for r := range rs.All() {
		if keepsReloc(file, target, ranges, r) {
			return false
		}
	}
	return true
}

// nameRegistry records nvlink's creation order of names.
type nameRegistry struct {
	shstrtab stringTable
	secOrder nameIndex[createdSection] // section keys (see funcKey) in creation order
	// textOwner is the function whose .text section took a name first;
	// dupFuncs are the functions whose .text section has a name another
	// function took first.
	textOwner map[string]*symbol
	dupFuncs  map[*function]bool
	// replaced: the code sections of weak copies a later file's copy
	// replaced, each with the function of the copy kept (see sectionKey).
	replaced map[*inputSection]*function
	// again are the names a duplicate function created again (its symbol's
	// name, its sections'), with where each table stood then: nvlink 12.x
	// writes such a name there when the function that took it first is
	// removed and this one kept (compactStrings).
	again []createdAgain
	// dupFirst: by section name, the key of a duplicate function's
	// section that made the name before the section of the function that
	// owns it (see createSection).
	dupFirst map[string]string
	// ewpAgain are the names of -ewp images' local variables that a
	// global symbol created first: an -ewp image keeps a variable its
	// source declares extern as a local of the plain name, and nvlink
	// 12.x writes the name where that local was created (compactStrings).
	ewpAgain []movedName
	// mergedPlain are the kernels nvlink merged as ordinary functions,
	// those -kernels-used leaves out (-g -suppress-debug-info keeps them
	// as such: eliminateDeadCode).
	mergedPlain functionSet
	// local holds local and weak symbols and section symbols (by name) in
	// creation order; global holds global-binding symbols.
	local  []createdSym
	global []*symbol
	count  int // symbols created so far
	// created is, by symbol id, when registerNames created the symbol
	// (1-based; 0 if it never did): the order nvlink creates symbols in,
	// which also orders call-graph callers, undefined-symbol reports and
	// bindless references. Its one writer is addSymbol (see createdAt).
	created []int32
	// emptyName: the empty string nvlink adds with the first undefined
	// symbol is in .strtab, at emptyOff.
	emptyName bool
	emptyOff  uint32
	// protoEmptyAt is where in .strtab's creation order nvlink 12.x made
	// the empty prototype string of the first address-taken function an
	// input lists without one (libcudadevrt's kernels, a kernel device
	// code launches): the offset the next string got; 0 if none did.
	protoEmptyAt uint32
	// fileStart[i] is the created number (createdAt) of the first
	// symbol input i made, if it made any.
	fileStart []int32
	// nodes are nvlink's call graph nodes, numbered from 1: every function
	// symbol as first met, inputs in order and each in symbol-table order,
	// and the nameless function (addPlaceholder) met with an input's
	// first new undefined one. --dump-callgraph prints them by
	// number.
	nodes []*symbol
	// node is each function symbol's node number, its index in nodes
	// plus 1 (see nodeOf).
	node map[*symbol]int32
}

// nodeOf is sym's node number in nvlink's call graph (see
// nameRegistry.nodes); 0 for a symbol that is not a function, or in a
// link that made no call graph (-r).
func (r *nameRegistry) nodeOf(sym *symbol) int32 { return r.node[sym] }

// createdSym is a symbol, or the section symbol of the section called
// section.
type createdSym struct {
	sym       *symbol
	section   string
	isSection bool // section may be "" in a malformed input
}

// createdAgain is a name a duplicate function (fn, or the function of a
// section key with a file suffix) created again, and the lengths of
// .shstrtab (for a section name) and .strtab then.
type createdAgain struct {
	name string
	key  string    // a section's key (its function's is in the suffix)
	fn   *function // or, for the function's symbol, the function
	// first: for the section of the function owning the name, the key of
	// the duplicate's that made the name before it (dupFirst).
	first       string
	shAt, strAt uint32
}

// createdSection is the key of a created section, an entry of secOrder.
type createdSection string

func (k createdSection) key() string { return string(k) }

// createSection records a section by its key: its name, or for the
// sections of a duplicate local function, its name and file (see key).
func (r *nameRegistry) createSection(ctx *linkContext, key string) {
	if !r.secOrder.add(createdSection(key)) {
		return
	}
	name := keyName(key)
	if len(name) != len(key) {
		r.again = append(r.again, createdAgain{name: name, key: key, shAt: uint32(len(r.shstrtab.buf)), strAt: uint32(len(ctx.strtab.buf))})
		if _, ok := r.dupFirst[name]; !ok && r.secOrder.index(name) < 0 {
			// A duplicate's section before the owner's of the same
			// name: a local function whose sections come before a
			// weak one's of its name in one file, the weak symbol
			// first (a cudalink -r output holding both).
			if r.dupFirst == nil {
				r.dupFirst = map[string]string{}
			}
			r.dupFirst[name] = key
		}
	} else if first, ok := r.dupFirst[name]; ok {
		r.again = append(r.again, createdAgain{name: name, key: key, first: first, shAt: uint32(len(r.shstrtab.buf)), strAt: uint32(len(ctx.strtab.buf))})
	}
	r.shstrtab.add(name)
	ctx.strtab.add(name)
	if !strings.HasPrefix(name, ".nv.info") && !strings.HasPrefix(name, ".rel") && !strings.HasPrefix(name, resolvedRelaPrefix) {
		r.local = append(r.local, createdSym{section: key, isSection: true})
	}
}

// checkDuplicate notes a function whose section name another function
// took first: a static function of the same name in two files (such as the
// __assert_fail wrapper nvcc -G emits, or both in one partial link's
// output), or a local function named as another file's global or weak one
// (the __cuda_sm20_* helpers ptxas makes weak under -O0 and local
// otherwise). nvlink gives its sections, which carry the same names,
// sections of their own.
func (r *nameRegistry) checkDuplicate(ctx *linkContext, sym *symbol, textName string) {
	if !strings.HasPrefix(textName, ".text.") {
		return
	}
	fn := ctx.funcOf(sym)
	if fn == nil {
		return
	}
	owner, ok := r.textOwner[textName]
	if !ok {
		r.textOwner[textName] = sym
		return
	}
	if owner != sym {
		r.markDuplicate(fn)
		if owner.name == sym.name {
			// addSymbol has just met the name again.
			r.again = append(r.again, createdAgain{name: sym.name, fn: fn, strAt: uint32(len(ctx.strtab.buf))})
		}
	}
}

// markDuplicate notes that fn's sections share their names with another
// function's and must be told apart (see funcKey).
func (r *nameRegistry) markDuplicate(fn *function) {
	if r.dupFuncs == nil {
		r.dupFuncs = map[*function]bool{}
	}
	r.dupFuncs[fn] = true
}

// funcKey returns the key in the output of a section called name that
// belongs to fn (nil for none): its name, unless fn is a duplicate
// function (checkDuplicate), whose sections are told apart by its file's index and its
// code section's index after a NUL.
func (r *nameRegistry) funcKey(fn *function, name string) string {
	if fn == nil || !r.dupFuncs[fn] {
		return name
	}
	return name + "\x00" + strconv.Itoa(fn.text.file.index) + ":" + strconv.Itoa(int(fn.text.sec.Index))
}

// sectionKey returns the key of an input section in the output: keyed
// like the function it belongs to, a relocation section like its target.
func (r *nameRegistry) sectionKey(isec *inputSection) string {
	if isOrphanConstant2(isec.sec) {
		return orphanKey
	}
	fn := isec.fn
	if fn == nil && len(r.replaced) > 0 {
		// A weak copy a later one replaced: its sections (its code, and
		// those sh_info ties to it) were the function's when nvlink met
		// them, so they are keyed as the kept copy's. This matters when
		// they are a duplicate's: a local function of the same name came
		// in an earlier file, and nvlink made the weak function's
		// sections of its own where it met the replaced copy.
		fn = r.replaced[isec]
		if target := isec.file.sectionOf(isec.sec.Info); fn == nil && target != nil {
			fn = r.replaced[target]
		}
	}
	if s := isec.sec; s.Type == cubin.SHT_REL || s.Type == cubin.SHT_RELA {
		if target := isec.file.sectionOf(s.Info); target != nil && target.fn != nil {
			fn = target.fn
		}
	}
	return r.funcKey(fn, isec.sec.Name)
}

// noteReplaced records that isec is the code section of a weak copy that
// the copy fn's record holds replaced (sectionKey).
func (r *nameRegistry) noteReplaced(isec *inputSection, fn *function) {
	if fn == nil {
		return
	}
	if r.replaced == nil {
		r.replaced = map[*inputSection]*function{}
	}
	r.replaced[isec] = fn
}

// keyName returns the section name of a key.
func keyName(key string) string {
	name, _, _ := strings.Cut(key, "\x00")
	return name
}

// isMetadataSection says whether nvlink rebuilds the section at the end
// rather than when it meets it in an input.
func isMetadataSection(s *cubin.Section) bool {
	return s.Type == cubin.SHT_CUDA_CALLGRAPH || s.Type == cubin.SHT_CUDA_PROTOTYPE
}

// createHolder creates the section a symbol lives in. A kernel's
// parameter bank brings its relocation section, whose name nvlink enters
// in .strtab first.
func (r *nameRegistry) createHolder(ctx *linkContext, name string) {
	if !strings.HasPrefix(name, ".nv.constant0.") {
		r.createSection(ctx, name)
		return
	}
	rel := ".rel" + name
	ctx.strtab.add(rel)
	r.createSection(ctx, name)
	r.createSection(ctx, rel)
}

// createdIn returns the index of the input that made sym first (len(inputs)
// for a symbol registerNames never saw).
func (r *nameRegistry) createdIn(sym *symbol) int {
	created := r.createdAt(sym)
	if created == 0 {
		return len(r.fileStart)
	}
	i, _ := slices.BinarySearch(r.fileStart, created+1)
	return i - 1
}

// createdAt is when registerNames created sym (1-based), 0 if it never
// did or has not run (a partial link's).
func (r *nameRegistry) createdAt(sym *symbol) int32 {
	if int(sym.id) < len(r.created) {
		return r.created[sym.id]
	}
	return 0
}

// addSymbol creates sym, unless it was already: it gets its name in
// .strtab and its place in the order of the symbol table.
func (r *nameRegistry) addSymbol(ctx *linkContext, sym *symbol) {
	if sym == nil || r.createdAt(sym) != 0 {
		return
	}
	r.count++
	r.created[sym.id] = int32(r.count)
	end := uint32(len(ctx.strtab.buf))
	if off := ctx.strtab.add(sym.name); off < end && sym.local && sym.file != nil && sym.file.ELF.Header.Type == cubin.ET_CUDA_EWP && r.createdGlobal(sym.name) {
		r.ewpAgain = append(r.ewpAgain, movedName{sym.name, end})
	}
	if !sym.local && sym.firstBind == cubin.STB_GLOBAL {
		r.global = append(r.global, sym)
	} else {
		r.local = append(r.local, createdSym{sym: sym})
	}
}

// createdGlobal says whether a global symbol named name was created.
func (r *nameRegistry) createdGlobal(name string) bool {
	return slices.ContainsFunc(r.global, func(g *symbol) bool { return g.name == name })
}

// addPlaceholder records the unnamed local function nvlink creates in a
// file when it meets the file's first undefined function not seen before:
// the file's symbol 0 maps to it (see rebuildFunctionInfo). The empty
// string it is named by lands in .strtab once. Only -g links keep it in
// .symtab.
func (r *nameRegistry) addPlaceholder(ctx *linkContext, file *inputFile) {
	r.addEmptyName(ctx)
	ph := &symbol{info: cubin.STB_LOCAL<<4 | cubin.STT_FUNC, local: true, file: file, id: ctx.placeholderID(file)}
	file.placeholder = ph
	r.local = append(r.local, createdSym{sym: ph})
}

// addEmptyName puts in .strtab the empty string nvlink 11.8 makes once:
// with the first undefined function's placeholder (addPlaceholder) or
// before the first relocation table of the first file writing a kernel's
// function descriptor, whichever comes first.
func (r *nameRegistry) addEmptyName(ctx *linkContext) {
	if r.emptyName {
		return
	}
	r.emptyOff = uint32(len(ctx.strtab.buf))
	ctx.strtab.buf = append(ctx.strtab.buf, 0)
	ctx.strtab.empty = r.emptyOff
	r.emptyName = true
}

// kernelDescIn says whether a relocation of file writes the function
// descriptor of a kernel (a symbol marked STO_CUDA_ENTRY, defined or not),
// from the descriptors' symbols the parse collected (funcDescSymbols).
func kernelDescIn(file *inputFile) bool {
	syms := file.ELF.Symbols
	return slices.ContainsFunc(file.funcDescs, func(idx uint32) bool {
		return int(idx) < len(syms) && syms[idx].Other&cubin.STO_CUDA_ENTRY != 0
	})
}

// markLaunched records the functions file takes the address of: those its
// .nv.callgraph lists and those its function descriptor relocations name.
func markLaunched(file *inputFile, launched map[*symbol]bool) {
	for _, at := range file.addrTaken {
		if int(at[0]) < len(file.syms) && file.syms[at[0]] != nil {
			launched[file.syms[at[0]]] = true
		}
	}
	for _, idx := range file.funcDescs {
		if int(idx) < len(file.syms) && file.syms[idx] != nil {
			launched[file.syms[idx]] = true
		}
	}
}
