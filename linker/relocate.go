package linker

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cudalink/cudalink/linker/cubin"
)

// applyRelocations patches what the linker resolves and keeps the rest for
// the driver. In the ELF ABIs' terms, S is the symbol's value, A the addend
// (for .rel the field's current contents), P the place.
//
// The linker resolves every linker-only type (shared and constant-bank
// offsets, CONST_FIELD (offset, bank) pairs, UNUSED_CLEAR) and the
// either-side types whose symbol lives in shared memory or in a
// non-allocated section such as .debug_frame. Everything else (addresses
// of code and global memory, calls, function descriptors) stays a
// relocation against the output symbol; its bytes are left as they are.
// Relocations against functions removed by dead-code elimination are
// dropped, and UNUSED_CLEAR fields against them are zeroed.
//
// Data of a weak definition that lost resolution stays in its section
// (offsets of its neighbours must not move), but its relocations are
// dropped, as nvlink drops them.
//
// Sections are relocated one after the other, each member in turn, but
// for the composed sections (a -G program's debug sections, merged from
// every input: see compose), whose members are relocated input by input
// once the others are done (byInput).
func applyRelocations(ctx *linkContext) {
	var walk inputWalk // relocation reads .rel addends from the inputs' code
	rp := &relocPass{ctx: ctx}
	var later []member
	for _, osec := range ctx.made {
		byInput := rp.byInput(osec)
		if byInput {
			ctx.relocByInput++
		}
		for _, isec := range osec.members {
			if isec.out != osec {
				continue // folded into several kernels; relocated once, where it landed last
			}
			if byInput {
				later = append(later, member{osec, isec})
				continue
			}
			rp.relocateMember(&walk, osec, isec)
		}
	}
	slices.SortStableFunc(later, func(a, b member) int { return cmp.Compare(a.isec.file.index, b.isec.file.index) })
	for _, m := range later {
		rp.relocateMember(&walk, m.osec, m.isec)
	}
	// Lists that several members filled, and patch lists, grew by
	// doubling: give each its own array of the length it kept, so the
	// larger ones can be freed (unless nothing is freed: the copies would
	// only add to the peak).
	if ctx.gc.off {
		return
	}
	for _, osec := range ctx.made {
		if osec.rel != nil {
			osec.rel.relocs = clipped(osec.rel.relocs)
		}
		osec.clipPatches()
	}
}

// member is an input section in the output section it joined.
type member struct {
	osec *outputSection
	isec *inputSection
}

// relocateMember applies isec's relocations in osec, or keeps them for
// the driver.
func (rp *relocPass) relocateMember(walk *inputWalk, osec *outputSection, isec *inputSection) {
	if !isec.hasRelocs() {
		return // nothing to read: the walk need not fault the input in
	}
	walk.visit(rp.ctx, isec.file)
	lost := lostRanges(isec)
	for r := range isec.relocs() {
		if inRanges(lost, uint64(r.Offset)) {
			continue
		}
		rp.relocate(osec, isec, r)
	}
	rp.unstage(osec)
}

// byInput says whether applyRelocations relocates osec's members input by
// input, with the other such sections' members of the same input, rather
// than one after the other. Member after member, each composed section
// walked every input, and each walk faulted in the inputs' pages again
// after the walk before had handed them back (fileMaps): the -G 100-object
// benchmark program, a dozen debug sections merged from every input, made
// 13 walks of its 100 inputs in this pass (113 madvise calls for 85 MB).
//
// The output is the same: osec is composed, so nothing but its own
// relocations writes its bytes, and its members come in command-line
// order, so each keeps its place in osec's patch and relocation lists.
// The lists of different sections do not depend on each other, but for
// the order in which relocation would make sections: so every
// relocation section osec's members need exists already (mergeSections
// makes them, in input order), and -preserve-relocs, whose
// .nv.resolvedrela sections are made as relocation goes, keeps the
// order of one member after the other.
func (rp *relocPass) byInput(osec *outputSection) bool {
	if !osec.composed() || rp.ctx.config.PreserveRelocs {
		return false
	}
	last := -1
	for _, isec := range osec.members {
		if isec.file == nil || isec.file.index < last {
			return false
		}
		last = isec.file.index
		i := isec.inputIndex()
		for k := range isec.file.ELF.Relocs {
			rs := &isec.file.ELF.Relocs[k]
			if int(rs.Target) == i && rs.Len() > 0 && !rp.hasRelocSection(osec, rs.Rela) {
				return false
			}
		}
	}
	return true
}

// hasRelocSection says whether osec's output relocation section of the
// kind (.rel, .rela) exists (see relocFor, which would make it).
func (rp *relocPass) hasRelocSection(osec *outputSection, rela bool) bool {
	name := ".rel" + osec.name
	if rela {
		name = ".rela" + osec.name
	}
	rs := rp.ctx.outByName.get(name + strings.TrimPrefix(osec.key(), osec.name))
	return rs != nil && rs.rel != nil
}

// clipped returns s in an array of its own length (nil if empty), so that
// the larger array it was built in can be freed.
func clipped[T any](s []T) []T {
	if len(s) == cap(s) {
		return s
	}
	if len(s) == 0 {
		return nil
	}
	return append(make([]T, 0, len(s)), s...)
}

// lostRanges returns the [start, end) ranges of isec that hold weak
// definitions another file's definition replaced. The file's symbols are
// scanned once, on first use.
func lostRanges(isec *inputSection) [][2]uint64 {
	file := isec.file
	if file.lost == nil {
		file.lost = map[int][][2]uint64{}
		for i, sym := range file.syms {
			if sym == nil || sym.local {
				continue
			}
			esym := &file.ELF.Symbols[i]
			if esym.Shndx != cubin.SHN_UNDEF && esym.Type() != cubin.STT_FUNC && sym.file != file {
				file.lost[int(esym.Shndx)] = append(file.lost[int(esym.Shndx)], [2]uint64{esym.Value, esym.Value + esym.Size})
			}
		}
	}
	return file.lost[int(isec.sec.Index)]
}

func inRanges(ranges [][2]uint64, off uint64) bool {
	for _, r := range ranges {
		if off >= r[0] && off < r[1] {
			return true
		}
	}
	return false
}

// relocPass is applyRelocations' own state: the relocations kept for the
// driver from the member being relocated (.rel, .rela), which join the
// output section's lists when the member is done (unstage).
type relocPass struct {
	ctx    *linkContext
	staged [2][]outReloc
}

// relocate applies r, a relocation of isec, in osec, or keeps it for the
// driver.
func (rp *relocPass) relocate(osec *outputSection, isec *inputSection, r cubin.Reloc) {
	ctx := rp.ctx
	how := cubin.HowToRelocate(r.Type)
	var sym *symbol
	if r.Sym != 0 {
		sym = isec.file.syms[r.Sym]
	}
	bad := func(msg string) {
		e := &linkError{file: isec.file.Name, section: isec.name(), msg: fmt.Sprintf("%v at offset 0x%x: %s", r.Type, r.Offset, msg)}
		if sym != nil {
			e.symbol = sym.name
		}
		ctx.report(e)
	}
	p := isec.outOff + uint64(r.Offset)
	span := how.Span()
	if !osec.hasBytes() || p+span > osec.byteLen() {
		if !osec.hasBytes() {
			bad("relocation in a section without contents")
		} else {
			bad("relocation runs past the end of its section")
		}
		return
	}
	if p > math.MaxUint32 {
		// Kept relocations and patches hold 32-bit places (outReloc).
		bad("place past 4 GiB into its section")
		return
	}
	field := osec.read(p) // read only: writes go through osec.patch

	if sym != nil && ctx.isDeleted(sym) {
		if r.Type == cubin.R_CUDA_UNUSED_CLEAR32 || r.Type == cubin.R_CUDA_UNUSED_CLEAR64 {
			osec.patch(p, r.Type, 0, 0)
		}
		return
	}
	if r.Type == cubin.R_CUDA_UNUSED_CLEAR32 || r.Type == cubin.R_CUDA_UNUSED_CLEAR64 {
		return // the function survives: nothing to clear
	}
	a := r.Addend
	if !r.Rela && len(how.Fields) > 0 {
		a = int64(how.Extract(field))
	}
	if sym == nil {
		if how.Who == cubin.ByLinker {
			return // YIELD and friends with no symbol: nothing to do here
		}
		rp.keep(osec, r.Rela, outReloc{offset: uint32(p), typ: r.Type, addend: r.Addend})
		return
	}
	if off, ok := ctx.bindless[sym]; ok && how.Who == cubin.ByLinker {
		if r.Rela {
			// A field of a Kepler surface's descriptor.
			off += uint64(r.Addend)
		}
		osec.patch(p, r.Type, off, 0) // the texture's or surface's slot in bank 0
		return
	}
	if sym.name == ptxConst0Size && !sym.defined() && isec.fn != nil && !ctx.isEntry(isec.fn.sym) {
		// The parameter bank size of the kernel the code is in: a device
		// function (libcudadevrt's launch helpers, kept by -g or
		// -preserve-relocs) has none, and nvlink writes all ones.
		osec.patch(p, r.Type, how.Select(^uint64(0)+uint64(a)), 0)
		return
	}
	if debugDanglingLabel(osec, sym) {
		if ctx.config.PreserveRelocs {
			// nvlink records it all the same, against no symbol.
			osec.preserve(ctx, outReloc{offset: uint32(p), typ: r.Type, addend: a})
		}
		return
	}
	if ctx.isUnifiedTable(sym) {
		// nvlink 12.x resolves references to the unified tables (an
		// indirect call's __UFT_OFFSET) itself, as 0 (S) plus the addend:
		// a device link's output has no table.
		osec.patch(p, r.Type, how.Select(uint64(a)), 0)
		return
	}
	if !linkerResolves(r, sym) {
		// 12.x inputs reach functions through the unified table; the
		// driver gets the plain type (R_CUDA_UNIFIED -> R_CUDA_64).
		out := outReloc{offset: uint32(p), typ: cubin.UnifiedBase(r.Type), sym: sym, addend: r.Addend}
		if !sym.defined() {
			ctx.driverRefs.add(sym)
		}
		if sym.typ() == cubin.STT_SECTION && sym.section != nil && sym.section.outOff != 0 {
			// A section symbol now names the merged section: move the
			// addend by where this input's contribution landed.
			if r.Rela {
				out.addend += int64(sym.section.outOff)
			} else {
				osec.patch(p, r.Type, uint64(a)+sym.section.outOff, 0)
			}
		}
		rp.keep(osec, r.Rela, out)
		return
	}
	if sym.space() == cubin.STO_CUDA_SHARED && !sym.defined() && isec.fn == nil && osec.flags&cubin.SHF_ALLOC == 0 {
		// A debug section's view of dynamic shared memory.
		if !ctx.debugSymbols() {
			debugUnknown(osec, p, r.Type, a)
			if ctx.config.PreserveRelocs && ctx.debugLayout.of(sym) == publishedDynamic {
				// sm_90's -preserve-relocs defines the array in
				// .nv_debug.shared (layoutDebugInfo): nvlink keeps
				// the resolution against it.
				osec.preserve(ctx, outReloc{offset: uint32(p), typ: r.Type, sym: sym, addend: a})
			}
			return
		}
		osec.patch(p, r.Type, how.Select(sym.value+uint64(a)), 0)
		if ctx.config.PreserveRelocs {
			osec.preserve(ctx, outReloc{offset: uint32(p), typ: r.Type, sym: sym, addend: a})
		}
		return
	}
	if osec.flags&cubin.SHF_ALLOC == 0 && (ctx.sharedVars.deleted[sym] ||
		sym.space() == cubin.STO_CUDA_SHARED && sym.defined() && sym.section != nil && sym.section.out == nil && sym.section.fn != nil && !ctx.isLive(sym.section.fn)) {
		// A debug section's view of a shared variable nvlink deleted (no
		// code uses it), or of one of a removed kernel: nvlink takes its
		// address as unknown.
		debugUnknown(osec, p, r.Type, a)
		return
	}
	s, ok := ctx.symbolValue(sym, isec)
	if !ok {
		bad("cannot resolve the symbol's address at link time")
		return
	}
	v := how.Select(s + uint64(a))
	if !how.Fits(v) {
		bad(fmt.Sprintf("value 0x%x does not fit the field", v))
		return
	}
	osec.patch(p, r.Type, v, sym.constantBank())
	if ctx.config.PreserveRelocs && (sym.defined() || ctx.debugLayout.of(sym) == publishedDynamic && ctx.debugSymbols()) {
		// Not dynamic shared memory, which has no symbol in the output
		// unless -g publishes it.
		osec.preserve(ctx, outReloc{offset: uint32(p), typ: r.Type, sym: sym, addend: a})
	}
}

// linkerResolves says whether the linker applies a relocation (rather than
// keeping it for the driver): every linker-only type, and the either-side
// types whose symbol lives in shared memory or in a non-allocated section.
func linkerResolves(r cubin.Reloc, sym *symbol) bool {
	how := cubin.HowToRelocate(r.Type)
	if how.Who == cubin.ByLinker {
		return true
	}
	return sym != nil && how.Who == cubin.ByEither &&
		(sym.space() == cubin.STO_CUDA_SHARED || sym.inNonAllocSection())
}

// keep adds a relocation left for the driver to osec's relocation section.
func (osec *outputSection) keep(ctx *linkContext, rela bool, r outReloc) {
	rs := osec.relocFor(ctx, rela).rel
	rs.relocs = append(rs.relocs, r)
}

// keep stages a relocation left for the driver from the member being
// relocated in osec (see unstage). osec's relocation section is made now
// all the same, since the order sections are made in is nvlink's output
// order.
func (rp *relocPass) keep(osec *outputSection, rela bool, r outReloc) {
	osec.relocFor(rp.ctx, rela)
	rp.staged[b2i(rela)] = append(rp.staged[b2i(rela)], r)
}

// unstage moves the relocations kept from one member into osec's lists,
// growing each list once, by what it needs: most output sections have one
// member, whose list is then allocated at its exact length.
func (rp *relocPass) unstage(osec *outputSection) {
	for i, staged := range rp.staged {
		if len(staged) == 0 {
			continue
		}
		rs := osec.relocFor(rp.ctx, i == 1).rel
		rs.relocs = append(slices.Grow(rs.relocs, len(staged)), staged...)
		rp.staged[i] = staged[:0]
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// relocFor returns the output relocation section (.rel or .rela) for osec.
func (osec *outputSection) relocFor(ctx *linkContext, rela bool) *outputSection {
	x := osec.more()
	if rela {
		if x.relaOut == nil {
			x.relaOut = ctx.relSection(".rela"+osec.name, osec, true)
		}
		return x.relaOut
	}
	if x.relOut == nil {
		x.relOut = ctx.relSection(".rel"+osec.name, osec, false)
	}
	return x.relOut
}

// space returns the symbol's memory space bits from st_other.
func (sym *symbol) space() uint8 { return sym.other & cubin.STO_CUDA_SPACE_MASK }

func (sym *symbol) inNonAllocSection() bool {
	return sym.section != nil && sym.section.sec.Flags&cubin.SHF_ALLOC == 0
}

// symbolValue returns S for a relocation in isec that the linker resolves.
func (ctx *linkContext) symbolValue(sym *symbol, isec *inputSection) (uint64, bool) {
	if sym.space() == cubin.STO_CUDA_SHARED && !sym.defined() {
		// Dynamic shared memory starts after the kernel's static shared memory.
		if fn := isec.fn; fn != nil {
			if ctx.isEntry(fn.sym) || ctx.demoted(fn) {
				return ctx.sharedOf(fn).dynOffset, true
			}
			var off uint64
			for _, k := range ctx.funcs {
				if mem := ctx.sharedOf(k); ctx.isEntry(k.sym) && mem.usesDynamic {
					for _, f := range callTree(k) {
						if f == fn {
							off = max(off, mem.dynOffset)
						}
					}
				}
			}
			return off, true
		}
		return 0, false
	}
	if !sym.defined() {
		return 0, false
	}
	if sym.typ() == cubin.STT_SECTION {
		if sym.section == nil {
			return 0, false
		}
		return sym.section.outOff, true
	}
	return sym.value, true
}

// constantBank returns the constant bank number of the symbol's section.
func (sym *symbol) constantBank() uint64 {
	if sym.section == nil {
		return 0
	}
	s := sym.section.sec
	if s.Type >= cubin.SHT_CUDA_CONSTANT_B0 && s.Type <= cubin.SHT_CUDA_CONSTANT_B17 {
		return uint64(s.Type - cubin.SHT_CUDA_CONSTANT_B0)
	}
	if rest, ok := strings.CutPrefix(s.Name, ".nv.constant"); ok {
		rest, _, _ = strings.Cut(rest, ".")
		if n, err := strconv.Atoi(rest); err == nil {
			return uint64(n)
		}
	}
	return 0
}

// ptxConst0Size is the symbol libcudadevrt's code uses for the size of the
// calling kernel's parameter bank.
const ptxConst0Size = ".nv.ptx.const0.size"

// resolvedRelaPrefix names the section -preserve-relocs writes for each
// section: ".nv.resolvedrela.text.k" holds what the linker resolved in
// ".text.k".
const resolvedRelaPrefix = ".nv.resolvedrela"

// isReloc says whether osec holds relocation entries the writer encodes
// (in osec.rel).
func (osec *outputSection) isReloc() bool { return osec.rel != nil }

// isRelocType says whether sections of type typ hold relocation entries.
func isRelocType(typ uint32) bool {
	return typ == cubin.SHT_REL || typ == cubin.SHT_RELA || typ == cubin.SHT_CUDA_RESOLVED_RELA
}

// preserve records a relocation the linker applied, for -preserve-relocs:
// at its output place, against the output symbol (a section symbol with
// the addend moved by where the input's contribution landed), as nvlink
// writes them to .nv.resolvedrela<section>.
func (osec *outputSection) preserve(ctx *linkContext, r outReloc) {
	if r.sym != nil && r.sym.typ() == cubin.STT_SECTION && r.sym.section != nil {
		r.addend += int64(r.sym.section.outOff)
	}
	name := resolvedRelaPrefix + osec.key() // keyed like osec (nameRegistry.funcKey)
	rs := ctx.outByName.get(name)
	if rs == nil || rs.rel == nil {
		rs = ctx.relocSection(name, cubin.SHT_CUDA_RESOLVED_RELA, osec)
	}
	rs.rel.relocs = append(rs.rel.relocs, r)
}

// warnPreserveRelocs gives nvlink 11.8's warning for -preserve-relocs on
// sm_90 and sm_90a (spelling included); the link goes on and writes the same kind of
// output as for older architectures. nvlink gives it before it reads any
// input: under -Werror it is an error that stops the link there (exit
// status 1, nvlink: "elfLink internal error"), PTX inputs or not.
func warnPreserveRelocs(ctx *linkContext) {
	if ctx.config.PreserveRelocs && ctx.config.Arch >= 90 {
		ctx.stopWarnf("-Werror stops the link here, before any input is read, as it stops nvlink's", "Option '--preserve-relocs' is not fully implemented for gpu archtecture '%s' and may not work as expected", ctx.config.archName())
	}
}
