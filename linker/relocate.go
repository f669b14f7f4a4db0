package linker

import (
	"context"
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
// Output sections are relocated apart from each other, on several
// goroutines in a large link (relocWorkers): each relocation changes only
// its own section's bytes, and whatever else it does (the relocation
// sections it makes, the relocations it keeps for the driver, its errors,
// -preserve-relocs' records) goes into the section's relocLog. Once all are
// done, the logs are replayed section after section, in the order the
// sections were made, so the output and the messages are those of one
// section after the other, whatever the parallelism. The composed sections
// (a -G program's debug sections, merged from every input: see compose) are
// the exception: their members are relocated input by input once the others
// are done (byInput).
func applyRelocations(ctx *linkContext) {
	var tasks []*outputSection // the sections relocated member after member, in the order they were made
	var chunks []int           // where each run of tasks starts whose first member is of one input
	var later []member
	var last *inputFile
	for _, osec := range ctx.made {
		byInput := (&relocPass{ctx: ctx}).byInput(osec)
		if byInput {
			ctx.relocByInput++
		}
		queued := false
		for _, isec := range osec.members {
			if isec.out != osec || !isec.hasRelocs() {
				continue // folded into several kernels, relocated once where it landed last; or nothing to do
			}
			if byInput {
				later = append(later, member{osec, isec})
			} else if !queued {
				if isec.file != last || len(chunks) == 0 {
					chunks = append(chunks, len(tasks))
				}
				tasks, queued, last = append(tasks, osec), true, isec.file
			}
		}
	}
	workers := max(relocWorkers(ctx, tasks), 1)
	if workers > 1 {
		ctx.useParallelism()
	}
	scratch := make([]relocScratch, workers) // each goroutine's own
	later = byInput(later, len(ctx.files), func(m member) int { return m.isec.file.index })
	laterLogs := make([]relocLog, len(later))
	early := make([]bool, len(later)) // relocated during the walk of the tasks
	if workers == 1 {
		// One goroutine: each section's log is replayed as soon as the
		// section is relocated, which is the same order, and the next
		// section's log reuses its step list (replay took the kept lists).
		// Where the walk leaves a task, in an input with members of the
		// composed sections, those are relocated too, while the input's
		// pages are in (their logs wait for their turn below): relocated
		// after every task, they made the walk fault every input in again.
		laterOf := map[*inputFile]int{} // each input's first member in later
		for i := len(later) - 1; i >= 0; i-- {
			laterOf[later[i].isec.file] = i
		}
		var log relocLog
		for _, osec := range tasks {
			(&relocPass{ctx: ctx, log: &log, scratch: &scratch[0]}).relocateSection(osec)
			log.replay(ctx, osec)
			log = relocLog{steps: log.steps[:0]}
			if file := scratch[0].walk.last; file != nil && len(laterOf) > 0 {
				if i, ok := laterOf[file]; ok {
					delete(laterOf, file)
					for ; i < len(later) && later[i].isec.file == file; i++ {
						(&relocPass{ctx: ctx, log: &laterLogs[i], scratch: &scratch[0]}).relocateMember(later[i].osec, later[i].isec)
						early[i] = true
					}
				}
			}
		}
	} else {
		logs := make([]relocLog, len(tasks))
		// A goroutine takes a run of tasks at a time, so that two goroutines
		// seldom read one input at once: each hands an input's mapped pages
		// back when it leaves it (inputWalk).
		forEachIndexOn(len(chunks), workers, func(w, c int) {
			end := len(tasks)
			if c+1 < len(chunks) {
				end = chunks[c+1]
			}
			for i := chunks[c]; i < end; i++ {
				(&relocPass{ctx: ctx, log: &logs[i], scratch: &scratch[w]}).relocateSection(tasks[i])
			}
		})
		for i, osec := range tasks {
			logs[i].replay(ctx, osec)
		}
	}
	// The composed sections' members, input by input: their logs are
	// replayed in that order, after every task's, whenever they were
	// relocated (relocation reads nothing a replay writes).
	for i, m := range later {
		if !early[i] {
			(&relocPass{ctx: ctx, log: &laterLogs[i], scratch: &scratch[0]}).relocateMember(m.osec, m.isec)
		}
		laterLogs[i].replay(ctx, m.osec)
		laterLogs[i] = relocLog{}
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

// relocateSection applies the relocations of osec's members (those
// relocated where they landed: see applyRelocations).
func (rp *relocPass) relocateSection(osec *outputSection) {
	for _, isec := range osec.members {
		if isec.out == osec {
			rp.relocateMember(osec, isec)
		}
	}
}

// relocateMember applies isec's relocations in osec, and logs what it
// keeps for the driver (see relocLog).
func (rp *relocPass) relocateMember(osec *outputSection, isec *inputSection) {
	if !isec.hasRelocs() {
		return // nothing to read: the walk need not fault the input in
	}
	rp.scratch.walk.visit(rp.ctx, isec.file)
	lost := lostRanges(isec)
	for r := range isec.relocs() {
		if !keepsReloc(isec.file, isec.sec, lost, r) {
			continue
		}
		rp.relocate(osec, isec, r)
	}
	rp.unstage()
}

// relocParallelFrom is how many relocations a link's inputs must have for
// applyRelocations to relocate on several goroutines. The large 400-object
// benchmark program has 140,000: one-shot, 2 CPUs, 8 interleaved runs each
// (load 9), CPU 335 -> 325 ms (the same within the noise), wall 890 -> 750
// ms; a warm worker relink's relocation splits into about 10 ms of CPU on
// each goroutine instead of 16 to 21 on one. The large 100-object program
// (35,000) stays on one: there the second goroutine made CPU 55.5 -> 61.7
// ms (perf stat -r 15, two rounds), for a pass of a few milliseconds.
const relocParallelFrom = 50000

// relocWorkers is how many goroutines applyRelocations relocates tasks
// on: Config.Parallelism in a link whose inputs have relocParallelFrom
// relocations or more, one in a smaller link, which would pay more for
// waking threads than it saves (or what WithRelocWorkers asks for).
func relocWorkers(ctx *linkContext, tasks []*outputSection) int {
	if c := ctx.config.Context; c != nil {
		if n, ok := c.Value(relocWorkersKey{}).(int); ok {
			return n
		}
	}
	if ctx.config.Parallelism <= 1 || len(tasks) < 2 {
		return 1
	}
	n := 0
	for _, file := range ctx.files {
		if file.ELF == nil {
			continue
		}
		for k := range file.ELF.Relocs {
			if n += file.ELF.Relocs[k].Len(); n >= relocParallelFrom {
				return ctx.config.Parallelism
			}
		}
	}
	return 1
}

// relocWorkersKey is the context key of WithRelocWorkers.
type relocWorkersKey struct{}

// WithRelocWorkers returns a context for Config.Context that makes the
// link relocate its sections on n goroutines, whatever its size. It is
// for tests only: no corpus case is large enough to relocate on several
// goroutines, and its output and messages must be the same whatever n.
func WithRelocWorkers(ctx context.Context, n int) context.Context {
	return context.WithValue(ctx, relocWorkersKey{}, n)
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
	if x := osec.ext; x != nil && (rela && x.relaOut != nil || !rela && x.relOut != nil) {
		return true // made (relocFor, noteRelocSection), and never removed
	}
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
// scanned once, on first use (by one goroutine: applyRelocations runs
// several).
func lostRanges(isec *inputSection) [][2]uint64 {
	file := isec.file
	file.lostOnce.Do(func() {
		for i, sym := range file.syms {
			if sym == nil || sym.local {
				continue
			}
			esym := &file.ELF.Symbols[i]
			if esym.Shndx != cubin.SHN_UNDEF && esym.Type() != cubin.STT_FUNC && sym.file != file {
				if file.lost == nil {
					file.lost = map[int][][2]uint64{}
				}
				file.lost[int(esym.Shndx)] = append(file.lost[int(esym.Shndx)], [2]uint64{esym.Value, esym.Value + esym.Size})
			}
		}
	})
	return file.lost[int(isec.sec.Index)]
}

// keepsReloc says whether nvlink applies r, a relocation of s in file (or,
// with -r, writes it out): not when it patches one of lost, s's ranges
// holding weak copies another file's definition replaced (lostRanges;
// skippedRanges for the names registerNames makes), unless
// keptInLostBank3, nor when it is droppedInBank3.
func keepsReloc(file *inputFile, s *cubin.Section, lost [][2]uint64, r cubin.Reloc) bool {
	return (!inRanges(lost, uint64(r.Offset)) || keptInLostBank3(file, s, r)) && !droppedInBank3(file, s, r)
}

// keptInLostBank3 says whether r, a relocation of s in file patching the
// bytes of a weak data copy that lost, is one nvlink keeps all the same:
// in __constant__ data (.nv.constant3) it drops only the entries naming
// weak data (an inline variable's address, whatever its copy's fate) and
// keeps those naming a function (strong, weak or static) or strong or
// static data, which patch the lost copy's unused bytes (11.8, 12.4,
// 12.5). In .nv.global.init it drops every entry of a lost copy.
func keptInLostBank3(file *inputFile, s *cubin.Section, r cubin.Reloc) bool {
	if s.Type != cubin.SHT_CUDA_CONSTANT_B0+3 || r.Sym == 0 {
		return false
	}
	esym := &file.ELF.Symbols[r.Sym]
	return esym.Type() == cubin.STT_FUNC || esym.Bind() != cubin.STB_WEAK
}

// droppedInBank3 says whether r, a relocation of s in file, is one nvlink
// drops as it meets it: in __constant__ data (.nv.constant3), an entry
// whose symbol is a weak copy of the file that lost when met, a variable
// (skippedData) or a function (weakSkipped). The bytes it would have
// patched keep the input's (zero): a __constant__ struct holding the
// address of an inline variable or of a template function another input
// defined first (11.8, 12.4, 12.5). In .nv.global.init such an entry is
// retargeted to the copy kept.
func droppedInBank3(file *inputFile, s *cubin.Section, r cubin.Reloc) bool {
	if s.Type != cubin.SHT_CUDA_CONSTANT_B0+3 || r.Sym == 0 || len(file.skippedData) == 0 && len(file.weakSkipped) == 0 {
		return false
	}
	if file.skippedData[r.Sym] {
		return true
	}
	esym := &file.ELF.Symbols[r.Sym]
	return esym.Type() == cubin.STT_FUNC && file.weakSkipped[esym.Shndx]
}

func inRanges(ranges [][2]uint64, off uint64) bool {
	for _, r := range ranges {
		if off >= r[0] && off < r[1] {
			return true
		}
	}
	return false
}

// relocPass relocates the members of one output section: it writes the
// section's own bytes (patch), and logs everything else it does.
type relocPass struct {
	ctx     *linkContext
	log     *relocLog
	scratch *relocScratch // its goroutine's
}

// relocScratch is what a goroutine of applyRelocations keeps from one
// member to the next: its walk through the inputs, and the relocations
// kept from the member being relocated (.rel, .rela), which join the
// log's when the member is done (unstage).
type relocScratch struct {
	walk   inputWalk
	staged [2][]outReloc
}

// relocLog is what relocating an output section does beyond its own
// bytes, kept for replay (applyRelocations): the relocation sections it
// makes (the order sections are made in is nvlink's output order), its
// errors and -preserve-relocs' records, in the order it met them, and
// the relocations it keeps for the driver.
type relocLog struct {
	steps      []relocStep
	made       [2]bool       // the step that makes the .rel (.rela) section is logged
	kept       [2][]outReloc // for the driver: osec's .rel and .rela entries, in order
	driverRefs []*symbol     // undefined symbols a kept relocation names
	dangling   []lateField
	bankSizes  []lateField
}

// relocStep is one step of a relocLog's replay: an error, a
// -preserve-relocs record (preserve), or else the making of the output
// section's .rel or .rela section (relocFor).
type relocStep struct {
	err      *linkError
	warn     *linkError // cudalink's own warning (ownWarnf), once per symbol
	preserve bool
	rela     bool
	r        outReloc
}

// replay does what the log recorded, in order, for osec.
func (log *relocLog) replay(ctx *linkContext, osec *outputSection) {
	for _, st := range log.steps {
		switch {
		case st.err != nil:
			ctx.report(st.err)
		case st.warn != nil:
			ctx.warnPastBank3(st.warn)
		case st.preserve:
			osec.preserve(ctx, st.r)
		default:
			osec.relocFor(ctx, st.rela)
		}
	}
	for i, kept := range log.kept {
		if len(kept) == 0 {
			continue
		}
		rs := osec.relocFor(ctx, i == 1).rel
		if rs.relocs == nil {
			rs.relocs = kept // the log's list is made at its length, member by member (unstage)
		} else {
			rs.relocs = append(slices.Grow(rs.relocs, len(kept)), kept...)
		}
	}
	for _, sym := range log.driverRefs {
		ctx.driverRefs.add(sym)
	}
	for _, d := range log.dangling {
		d.osec = osec
		ctx.dangling = append(ctx.dangling, d)
	}
	for _, f := range log.bankSizes {
		f.osec = osec
		ctx.bankSizes = append(ctx.bankSizes, f)
	}
}

// report logs an error.
func (rp *relocPass) report(e *linkError) {
	rp.log.steps = append(rp.log.steps, relocStep{err: e})
}

// preserve logs a record for -preserve-relocs (outputSection.preserve).
func (rp *relocPass) preserve(r outReloc) {
	rp.log.steps = append(rp.log.steps, relocStep{preserve: true, r: r})
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
		if ctx.afterNonFatal {
			return // nvlink reports nothing here after its non-fatal errors (relocateAfterNonFatal)
		}
		e := &linkError{file: isec.file.Name, section: isec.name(), msg: fmt.Sprintf("%v at offset 0x%x: %s", r.Type, r.Offset, msg)}
		if sym != nil {
			e.symbol = sym.name
		}
		rp.report(e)
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
		// Read only: writes go through osec.patch. A .rela entry's
		// addend is its own, and its field is not read at all.
		a = int64(how.Extract(osec.readIn(isec, p)))
	}
	if sym == nil {
		if r.Type == cubin.R_CUDA_YIELD_OPCODE9_0 || r.Type == cubin.R_CUDA_YIELD_CLEAR_PRED4_87 {
			if ctx.yieldToNop {
				convertYield(osec, p, r.Type, a)
				if ctx.config.PreserveRelocs {
					rp.preserve(outReloc{offset: uint32(p), typ: r.Type, addend: r.Addend})
				}
			}
			return
		}
		if how.Who == cubin.ByLinker {
			return // nothing to do for other types with no symbol
		}
		rp.keep(r.Rela, outReloc{offset: uint32(p), typ: r.Type, addend: r.Addend})
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
		// -preserve-relocs) has none, and nvlink writes the size of the
		// program's __constant__ bank (.nv.constant3) in its place, as
		// the second merge leaves it (fillConstantBankSizes).
		rp.log.bankSizes = append(rp.log.bankSizes, lateField{off: p, typ: r.Type, addend: a})
		return
	}
	if debugDanglingLabel(osec, sym) {
		// Filled once the null symbol's value is known (it can change
		// with the second merge of bank 3, after relocation).
		rp.log.dangling = append(rp.log.dangling, lateField{off: p, typ: r.Type, addend: a})
		if ctx.config.PreserveRelocs {
			// nvlink records it all the same, against no symbol.
			rp.preserve(outReloc{offset: uint32(p), typ: r.Type, addend: a})
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
	if !linkerResolves(how, sym) {
		// 12.x inputs reach functions through the unified table; the
		// driver gets the plain type (R_CUDA_UNIFIED -> R_CUDA_64).
		out := outReloc{offset: uint32(p), typ: cubin.UnifiedBase(r.Type), sym: sym, addend: r.Addend}
		if !sym.defined() {
			rp.log.driverRefs = append(rp.log.driverRefs, sym)
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
		rp.keep(r.Rela, out)
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
				rp.preserve(outReloc{offset: uint32(p), typ: r.Type, sym: sym, addend: a})
			}
			return
		}
		osec.patch(p, r.Type, how.Select(ctx.placed(sym).value+uint64(a)), 0)
		if ctx.config.PreserveRelocs {
			rp.preserve(outReloc{offset: uint32(p), typ: r.Type, sym: sym, addend: a})
		}
		return
	}
	if osec.flags&cubin.SHF_ALLOC == 0 && (ctx.sharedVars.deleted[sym] ||
		sym.space() == cubin.STO_CUDA_SHARED && sym.defined() && sym.section != nil && ctx.placed(sym).out == nil && sym.section.fn != nil && !ctx.isLive(sym.section.fn)) {
		// A debug section's view of a shared variable nvlink deleted (no
		// code uses it), or of one of a removed kernel: nvlink takes its
		// address as unknown.
		debugUnknown(osec, p, r.Type, a)
		return
	}
	if !sym.defined() && isec.fn != nil && ctx.sharedVars.unreachedDynamic[isec.fn] != nil && !ctx.debugSymbols() &&
		sym.space() == cubin.STO_CUDA_SHARED {
		// Dynamic shared memory of a function -preserve-relocs (or -g
		// -suppress-debug-info) keeps though no kernel reaches it: nvlink
		// takes its start as unknown
		// (all ones plus the addend). With a module-wide .nv_debug.shared
		// it keeps the resolution, which only sm_90 can (it publishes the
		// array there; elsewhere checkUnreachedDynamic refused the link).
		debugUnknown(osec, p, r.Type, a)
		if ctx.config.PreserveRelocs && ctx.sharedVars.moduleKept && ctx.debugLayout.of(sym) == publishedDynamic {
			rp.preserve(outReloc{offset: uint32(p), typ: r.Type, sym: sym, addend: a})
		}
		return
	}
	s, ok := ctx.symbolValue(sym, isec)
	if !ok {
		bad("cannot resolve the symbol's address at link time")
		return
	}
	v := how.Select(s + uint64(a))
	if !how.Fits(v) {
		if !ctx.foldedPastBank3(sym, s) {
			bad(fmt.Sprintf("value 0x%x does not fit the field", v))
			return
		}
		if ctx.afterNonFatal {
			return // no output to warn about
		}
		rp.log.steps = append(rp.log.steps, relocStep{warn: &linkError{
			file: isec.file.Name, section: isec.name(), symbol: sym.name,
			msg: fmt.Sprintf("__constant__ variable past bank 3's 64 KiB (at 0x%x, kept there when the second merge folded the bank under the limit): the code's %v field at offset 0x%x keeps only its low bits, so the code reads other data; nvlink links this without a word, and cudalink writes the same bytes", s, r.Type, r.Offset)}})
	}
	osec.patch(p, r.Type, v, sym.constantBank())
	if ctx.config.PreserveRelocs && (sym.defined() || ctx.debugLayout.of(sym) == publishedDynamic && ctx.debugSymbols()) {
		// Not dynamic shared memory, which has no symbol in the output
		// unless -g publishes it.
		rp.preserve(outReloc{offset: uint32(p), typ: r.Type, sym: sym, addend: a})
	}
}

// warnPastBank3 gives cudalink's own warning (ownWarnf) for a relocation
// foldedPastBank3 let through, once per variable: the link is nvlink's,
// byte for byte, but the code it writes reads other data.
func (ctx *linkContext) warnPastBank3(w *linkError) {
	if slices.Contains(ctx.warnedPastBank3, w.symbol) {
		return
	}
	ctx.warnedPastBank3 = append(ctx.warnedPastBank3, w.symbol)
	ctx.ownWarnf("%s", w.Error())
}

// foldedPastBank3 says whether sym, at value s, is a __constant__
// variable past bank 3's 64 KiB: only a link whose second merge folds the
// bank under the limit has one (remergeConstants keeps the first merge's
// offsets). nvlink 11.8, 12.4 and 12.5 write the offset's low bits into
// the code's 16-bit field and link (the code then reads other data, a
// defect copied for byte-identity, with a warning of cudalink's own:
// warnPastBank3); every other value that does not fit its field stays an
// error.
func (ctx *linkContext) foldedPastBank3(sym *symbol, s uint64) bool {
	return s >= maxConstantBank3 && sym.constantBank() == 3 && ctx.remergesConstants()
}

// linkerResolves says whether the linker applies a relocation of type how
// against sym (rather than keeping it for the driver): every linker-only
// type, and the either-side types whose symbol lives in shared memory or
// in a non-allocated section. relocate has the type's how already.
func linkerResolves(how cubin.RelocHow, sym *symbol) bool {
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
// relocated (see unstage). The making of osec's relocation section is
// logged at the first, since the order sections are made in is nvlink's
// output order.
func (rp *relocPass) keep(rela bool, r outReloc) {
	k := b2i(rela)
	if !rp.log.made[k] {
		rp.log.made[k] = true
		rp.log.steps = append(rp.log.steps, relocStep{rela: rela})
	}
	rp.scratch.staged[k] = append(rp.scratch.staged[k], r)
}

// unstage moves the relocations kept from one member into the log's
// lists, growing each list once, by what it needs: most output sections
// have one member, whose list is then allocated at its exact length.
func (rp *relocPass) unstage() {
	for i, staged := range rp.scratch.staged {
		if len(staged) == 0 {
			continue
		}
		rp.log.kept[i] = append(slices.Grow(rp.log.kept[i], len(staged)), staged...)
		rp.scratch.staged[i] = staged[:0]
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

// noteRelocSection records rs, the output relocation section that
// mergeSections made for osec from an input's relocation section called
// name, as the one relocFor returns, when relocFor would look it up by
// that name (.rel or .rela, as rela says, and osec's name): relocation
// then finds it without building its name again and looking it up, once
// per member with relocations (a new string each time: 2 and 3% of the
// instructions of the 100-object flat and -G benchmark links,
// docs/benchmarks.md perf24).
func (osec *outputSection) noteRelocSection(name string, rela bool, rs *outputSection) {
	prefix := ".rel"
	if rela {
		prefix = ".rela"
	}
	if len(name) != len(prefix)+len(osec.name) || !strings.HasPrefix(name, prefix) || !strings.HasSuffix(name, osec.name) {
		return
	}
	if x := osec.more(); rela {
		x.relaOut = rs
	} else {
		x.relOut = rs
	}
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
			reached := false
			for _, k := range ctx.funcs {
				if mem := ctx.sharedOf(k); ctx.isEntry(k.sym) && mem.usesDynamic {
					for _, f := range callTree(k) {
						if f == fn {
							off, reached = max(off, mem.dynOffset), true
						}
					}
				}
			}
			if !reached && ctx.debugSymbols() && ctx.debugLayout.of(sym) == publishedDynamic {
				// A function -g keeps though no kernel using dynamic
				// memory reaches it: nvlink resolves against the array's
				// published symbol (11.8, 12.4, 12.5).
				return ctx.placed(sym).value, true
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
	return ctx.placed(sym).value, true
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

// fillConstantBankSizes writes into each field of a device function's code
// that names .nv.ptx.const0.size (applyRelocations) the size of the
// program's __constant__ bank (.nv.constant3) plus the addend, all ones
// when there is none. The size is the one nvlink writes in the section
// header: after the second merge of bank 3 (remergeConstants), which folds
// repeated data when kernels are pruned (a static __constant__ table of a
// header, one copy per object: 0x10 where the first merge made 0x20).
// nvlink 11.8, 12.4 and 12.5 alike.
func fillConstantBankSizes(ctx *linkContext) {
	size := ^uint64(0)
	if c3 := ctx.outByName.get(".nv.constant3"); c3 != nil {
		size = c3.size
	}
	for _, f := range ctx.bankSizes {
		f.osec.patch(f.off, f.typ, cubin.HowToRelocate(f.typ).Select(size+uint64(f.addend)), 0)
	}
	ctx.bankSizes = nil
}

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

// convertYield applies one of the pair of relocations ptxas puts on each
// YIELD it writes for sm_70 and later (R_CUDA_YIELD_OPCODE9_0, whose
// addend is NOP's opcode, and R_CUDA_YIELD_CLEAR_PRED4_87, which clears
// bits 87-90), which a link applies when it turns YIELDs into NOPs: when
// every input's PTX was for an architecture before sm_70 (ctx.yieldToNop),
// code that needs no forward progress between diverged threads, such as
// sm_61 objects linked for sm_70, whose PTX nvlink compiles, or cubins
// ptxas compiled from such PTX. A link with an input of compute_70 or
// later keeps every YIELD (nvlink's message for that: "Ignoring the reloc
// to convert YIELD to NOP due to forward progress requirement") and
// -preserve-relocs records only the applied ones. nvlink 11.8, 12.4 and
// 12.5 alike.
func convertYield(osec *outputSection, p uint64, typ cubin.RelocType, a int64) {
	v := uint64(0)
	if typ == cubin.R_CUDA_YIELD_OPCODE9_0 {
		v = uint64(a)
	}
	osec.patch(p, typ, v, 0)
}
