package linker

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/cudalink/cudalink/linker/cubin"
)

// Constant bank 2 holds the compiler's constants (OCG constants: a
// function's jump tables and wide immediates, named by .const_opt.
// symbols); the driver loads it per kernel. Everything the link does with
// it is here, in the order the passes do it:
//
//   - placeOrphanConstants (its own step): sections tied to no function
//     are checked for overlaps nvlink refuses;
//   - buildFunctions: as it meets the weak copies' code sections it notes
//     which have constants (weakCopies); a losing weak copy's constants
//     are appended to the kept copy's (appendLostConstants), and a
//     function whose first copy had constants a later copy replaced is
//     marked (markEmptiedBank2); where a local function of a weak one's
//     name came first, the replacing copies' constants must be the
//     replaced copy's (checkMergedCopies);
//   - mergeSections: each kernel gets one bank-2 section with its callees'
//     constants (foldConstant2, makeKernelBanks), each function's at one
//     offset in every kernel reaching it (overlayConstant2), recorded in
//     bank2Overlay;
//   - layoutSections: contributions that share a member's bytes take its
//     offset (placeTwins);
//   - finishNames: the kernels' bank-2 sections get their names in
//     nvlink's order (createKernelBanks).
//
// Bank-2 constants not tied to a function.
//
// ptxas ties every .nv.constant2.<f> section (a function's jump tables and
// wide immediates, named by .const_opt. symbols) to its function through
// sh_info. nvlink 11.8 takes the data of such a section symbol by symbol
// (not as one block), each symbol's bytes at the symbol's own st_value in
// the function's bank. A bank-2 section whose sh_info is 0 (no tool writes
// one; an edited cubin can hold one) belongs to no function: nvlink then
// puts each of its symbols' bytes, still at st_value, into a module-wide
// ".nv.constant2" section shared by every input, so the symbols of two
// such sections land on the same offsets. Overlapping data must be
// identical ("Internal error: overlapping non-identical data" otherwise,
// and "overlapping data spans too much" for a symbol that starts inside
// another and runs past its end). nvlink never writes that module bank:
// relocations against its symbols get their st_value, no kernel's bank 2
// holds the bytes, and only the name ".nv.constant2" stays in the string
// tables.

// isOrphanConstant2 says whether s is a bank-2 section tied to no
// function.
func isOrphanConstant2(s *cubin.Section) bool {
	return isConstant2(s) && s.Info == 0
}

// orphanKey is the output name nvlink gives the module-wide bank 2 those
// sections' data goes to.
const orphanKey = ".nv.constant2"

// constNode is one contribution to the module-wide bank 2: a symbol's
// bytes at its offset. data runs from the symbol's start to the end of its
// section, as nvlink's comparisons may read past the symbol.
type constNode struct {
	off, size uint64
	data      []byte
	file      *inputFile
	isec      *inputSection
	name      string
}

// placeOrphanConstants replays nvlink's placement of the symbols of
// orphan bank-2 sections, in command-line order and each file's symbol
// order, and reports the first overlap nvlink refuses; nvlink's error is
// fatal, so the link stops there.
func placeOrphanConstants(ctx *linkContext) {
	var nodes []*constNode
	for _, file := range ctx.files {
		for j := 1; j < len(file.ELF.Symbols); j++ {
			esym := &file.ELF.Symbols[j]
			switch esym.Type() {
			case cubin.STT_SECTION, cubin.STT_FUNC, cubin.STT_FILE:
				continue
			}
			isec := file.sectionOf(uint32(esym.Shndx))
			if isec == nil || !isOrphanConstant2(isec.sec) {
				continue
			}
			data := isec.sec.Data
			if esym.Value > uint64(len(data)) || esym.Size > uint64(len(data))-esym.Value {
				ctx.report(&linkError{file: file.Name, section: isec.name(), symbol: esym.Name,
					msg: fmt.Sprintf("symbol at 0x%x, 0x%x bytes, runs past the end of its section (0x%x bytes)", esym.Value, esym.Size, len(data))})
				return
			}
			n := &constNode{off: esym.Value, size: esym.Size, data: data[esym.Value:], file: file, isec: isec, name: esym.Name}
			var err *linkError
			if nodes, err = addConstNode(nodes, n); err != nil {
				ctx.report(err)
				return
			}
		}
	}
}

// addConstNode adds n to nodes (sorted by offset) as nvlink's section-data
// merge does, returning its error for a refused overlap:
//   - n starts inside an earlier node: it must end within it, with the
//     same bytes there; it is then dropped;
//   - n starts where a node starts: the shorter one's bytes must be the
//     longer one's start; a longer n replaces the node and must also
//     cover the next node to its end, if it reaches it;
//   - n starts before a node and ends where it ends: the node's bytes must
//     be n's end; n replaces it;
//
// in every other case n is inserted without a check (nvlink checks no
// more), and so is a node with no bytes.
func addConstNode(nodes []*constNode, n *constNode) ([]*constNode, *linkError) {
	end := n.off + n.size
	i := 0
	for ; i < len(nodes); i++ {
		m := nodes[i]
		if m.off >= n.off {
			break
		}
		if m.off+m.size <= n.off {
			continue
		}
		// n starts inside m.
		if n.size == 0 {
			return insertNode(nodes, i, n), nil // before m, as nvlink does
		}
		if end > m.off+m.size {
			return nodes, spansTooMuch(n, m)
		}
		if !bytes.Equal(n.data[:n.size], clip(m.data[n.off-m.off:], n.size)) {
			return nodes, nonIdentical(n, m)
		}
		return nodes, nil
	}
	if i == len(nodes) || nodes[i].size == 0 || n.size == 0 {
		return insertNode(nodes, i, n), nil
	}
	m := nodes[i]
	switch {
	case m.off == n.off && n.size <= m.size:
		if !bytes.Equal(n.data[:n.size], m.data[:n.size]) {
			return nodes, nonIdentical(n, m)
		}
		return nodes, nil
	case m.off == n.off:
		if !bytes.Equal(n.data[:m.size], m.data[:m.size]) {
			return nodes, nonIdentical(n, m)
		}
		nodes[i] = n
		if i+1 < len(nodes) && nodes[i+1].off < end {
			next := nodes[i+1]
			if next.off+next.size != end {
				return nodes, spansTooMuch(n, next)
			}
			// nvlink compares n.size-next.size bytes from next's start.
			k := n.size - next.size
			if !bytes.Equal(clip(n.data[next.off-n.off:], k), clip(next.data, k)) {
				return nodes, nonIdentical(n, next)
			}
			nodes = append(nodes[:i+1], nodes[i+2:]...)
		}
		return nodes, nil
	case m.size < n.size && end == m.off+m.size:
		if !bytes.Equal(n.data[n.size-m.size:n.size], m.data[:m.size]) {
			return nodes, nonIdentical(n, m)
		}
		nodes[i] = n
		return nodes, nil
	}
	return insertNode(nodes, i, n), nil
}

func insertNode(nodes []*constNode, i int, n *constNode) []*constNode {
	nodes = append(nodes, nil)
	copy(nodes[i+1:], nodes[i:])
	nodes[i] = n
	return nodes
}

// clip returns b's first k bytes, or all of b if it is shorter (then it
// differs from any k-byte slice).
func clip(b []byte, k uint64) []byte {
	if uint64(len(b)) < k {
		return b
	}
	return b[:k]
}

func nonIdentical(n, m *constNode) *linkError {
	return &linkError{file: n.file.Name, section: n.isec.name(),
		msg: "overlapping non-identical data in bank 2 outside any function: " + n.name,
		refs: []string{fmt.Sprintf("bytes 0x%x-0x%x differ from those of %s, placed there by %s:(%s)",
			max(n.off, m.off), min(n.off+n.size, m.off+m.size), m.name, m.file.Name, m.isec.name())}}
}

func spansTooMuch(n, m *constNode) *linkError {
	return &linkError{file: n.file.Name, section: n.isec.name(),
		msg: "overlapping data spans too much in bank 2 outside any function: " + n.name,
		refs: []string{fmt.Sprintf("bytes 0x%x-0x%x cross a boundary of %s (0x%x-0x%x), placed there by %s:(%s)",
			n.off, n.off+n.size, m.name, m.off, m.off+m.size, m.file.Name, m.isec.name())}}
}

// bank2Overlay is what the bank-2 steps decide: which functions' weak
// copies left constants behind (buildFunctions, through
// appendLostConstants and markEmptiedBank2), and how kernels' bank-2
// sections share contributions (mergeSections: foldConstant2,
// overlayConstant2); layoutSections reads it (placeContributions). Few
// functions and sections need it, so it is kept here rather than in every
// function and inputSection.
type bank2Overlay struct {
	// twins are the contributions that share a member's bytes instead of
	// being members, and twinOf the member each shares (foldConstant2).
	twins  []*inputSection
	twinOf map[*inputSection]*inputSection
	// fixedOff are the offsets overlayConstant2 chose for the members of
	// sections with fixedOffsets.
	fixedOff map[*inputSection]uint64
	// banks are the kernels' .nv.constant2.<k>, each with its callees'
	// constants (foldConstant2); a kernel without bank 2 has none.
	banks map[*function]*outputSection
	// emptied are the kernel banks made for a function's emptied
	// constants (makeKernelBanks); left without members, nvlink writes
	// them not, but their names stay (assignIndices drops them).
	emptied map[*outputSection]bool

	// lostOnly are the functions whose only bank-2 constants are those of
	// a weak copy that lost (appendLostConstants, in buildFunctions):
	// nvlink keeps them in a .nv.constant2.<f> of the function's own,
	// folded into no kernel's bank.
	lostOnly functionSet
	// emptiedFrom are the functions a weak copy of which, with bank-2
	// constants, a later copy replaced (markEmptiedBank2, in
	// buildFunctions). nvlink empties the constants away, but still makes
	// the bank-2 section of every kernel that reaches the function (never
	// written: only its name stays in the string tables; makeKernelBanks).
	emptiedFrom functionSet
	// emptyReach: for each function of emptiedFrom left without
	// constants, a stand-in for its emptied section (no bytes, at
	// emptiedAlign), and the kernels with banks that reach it
	// (foldConstant2): nvlink places the empty section in those banks as
	// it places constants, at its alignment (overlayConstant2).
	emptyReach   map[*inputSection][]*function
	emptyStandIn map[*function]*inputSection
	// emptiedAlign is the alignment of the emptied constants of each
	// function of emptiedFrom (the first replaced copy's): nvlink puts the
	// constants of the copy that replaced them in the same section, so at
	// that alignment if it is larger than their own (overlayConstant2).
	emptiedAlign map[*function]uint64
	// replacedKernelAlign is the alignment of the bank-2 constants of a
	// weak kernel's copy that a later one replaced (markEmptiedBank2):
	// nvlink's bank of the kernel keeps it, and the constants of the
	// functions the kernel reaches start at it (overlayConstant2; 11.8,
	// 12.5, sm_52: a -G copy with 4-byte aligned constants replacing an
	// optimized one with 8-byte aligned ones put a 4-byte aligned callee
	// block at 0x10 after 0xc bytes, not at 0xc).
	replacedKernelAlign map[*function]uint64
	// lostEmptied are the weak functions whose first copy had no bank-2
	// constants, and whose losing copies' constants nvlink kept in a
	// .nv.constant2.<f> of the function's own that the copy replacing
	// the first emptied (markEmptiedBank2): it writes no such section,
	// and 12.x drops its name (compactSectionNames).
	lostEmptied functionSet
	// emptyEnd: for each kernel bank an emptied stand-in was placed in
	// (emptyReach), where the last such stand-in sits: nvlink's bank runs
	// at least to there, zeros past the constants (placeContributions).
	emptyEnd map[*outputSection]uint64
}

// unwritten says whether osec is a kernel bank made for a function's
// emptied constants (makeKernelBanks) that nvlink leaves empty, so
// names but never writes: one without constants whose emptied sections
// all sit at 0. One whose emptied section nvlink placed further, after
// what other kernels reaching the function hold there, it writes,
// zeros up to there (12.4, sm_61: a -G file's tkern2<float> reaching
// only poly<float>, whose copy with constants a later -G copy replaced,
// placed at 0x18 after blend<double,4>'s constants in another kernel's
// bank: a bank of 0x18 zero bytes).
func (b *bank2Overlay) unwritten(osec *outputSection) bool {
	return b.emptied[osec] && len(osec.members) == 0 && b.emptyEnd[osec] == 0
}

func isConstant2(s *cubin.Section) bool {
	return s.Type == cubin.SHT_CUDA_CONSTANT_B0+2
}

// foldConstant2 gives each kernel one bank-2 section: its own OCG
// constants followed by those of every non-kernel function it calls, in
// call-tree order, as nvlink does (the driver loads bank 2 per kernel).
// overlayConstant2 then fixes where each function's constants sit.
//
// When the bank would pass 64 KiB, nvlink lets contributions with the
// same bytes share one copy (functions of the same shape have the same
// jump tables and constants); if the bank is still too large, that is
// its "too much data for compiler-generated constants" error.
func foldConstant2(ctx *linkContext) {
	made := makeKernelBanks(ctx)
	reaches := reachingBank2(ctx)
	var trees treeWalker
	for i := len(ctx.funcs) - 1; i >= 0; i-- {
		k := ctx.funcs[i]
		if ctx.demoted(k) {
			// A kernel -preserve-relocs keeps as a function keeps its
			// own constants as a kernel's, alone (mergeSections).
			continue
		}
		if !ctx.isEntry(k.sym) {
			continue
		}
		var own *inputSection
		for _, isec := range k.sections {
			if isConstant2(isec.sec) {
				own = isec
			}
		}
		var osec *outputSection
		if own != nil {
			osec = own.out
		}
		var callees []*inputSection
		var tree []*function
		if reaches[k.order] { // else no callee has constants to fold
			tree = trees.walk(k)[1:]
		}
		var empties []*inputSection
		for _, fn := range tree {
			if ctx.isEntry(fn.sym) || ctx.bank2.lostOnly.has(fn) {
				continue
			}
			for _, isec := range fn.sections {
				if isConstant2(isec.sec) {
					callees = append(callees, isec)
				}
			}
			if ctx.bank2.emptiedFrom.has(fn) && !hasBank2(fn) {
				empties = append(empties, emptiedStandIn(ctx, fn))
			}
		}
		if (len(callees) > 0 || len(empties) > 0) && osec == nil {
			// A kernel reaching only emptied constants takes its bank
			// too: nvlink places the emptied section in it as in the
			// others (overlayConstant2), and writes it, zeros, when
			// that is past 0 (bank2Overlay.unwritten).
			osec = made[k]
		}
		if osec != nil {
			for _, isec := range empties {
				if ctx.bank2.emptyReach == nil {
					ctx.bank2.emptyReach = map[*inputSection][]*function{}
				}
				ctx.bank2.emptyReach[isec] = append(ctx.bank2.emptyReach[isec], k)
			}
		}
		share := osec != nil && bank2Size(append(append([]*inputSection(nil), osec.members...), callees...)) > maxBank2
		for _, isec := range callees {
			isec.out = osec
			delete(ctx.bank2.twinOf, isec)
			if share {
				if twin := identicalMember(osec, isec); twin != nil {
					if ctx.bank2.twinOf == nil {
						ctx.bank2.twinOf = map[*inputSection]*inputSection{}
					}
					ctx.bank2.twinOf[isec] = twin
					osec.twinned = true
					ctx.bank2.twins = append(ctx.bank2.twins, isec)
					continue
				}
			}
			osec.members = append(osec.members, isec)
		}
		if osec != nil && bank2Size(osec.members) > maxBank2 {
			ctx.report(&linkError{file: k.text.file.Name, symbol: k.sym.name, nonFatal: true,
				msg: fmt.Sprintf("entry function uses too much data for compiler-generated constants (0x%x bytes in bank 2, 0x%x max); "+
					"recompile with -Xptxas --disable-optimizer-constants", bank2Size(osec.members), maxBank2)})
		}
		if osec != nil {
			if ctx.bank2.banks == nil {
				ctx.bank2.banks = map[*function]*outputSection{}
			}
			ctx.bank2.banks[k] = osec
		}
	}
	overlayConstant2(ctx)
}

// reachingBank2 marks, by function order, the functions whose calls reach
// a non-kernel function with bank-2 constants (not a losing copy's alone)
// or emptied ones (bank2Source): the kernels whose call trees foldConstant2 must walk. It goes up the
// callers from those functions once, so a link whose kernels reach long
// call chains without such constants (the deep-chain benchmark program)
// does not walk each kernel's tree.
func reachingBank2(ctx *linkContext) []bool {
	marks := make([]bool, len(ctx.allFuncs)+1)
	var stack []*function
	for _, fn := range ctx.allFuncs {
		if !bank2Source(ctx, fn) {
			continue
		}
		stack = append(stack, fn)
	}
	for len(stack) > 0 {
		fn := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, c := range fn.callers {
			if !marks[c.order] {
				marks[c.order] = true
				stack = append(stack, c)
			}
		}
	}
	return marks
}

// makeKernelBanks makes the bank-2 sections of the kernels that have no
// constants of their own but reach a function's, in nvlink's order: it
// meets the functions' constants last function first (in its list of
// functions, sortLastFunctionFirst's order), and makes the
// section of each kernel reaching them, last call graph node first, when
// it meets the first.
func makeKernelBanks(ctx *linkContext) map[*function]*outputSection {
	made := map[*function]*outputSection{}
	// Most links have no non-kernel function with bank-2 constants: they
	// skip the walk of every kernel's call tree below (in the deep-chain
	// benchmark program, 0.28 MB of lists).
	if !slices.ContainsFunc(ctx.funcs, func(fn *function) bool { return bank2Source(ctx, fn) }) {
		return made
	}
	// The kernels reaching each function, last call graph node first: the
	// reverse of the order nvlink met the kernel symbols, not of the order
	// the inputs define them. A kernel that device code in an earlier
	// input launches was met there, before the kernels of the inputs in
	// between (bank2-kernel-sections-order-launched-kernel-sm80).
	kernels := ctx.kernels()
	slices.SortStableFunc(kernels, func(a, b *function) int { return cmp.Compare(ctx.names.nodeOf(b.sym), ctx.names.nodeOf(a.sym)) })
	reaching := map[*function][]*function{}
	var trees treeWalker
	for _, k := range kernels {
		for _, fn := range trees.walk(k)[1:] {
			reaching[fn] = append(reaching[fn], k)
		}
	}
	// The functions last first as nvlink lists them: a weak function a
	// later copy replaced at its first copy's place (function.listKey).
	funcs := slices.Clone(ctx.funcs)
	slices.SortStableFunc(funcs, func(a, b *function) int { return cmp.Compare(b.listKey, a.listKey) })
	for _, fn := range funcs {
		if !bank2Source(ctx, fn) {
			continue
		}
		banks := fn.sections
		if ctx.bank2.emptiedFrom.has(fn) && !hasBank2(fn) {
			// The emptied constants of a replaced copy: the banks are
			// made (and stay empty, so unwritten) all the same.
			banks = []*inputSection{{sec: &cubin.Section{Type: cubin.SHT_CUDA_CONSTANT_B0 + 2, Flags: cubin.SHF_ALLOC}}}
		}
		for _, isec := range banks {
			if !isConstant2(isec.sec) {
				continue
			}
			for _, k := range reaching[fn] {
				if made[k] != nil || hasBank2(k) {
					continue
				}
				osec := ctx.outSection(ctx.names.funcKey(k, ".nv.constant2."+k.sym.name), cubin.SHT_PROGBITS, isec.sec.Flags)
				osec.fn = k
				made[k] = osec
				if isec.file == nil { // the emptied constants' stand-in
					if ctx.bank2.emptied == nil {
						ctx.bank2.emptied = map[*outputSection]bool{}
					}
					ctx.bank2.emptied[osec] = true
				}
			}
		}
	}
	return made
}

// bank2Source says whether fn is a non-kernel function whose bank-2
// constants (or a replaced copy's emptied ones) give the kernels reaching
// it banks of their own (makeKernelBanks).
func bank2Source(ctx *linkContext, fn *function) bool {
	if ctx.isEntry(fn.sym) || ctx.bank2.lostOnly.has(fn) {
		return false
	}
	return ctx.bank2.emptiedFrom.has(fn) || hasBank2(fn)
}

// ownBank2 are the bank-2 constant sections of fn's chosen copy (not a
// losing copy's, appended); none when it has no code.
func ownBank2(fn *function) []*inputSection {
	if fn.text == nil {
		return nil
	}
	var own []*inputSection
	for _, isec := range fn.sections {
		if isConstant2(isec.sec) && isec.file == fn.text.file {
			own = append(own, isec)
		}
	}
	return own
}

// hasBank2 says whether one of fn's own sections is a bank-2 constant
// section.
func hasBank2(fn *function) bool {
	return slices.ContainsFunc(fn.sections, func(isec *inputSection) bool { return isConstant2(isec.sec) })
}

// overlayConstant2 gives each non-kernel function's bank-2 constants one
// offset in every kernel bank that holds them, as nvlink does, so a
// function reached from several kernels finds its constants at the same
// place in each: functions are placed one at a time, last function first
// (the reverse of the order the inputs define functions in: files, then
// each file's code sections; not the call order, and the same whether the
// functions come in several files or in one partial-link output), each
// after the highest end of what is already placed (a kernel's own
// constants first) in every kernel that reaches it. So no two functions a
// kernel reaches overlap in its bank. (Placing per kernel instead, each
// kernel's unplaced functions after what it reaches, lets two functions
// that different kernels placed first share an offset in a third kernel
// that reaches both; checked against nvlink on 140 links of 70 random programs of up to
// 7 kernels and 6 functions with jump tables.)
// A kernel's bank ends with the last constants it reaches, with zeros
// where other kernels' constants sit, or where nvlink placed the last
// emptied section it reaches (emptyEnd), if that is further. Banks whose contributions share
// bytes (over 64 KiB) keep foldConstant2's sequential layout.
func overlayConstant2(ctx *linkContext) {
	for _, osec := range ctx.bank2.banks {
		if osec.twinned {
			return
		}
	}
	ends := map[*function]uint64{}
	aligns := map[*function]uint64{} // the largest alignment placed in each kernel's bank so far
	reachers := map[*inputSection][]*function{}
	var callees []*inputSection
	for _, k := range ctx.funcs {
		osec := ctx.bank2.banks[k]
		if !ctx.isEntry(k.sym) || osec == nil {
			continue
		}
		osec.fixedOffsets = true
		aligns[k] = ctx.bank2.replacedKernelAlign[k]
		for _, isec := range osec.members {
			if isec.fn == k {
				// The kernel's own constants at 0, then those of its
				// weak copies that lost (appendLostConstants), each at
				// its alignment.
				off := alignTo(ends[k], max(isec.sec.Addralign, 1))
				if off == 0 {
					delete(ctx.bank2.fixedOff, isec)
				} else {
					if ctx.bank2.fixedOff == nil {
						ctx.bank2.fixedOff = map[*inputSection]uint64{}
					}
					ctx.bank2.fixedOff[isec] = off
				}
				ends[k] = off + isec.sec.Size
				aligns[k] = max(aligns[k], isec.sec.Addralign)
				continue
			}
			if reachers[isec] == nil {
				callees = append(callees, isec)
			}
			reachers[isec] = append(reachers[isec], k)
		}
	}
	for _, fn := range ctx.funcs {
		if isec := ctx.bank2.emptyStandIn[fn]; isec != nil && len(ctx.bank2.emptyReach[isec]) > 0 {
			callees = append(callees, isec)
			reachers[isec] = ctx.bank2.emptyReach[isec]
		}
	}
	sortLastFunctionFirst(callees)
	for i, isec := range callees {
		var off uint64
		align := max(isec.sec.Addralign, 1)
		// A function's constants start at the largest alignment placed
		// in the banks so far; the constants of its weak copies that lost
		// (appendLostConstants) follow at their own alignment, as one
		// block with the kept copy's (sm_61 -Xptxas -O0: a second 4-byte
		// aligned __cuda_sm20_div_f64_slowpath_v2 block at 0x44 after
		// the first at 0x30, not at 0x48). The block starts at the
		// largest alignment of its parts, as nvlink's section of the kept
		// copy takes that of every block appended to it (11.8, sm_52:
		// an optimized copy's 8-byte aligned constants appended to the
		// kept -Xptxas -O0 copy's 4-byte aligned ones put both at 0x10
		// after a kernel's 0xc bytes, not at 0xc).
		appended := i > 0 && callees[i-1].fn == isec.fn
		if !appended {
			align = max(align, ctx.bank2.emptiedAlign[isec.fn])
			for _, next := range callees[i+1:] {
				if next.fn != isec.fn {
					break
				}
				align = max(align, next.sec.Addralign)
			}
		}
		for _, k := range reachers[isec] {
			off = max(off, ends[k])
			if !appended {
				align = max(align, aligns[k])
			}
		}
		off = alignTo(off, align)
		if ctx.bank2.fixedOff == nil {
			ctx.bank2.fixedOff = map[*inputSection]uint64{}
		}
		ctx.bank2.fixedOff[isec] = off
		for _, k := range reachers[isec] {
			ends[k] = off + isec.sec.Size
			aligns[k] = max(aligns[k], align)
			if isec.file == nil { // an emptied stand-in
				if ctx.bank2.emptyEnd == nil {
					ctx.bank2.emptyEnd = map[*outputSection]uint64{}
				}
				bank := ctx.bank2.banks[k]
				ctx.bank2.emptyEnd[bank] = max(ctx.bank2.emptyEnd[bank], off)
			}
		}
		if ctx.null.lostConstants.has(isec) {
			// nvlink leaves the offset of the losing copy's block it
			// places last, whichever is highest: with __cuda_sm20_dblrcp
			// and _dsqrt each losing a copy, dsqrt's block at 0xc in one
			// kernel's bank and then dblrcp's at 8 in another's, 8.
			ctx.null.lostPlaced = off
		}
	}
	for k, align := range aligns {
		osec := ctx.bank2.banks[k]
		osec.addralign = max(osec.addralign, align)
	}
	// No kernel's bank takes a block in when no kernel reaches the
	// function: every kernel removed (-variables-used alone), or kept as
	// a function (-preserve-relocs with -variables-used). nvlink then
	// never places it, and leaves 0 when it places none.
	ctx.null.placed = len(ctx.null.lostConstants) > 0
}

// emptiedStandIn returns the stand-in for fn's emptied bank-2 section
// (bank2Overlay.emptyReach), made on first use.
func emptiedStandIn(ctx *linkContext, fn *function) *inputSection {
	if isec := ctx.bank2.emptyStandIn[fn]; isec != nil {
		return isec
	}
	isec := &inputSection{fn: fn, sec: &cubin.Section{Type: cubin.SHT_CUDA_CONSTANT_B0 + 2, Flags: cubin.SHF_ALLOC, Addralign: ctx.bank2.emptiedAlign[fn]}}
	if ctx.bank2.emptyStandIn == nil {
		ctx.bank2.emptyStandIn = map[*function]*inputSection{}
	}
	ctx.bank2.emptyStandIn[fn] = isec
	return isec
}

// listBySectionSymbols gives the functions made from file (byText) that
// have bank-2 constants of their own their places in nvlink's list of
// functions (function.listKey) in the order of their bank-2 sections'
// section symbols in file's .symtab, not of their code sections: nvlink
// lists a function's constants as it meets that symbol. nvcc and ptxas
// write each function's section symbols together, code first, so the
// orders agree; a cudalink -r output does not (a losing copy's constants,
// which make a function's own section there, come with their file's
// symbols, after the kept copy's: 12.x's -Xptxas -O0 dm<double> kept and
// an optimized copy losing, where nvlink's final link placed dm's
// constants first in the banks, cudalink's last). The places kept from an
// earlier file's replaced copy (weakCopies.firstAt) stay where they are.
func listBySectionSymbols(file *inputFile, byText map[int]*function) {
	var fns []*function
	for _, fn := range byText {
		if fn.listKey == 2*fn.order<<32 && slices.ContainsFunc(fn.sections, func(isec *inputSection) bool {
			return isConstant2(isec.sec) && isec.file == file
		}) {
			fns = append(fns, fn)
		}
	}
	if len(fns) < 2 {
		return
	}
	symAt := map[*inputSection]int{} // a bank-2 section's first section symbol
	for j := 1; j < len(file.ELF.Symbols); j++ {
		esym := &file.ELF.Symbols[j]
		if esym.Type() != cubin.STT_SECTION {
			continue
		}
		if isec := file.sectionOf(uint32(esym.Shndx)); isec != nil && isConstant2(isec.sec) {
			if _, ok := symAt[isec]; !ok {
				symAt[isec] = j
			}
		}
	}
	at := func(fn *function) int { // its first bank-2 section's symbol; without one, after the others
		for _, isec := range fn.sections {
			if j, ok := symAt[isec]; ok && isec.file == file {
				return j
			}
		}
		return len(file.ELF.Symbols)
	}
	slices.SortFunc(fns, func(a, b *function) int { return cmp.Compare(a.listKey, b.listKey) })
	keys := make([]int, len(fns))
	for i, fn := range fns {
		keys[i] = fn.listKey
	}
	slices.SortStableFunc(fns, func(a, b *function) int { return cmp.Compare(at(a), at(b)) })
	for i, fn := range fns {
		fn.listKey = keys[i]
	}
}

// sortLastFunctionFirst orders functions' sections the reverse of the
// order the inputs define the functions in, as nvlink's list of functions
// holds them: a weak function a later file's copy replaced keeps the place
// of the first copy with constants that was kept when met
// (function.listKey).
func sortLastFunctionFirst(secs []*inputSection) {
	sort.SliceStable(secs, func(a, b int) bool { return secs[a].fn.listKey > secs[b].fn.listKey })
}

// maxBank2 is the size of constant bank 2, which holds a kernel's
// compiler-generated constants and those of its callees.
const maxBank2 = 0x10000

// bank2Size is the size of a bank laid out from these contributions.
func bank2Size(members []*inputSection) uint64 {
	var size uint64
	for _, isec := range members {
		size = alignTo(size, max(isec.sec.Addralign, 1)) + isec.sec.Size
	}
	return size
}

// identicalMember returns a member of osec with the same bytes and
// alignment as isec, neither of them patched by relocations, or nil.
func identicalMember(osec *outputSection, isec *inputSection) *inputSection {
	if isec.hasRelocs() {
		return nil
	}
	for _, m := range osec.members {
		if !m.hasRelocs() && m.sec.Addralign == isec.sec.Addralign && bytes.Equal(m.sec.Data, isec.sec.Data) {
			return m
		}
	}
	return nil
}

// markEmptiedBank2 marks the functions whose weak copy met first, with
// bank-2 constants, a later copy replaced (see bank2Overlay.emptiedFrom):
// replaced are those copies' symbols, as buildFunctions met their code
// sections. Their records exist only once every file's are made, the
// replacing copy's being in a later file.
func markEmptiedBank2(ctx *linkContext, copies *weakCopies) {
	for sym, align := range copies.lostEarly {
		fn := ctx.funcOf(sym)
		if fn == nil || ctx.isEntry(fn.sym) || copies.localOwner(ctx, sym) != nil || copies.lostOwner[sym] {
			continue // a local's section held them (emptyLocalBank2), or the function's own (below)
		}
		if copies.firstHas[sym] && copies.replacedAlign != nil {
			// The first copy's emptied section held them too: the
			// replacing copy's constants take its alignment.
			copies.replacedAlign[sym] = max(copies.replacedAlign[sym], align)
		}
	}
	for sym := range copies.lostOwner {
		fn := ctx.funcOf(sym)
		if fn == nil || ctx.isEntry(fn.sym) {
			continue
		}
		// nvlink made the function's own bank 2 for the losing copies'
		// constants; emptied, it is never written (12.x drops its
		// name).
		ctx.bank2.lostEmptied.add(fn)
		if secs := copies.replacedBank2[sym]; len(secs) > 0 && len(ownBank2(fn)) == 0 {
			// A later kept copy with constants made a section of its
			// own, apart from that one, which each replacement empties
			// again (found by name); the copies that replace it merge
			// theirs into it. Its constants stay the function's when
			// the chosen copy has none (12.x -O0).
			var own []*inputSection
			for _, isec := range secs {
				if isec.file == secs[0].file {
					isec.fn = fn
					own = append(own, isec)
				}
			}
			fn.sections = slices.Insert(fn.sections, 0, own...)
		}
	}
	for _, sym := range copies.replacedBare {
		// The replaced copy had no constants, but a local function of
		// its name, met after it, made the section of that name, which
		// the replacement empties (11.8, 12.4, 12.5: a -O0 weak
		// __cuda_sm3x_div_rn_noftz_f32_slowpath from older PTX replaced
		// by a later file's equal one, an -Xptxas -O1 file's local of the
		// name between them). A local met after the replacing copy
		// keeps its constants.
		if local := copies.localOwner(ctx, sym); local != nil && sym.file != nil && local.text.file.index < sym.file.index {
			emptyLocalBank2(ctx, local)
		}
	}
	for _, sym := range copies.replaced {
		if local := copies.localOwner(ctx, sym); local != nil {
			emptyLocalBank2(ctx, local)
			if !checkMergedCopies(ctx, copies, sym) {
				return
			}
		}
		if fn := ctx.funcOf(sym); fn != nil && ctx.isEntry(fn.sym) {
			if ctx.bank2.replacedKernelAlign == nil {
				ctx.bank2.replacedKernelAlign = map[*function]uint64{}
			}
			ctx.bank2.replacedKernelAlign[fn] = max(ctx.bank2.replacedKernelAlign[fn], copies.replacedAlign[sym])
		} else if fn != nil {
			ctx.bank2.emptiedFrom.add(fn)
			if _, ok := ctx.bank2.emptiedAlign[fn]; !ok {
				if ctx.bank2.emptiedAlign == nil {
					ctx.bank2.emptiedAlign = map[*function]uint64{}
				}
				ctx.bank2.emptiedAlign[fn] = copies.replacedAlign[sym]
			}
		}
	}
}

// checkMergedCopies replays the merge nvlink makes of the bank-2
// constants of weak function sym's copies when a local function of its
// name made the section first (emptyLocalBank2): the copies kept when met
// and later replaced, then the chosen one, each replacing copy's symbols
// merged into the section of the first replaced copy, whose constants
// stay. Bytes of a symbol that overlap different bytes already there stop
// nvlink ("Internal error: overlapping non-identical data", exit 1);
// cudalink reports them, once per function, and says whether all agree.
// (Where no local came first, the replaced copy's own section is emptied
// before the merge, and nothing is compared.)
func checkMergedCopies(ctx *linkContext, copies *weakCopies, sym *symbol) bool {
	secs := slices.Clip(copies.replacedBank2[sym]) // appended to below
	if len(secs) == 0 || copies.checked[sym] {
		return true
	}
	if copies.checked == nil {
		copies.checked = map[*symbol]bool{}
	}
	copies.checked[sym] = true
	if fn := ctx.funcOf(sym); fn != nil {
		secs = append(secs, ownBank2(fn)...)
	}
	first := secs[0]
	content := slices.Clone(first.sec.Data)
	for _, isec := range secs[1:] {
		file := isec.file
		for j := 1; j < len(file.ELF.Symbols); j++ {
			esym := &file.ELF.Symbols[j]
			switch esym.Type() {
			case cubin.STT_SECTION, cubin.STT_FUNC, cubin.STT_FILE:
				continue
			}
			if file.sectionOf(uint32(esym.Shndx)) != isec {
				continue
			}
			data := isec.sec.Data
			if esym.Value > uint64(len(data)) || esym.Size > uint64(len(data))-esym.Value {
				continue // past its section's end: nvlink's merge is not known for it
			}
			bytesOf := data[esym.Value : esym.Value+esym.Size]
			if esym.Value < uint64(len(content)) {
				n := min(uint64(len(content))-esym.Value, esym.Size)
				if !bytes.Equal(bytesOf[:n], content[esym.Value:esym.Value+n]) {
					ctx.report(&linkError{file: file.Name, section: isec.name(), symbol: esym.Name,
						msg: "overlapping non-identical data in the bank 2 of weak function " + displayName(sym.name),
						refs: []string{fmt.Sprintf("bytes 0x%x-0x%x differ from those of the copy in %s:(%s), a copy this one replaced "+
							"(a local function of the name, in %s, came first)",
							esym.Value, esym.Value+n, first.file.Name, first.name(), copies.bank2Owner[sym.name].file.Name)}})
					return false
				}
			}
			if end := esym.Value + esym.Size; end > uint64(len(content)) {
				content = append(content, make([]byte, end-uint64(len(content)))...)
				copy(content[esym.Value:], bytesOf)
			}
		}
	}
	return true
}

// emptyLocalBank2 empties the bank-2 constants of local, a local function
// whose bank-2 section has the name of a weak function's and was made
// before any of the weak function's (weakCopies.localOwner), when a later
// copy of the weak function replaces the one kept first: nvlink looks the
// replaced copy's section up by name to empty it, and finds the local's.
// The replaced copy's own section keeps its constants, and the replacing
// copy's are merged into it (the same bytes: nvlink refuses different ones
// as overlapping non-identical data), which is what the weak function's
// constants, at the replaced copy's alignment (emptiedAlign), already
// are. The local's own constants go, with those of losing copies
// appended to them before the replacing copy's file; cudalink appends
// only those met after it (buildFunctions), which stay. The kernels
// reaching the local still get banks, as for any emptied constants.
func emptyLocalBank2(ctx *linkContext, local *function) {
	var align uint64
	local.sections = slices.DeleteFunc(local.sections, func(isec *inputSection) bool {
		own := isConstant2(isec.sec) && isec.file == local.text.file
		if own {
			align = max(align, isec.sec.Addralign, 1)
		}
		return own
	})
	if align == 0 {
		return // emptied already
	}
	ctx.bank2.emptiedFrom.add(local)
	if ctx.bank2.emptiedAlign == nil {
		ctx.bank2.emptiedAlign = map[*function]uint64{}
	}
	ctx.bank2.emptiedAlign[local] = align
}

// weakCopies is what buildFunctions notes of the weak function copies'
// bank-2 constants as it meets their code sections, file by file, for
// appendLostConstants and markEmptiedBank2.
type weakCopies struct {
	// firstHas: whether the first copy of each weak function nvlink met
	// has bank-2 constants (see appendLostConstants).
	firstHas map[*symbol]bool
	// keptHas: whether a copy of each weak function that was the kept
	// one when nvlink met it (the first, one a later copy replaced, the
	// chosen one) has bank-2 constants: the losers met after such a copy
	// append theirs to its bank (appendLostConstants).
	keptHas map[*symbol]bool
	// replaced are the weak copies with bank-2 constants that a later
	// copy replaced (markEmptiedBank2), and replacedAlign the alignment
	// of the first such copy's constants of each function.
	replaced      []*symbol
	replacedAlign map[*symbol]uint64
	// replacedBare are the weak copies without bank-2 constants that a
	// later copy replaced: nvlink empties the section of their name all
	// the same, which a local function's may be (markEmptiedBank2).
	replacedBare []*symbol
	// placeOf: the place in nvlink's function list (function.listKey) of
	// the weak functions whose first copy with bank-2 constants that was
	// the kept one when met a later file's copy replaced.
	placeOf map[*symbol]int
	// replacedBank2: the bank-2 sections of the copies of each weak
	// function that were the kept one when met and that a later copy
	// replaced, in the order met (checkMergedCopies).
	replacedBank2 map[*symbol][]*inputSection
	// checked: the weak functions checkMergedCopies has checked.
	checked map[*symbol]bool
	// keptMet: how many copies of each weak function that were the kept
	// one when met and that a later copy replaced buildFunctions has met.
	keptMet map[*symbol]int
	// lostEarly: for each weak function, the largest alignment of the
	// bank-2 constants of the copies that lost when met while the first
	// copy was still the kept one, and before a later copy won: nvlink
	// appended them to the first copy's section, which the copy that
	// replaced the first emptied (markEmptiedBank2).
	lostEarly map[*symbol]uint64
	// lostOwner: the weak functions whose bank-2 section of their name a
	// copy that lost when met, before the chosen one, made (no copy kept
	// before it had constants, no local function of the name came
	// first): nvlink made the function's own .nv.constant2.<f> for the
	// losing copies' constants, which a later replacement empties
	// (markEmptiedBank2).
	lostOwner map[*symbol]bool
	// bank2Owner: by function name, the symbol of the function whose
	// bank-2 section of that name nvlink made first: a local function
	// with constants, or the first copy of a weak one kept when met with
	// constants (see localOwner).
	bank2Owner map[string]*symbol
}

// own notes that sym's function makes its bank-2 section now, if no
// function of its name made one before.
func (w *weakCopies) own(sym *symbol) {
	if _, ok := w.bank2Owner[sym.name]; ok {
		return
	}
	if w.bank2Owner == nil {
		w.bank2Owner = map[string]*symbol{}
	}
	w.bank2Owner[sym.name] = sym
}

// localOwner returns the local function whose bank-2 section took the
// name of weak function sym's before any copy of sym made one, or nil:
// a __cuda_sm20_* helper ptxas makes local in one file and weak (-G,
// -Xptxas -O0) in later ones. nvlink finds a weak function's bank-2
// section by name when it appends a losing copy's constants to the kept
// copy's and when it empties those of a copy a later one replaces, so
// both go to the local's section instead (appendLostConstants,
// emptyLocalBank2).
func (w *weakCopies) localOwner(ctx *linkContext, sym *symbol) *function {
	if o := w.bank2Owner[sym.name]; o != nil && o != sym && o.local {
		return ctx.funcOf(o)
	}
	return nil
}

// firstAt notes key as sym's place in nvlink's list of functions, if no
// copy of sym was noted before: the first copy with bank-2 constants that
// was the kept one when met. A kept copy without constants leaves no
// place: the function's constants take the place of the copy that brings
// them (a -G first copy replaced by a lighter one with constants: the
// lighter one's place). Copies met one after another, with no function
// made between them, share the place, in the order met (the earlier
// file's order, not the order the replacing copies are made in).
func (w *weakCopies) firstAt(sym *symbol, key int) {
	if _, met := w.placeOf[sym]; met {
		return
	}
	if w.placeOf == nil {
		w.placeOf = map[*symbol]int{}
	}
	w.placeOf[sym] = key<<32 | len(w.placeOf)
}

// listKey is the function.listKey of sym's function, made as the
// order-th.
func (w *weakCopies) listKey(sym *symbol, order int) int {
	if key, ok := w.placeOf[sym]; ok {
		return key
	}
	return 2 * order << 32
}

// meet notes sym's code section, the i-th section of bank2's file.
func (w *weakCopies) meet(sym *symbol, bank2 *codeBank2, i int) {
	if sym == nil || sym.bind() != cubin.STB_WEAK {
		return
	}
	if _, met := w.firstHas[sym]; !met {
		if w.firstHas == nil {
			w.firstHas = map[*symbol]bool{}
		}
		w.firstHas[sym] = bank2.has(i)
		w.kept(sym, bank2, i)
	}
}

// kept notes that the code section i of bank2's file, sym's, was sym's
// kept copy when nvlink met it (the first copy, the chosen one, or one a
// later copy replaced).
func (w *weakCopies) kept(sym *symbol, bank2 *codeBank2, i int) {
	if sym == nil || sym.bind() != cubin.STB_WEAK || !bank2.has(i) {
		return
	}
	if w.keptHas == nil {
		w.keptHas = map[*symbol]bool{}
	}
	w.keptHas[sym] = true
	w.own(sym)
}

// lose notes that the code section i of bank2's file, sym's (its symbol
// idx), is not sym's chosen definition: a weak copy that lost.
func (w *weakCopies) lose(sym *symbol, idx uint32, bank2 *codeBank2, i int) {
	if bank2.file.replacedCopy(idx) {
		if w.keptMet == nil {
			w.keptMet = map[*symbol]int{}
		}
		w.keptMet[sym]++
	} else if bank2.has(i) && sym.file != nil && sym.file.index > bank2.file.index && bank2.file.skippedCopy(idx) {
		// A copy that lost when met, before the chosen one: a later
		// replacement empties the section its constants went to.
		if _, owned := w.bank2Owner[sym.name]; !owned {
			if w.lostOwner == nil {
				w.lostOwner = map[*symbol]bool{}
			}
			w.lostOwner[sym] = true
			w.own(sym)
		}
		if w.keptMet[sym] == 1 {
			if w.lostEarly == nil {
				w.lostEarly = map[*symbol]uint64{}
			}
			w.lostEarly[sym] = max(w.lostEarly[sym], bank2.align(i))
		}
	}
	if bank2.file.replacedCopy(idx) && !bank2.has(i) {
		w.replacedBare = append(w.replacedBare, sym)
	}
	if bank2.file.replacedCopy(idx) && bank2.has(i) {
		if w.replacedBank2 == nil {
			w.replacedBank2 = map[*symbol][]*inputSection{}
		}
		w.replacedBank2[sym] = append(w.replacedBank2[sym], bank2.sections(i)...)
		w.replaced = append(w.replaced, sym)
		if _, ok := w.replacedAlign[sym]; !ok {
			if w.replacedAlign == nil {
				w.replacedAlign = map[*symbol]uint64{}
			}
			w.replacedAlign[sym] = bank2.align(i)
		}
		w.kept(sym, bank2, i)
	}
}

// codeBank2 finds which code sections of a file have bank-2 constants
// (a .nv.constant2.<f> whose sh_info names them), on first use.
type codeBank2 struct {
	file *inputFile
	of   map[uint32]uint64 // code section -> its constants' alignment (at least 1)
}

// sections returns the file's bank-2 sections of code section text.
func (b *codeBank2) sections(text int) []*inputSection {
	var secs []*inputSection
	for _, c := range b.file.sections {
		if isConstant2(c.sec) && c.sec.Info == uint32(text) {
			secs = append(secs, c)
		}
	}
	return secs
}

// has says whether the file's code section text has bank-2 constants.
func (b *codeBank2) has(text int) bool { return b.align(text) > 0 }

// align is the alignment of the bank-2 constants of the file's code
// section text, 0 for none.
func (b *codeBank2) align(text int) uint64 {
	if b.of == nil {
		b.of = map[uint32]uint64{}
		for _, c := range b.file.sections {
			if isConstant2(c.sec) {
				b.of[c.sec.Info] = max(b.of[c.sec.Info], c.sec.Addralign, 1)
			}
		}
	}
	return b.of[uint32(text)]
}

// appendLostConstants adds isec, the bank-2 constants of a weak copy of fn
// that lost, to fn's sections. nvlink skips a weak copy met after the one
// it keeps, but appends the copy's bank-2 constants to the kept one's
// (they sit unused after them in every kernel's bank), and leaves the
// offset in the null symbol's st_value. A weak kernel's (a __global__
// template instantiated in several files) go after its own constants in
// its bank (overlayConstant2), and leave the null symbol alone; when the
// kept kernel copy has none (built with --use_fast_math, the losers
// without), they make its bank, before its callees' constants (11.8,
// 12.4, 12.5: weak-kernel-lost-copy-bank2-kept-none-objects-sm52). A copy met before is emptied away
// when a later one with fewer registers replaces it. When the first copy
// nvlink met had no constants (alone), the losers' constants make a
// .nv.constant2.<f> of the function's own, which no kernel's bank takes
// in, and the null symbol is left alone. A copy with constants that
// replaced such a first copy makes the function's bank as a first copy
// with constants would: the losers met after it append theirs to it.
func appendLostConstants(ctx *linkContext, fn *function, isec *inputSection, alone bool) {
	var end uint64
	for _, c := range fn.sections {
		if isConstant2(c.sec) {
			end = alignTo(end, max(c.sec.Addralign, 1)) + c.sec.Size
		}
	}
	if alone {
		ctx.bank2.lostOnly.add(fn)
	}
	if !ctx.config.Relocatable && !alone && !ctx.isEntry(fn.sym) {
		ctx.null.weakConstants = alignTo(end, max(isec.sec.Addralign, 1))
		ctx.null.lostConstants.add(isec)
	}
	isec.fn = fn
	fn.sections = append(fn.sections, isec)
}

// placeTwins gives each bank-2 contribution that shares a member's bytes
// (bank2Overlay.twins) that member's offset.
func placeTwins(ctx *linkContext) {
	for _, isec := range ctx.bank2.twins {
		if twin := ctx.bank2.twinOf[isec]; twin != nil { // else it landed in another kernel's bank last, as a member
			isec.outOff = twin.outOff
		}
	}
}

// createKernelBanks creates the names of the kernels' bank-2 sections
// (finishNames), and of the scratch section nvlink uses for sharing
// identical constants (foldConstant2), which it never writes.
func (r *nameRegistry) createKernelBanks(ctx *linkContext) {
	shared := false
	for _, osec := range ctx.made {
		if osec.fn != nil && ctx.isEntry(osec.fn.sym) && strings.HasPrefix(osec.name, ".nv.constant2.") {
			r.createSection(ctx, osec.name)
			shared = shared || osec.twinned
		}
	}
	if shared {
		r.createSection(ctx, "TEMP_OCG_CONSTANTS")
	}
}
