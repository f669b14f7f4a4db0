package linker

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/cudalink/cudalink/linker/cubin"
	"github.com/cudalink/cudalink/linker/hostobj"
)

// rebuildConstantBank replays what nvlink 12.4 and 12.5 do when the first
// merge of the __constant__ data (bank 3, .nv.constant3) passes 64 KiB:
// before checking the limit they lay the bank out again, variable by
// variable (input sections no longer count), and write that bank. 11.8
// does not (it merges bank 3 a second time only when it prunes, and
// folds: remergeConstants).
//
// Which variables: every one, unless kernels are pruned (-kernels-used,
// -variables-used, the host objects' lists: remergesConstants); then only
// those something kept uses (bank3Used): the others and their symbols
// leave the output (-preserve-relocs keeps the symbols, at their
// first-merge offsets, with st_other 1), and a bank left with none is not
// written at all.
//
// The order: the variables in the order of the output's symbol table
// (locals, then globals as nvlink created them), sorted by nvlink's list
// merge sort (nvlinkListSort, which is not stable) on the key alignment
// (descending), then size (ascending), where a global's alignment is
// min(size, 8) and a local's (a static variable's, or a weak one's: see
// withLocals) 0, so the locals come last. Each is placed at the next multiple of min(size, 8) (not a power
// of two for sizes 3, 5, 6 and 7: a 7-byte array after 0x6000 bytes goes
// to 0x6001), the bank ends where the last ends, and its alignment is the
// largest min(size, 8) among the globals (5 for one 5-byte array), 1
// without one.
//
// The code's operands, the kept relocations and the symbols name the new
// offsets; the limit, -v's cmem[3] and .nv.ptx.const0.size see the new
// size. Measured with nvlink 12.4 and 12.5 alike (the hunt52 sweep, sm_80,
// cubins and host objects; the cuda12-constant-bank3-rebuild-* corpus
// cases).
//
// Where nvlink crashes, cudalink refuses the link (bank3Refusals): a
// pruned link that keeps a static or weak __constant__ variable (SIGFPE), or that
// drops a variable whose bytes hold a relocation (SIGSEGV).
func rebuildConstantBank(ctx *linkContext) {
	c3 := ctx.outByName.get(".nv.constant3")
	if !ctx.toolkit.rebuildsBank3 || c3 == nil || c3.size <= maxConstantBank3 {
		return
	}
	vars := bank3Variables(ctx, c3)
	pruned := ctx.remergesConstants()
	var used []bool
	if pruned {
		used = bank3Used(ctx, c3, vars)
		if bank3Refusals(ctx, c3, vars, used) {
			return
		}
	}
	rb := &bank3Rebuild{osec: c3, firstMerge: c3.size}
	var kept []*symbol
	for i, sym := range vars {
		if used != nil && !used[i] {
			if ctx.config.PreserveRelocs {
				// nvlink keeps its symbol, at its first-merge offset
				// (past the end or inside the new bank), marked 1.
				rb.unused.add(sym)
			} else {
				ctx.deleted[sym.id] = true
			}
			continue
		}
		kept = append(kept, sym)
	}
	kept = nvlinkListSortFunc(kept, bank3Less)
	offs, size, align := bank3Layout(kept)
	for i, sym := range kept {
		if offs[i] == noOffset {
			// nvlink divides by its size (SIGFPE); no compiler writes
			// an empty __constant__ variable.
			ctx.report(&linkError{file: sym.file.Name, section: c3.name, symbol: sym.name,
				msg: "empty __constant__ variable in a bank 3 rebuilt past 64 KiB (nvlink 12.x crashes on it: SIGFPE)"})
			return
		}
		rb.vars = append(rb.vars, rebuiltVariable{sym: sym, from: ctx.placements[sym.id].value, to: offs[i]})
		ctx.placements[sym.id].value = offs[i]
	}
	rb.size, rb.align = size, align
	ctx.bank3 = rb
}

// bank3Rebuild is 12.x's new layout of bank 3 (rebuildConstantBank): the
// kept variables in their new order, where each was (from, its first-merge
// offset) and goes (to), and the bank's new size and alignment.
type bank3Rebuild struct {
	osec        *outputSection
	vars        []rebuiltVariable
	size, align uint64
	firstMerge  uint64 // the bank's size before the rebuild
	// dropped: no variable is left, and the output has no bank 3
	// (moveRebuiltConstants).
	dropped bool
	// unused are the variables a pruned link leaves out whose symbols
	// -preserve-relocs keeps (st_other 1, first-merge st_value).
	unused symbolSet
}

type rebuiltVariable struct {
	sym      *symbol
	from, to uint64
}

// alignUp rounds off up to a multiple of al, which need not be a power of
// two (nvlink's rebuild of bank 3 aligns a 7-byte array to 7).
func alignUp(off, al uint64) uint64 {
	if r := off % al; r != 0 {
		off += al - r
	}
	return off
}

// bank3Less is the order of the rebuild of bank 3: alignment descending
// (bank3SortAlign), then size ascending.
func bank3Less(a, b *symbol) bool {
	if aa, ba := bank3SortAlign(a), bank3SortAlign(b); aa != ba {
		return aa > ba
	}
	return a.size < b.size
}

// noOffset marks a variable bank3Layout cannot place: an empty one.
const noOffset = ^uint64(0)

// bank3Layout places the sorted variables of a rebuilt bank 3, each at the
// next multiple of min(size, 8), and returns their offsets, the bank's
// size (where the last ends) and its alignment (the largest min(size, 8)
// of the globals, 1 without one).
func bank3Layout(vars []*symbol) (offs []uint64, size, align uint64) {
	offs, align = make([]uint64, len(vars)), 1
	for i, sym := range vars {
		al := min(sym.size, 8)
		if al == 0 {
			offs[i] = noOffset
			continue
		}
		if !withLocals(sym) {
			align = max(align, al)
		}
		size = alignUp(size, al)
		offs[i] = size
		size += sym.size
	}
	return offs, size, align
}

// bank3SortAlign is a variable's alignment as the rebuild of bank 3 sorts
// it: min(size, 8) for a global, 0 for one nvlink lists with the locals
// (whose place is still aligned to min(size, 8)).
func bank3SortAlign(sym *symbol) uint64 {
	if withLocals(sym) {
		return 0
	}
	return min(sym.size, 8)
}

// withLocals says whether nvlink keeps sym in its list of locals: a local
// (a static variable), or a global first seen weak (an inline or template
// variable; see nameRegistry.addSymbol).
func withLocals(sym *symbol) bool {
	return sym.local || sym.firstBind != cubin.STB_GLOBAL
}

// bank3Variables returns the variables defined in bank 3 in the order of
// the output's symbol table (buildSymbolTable): the locals, then the
// globals as nvlink created them.
func bank3Variables(ctx *linkContext, c3 *outputSection) []*symbol {
	in := func(sym *symbol) bool {
		return sym != nil && sym.typ() != cubin.STT_SECTION && sym.defined() && !ctx.isDeleted(sym) && sym.section != nil &&
			ctx.placed(sym).out == c3
	}
	var vars []*symbol
	for _, c := range ctx.names.local {
		if !c.isSection && in(c.sym) {
			vars = append(vars, c.sym)
		}
	}
	for _, sym := range ctx.names.global {
		if in(sym) {
			vars = append(vars, sym)
		}
	}
	for _, sym := range ctx.symbols {
		if ctx.names.createdAt(sym) == 0 && in(sym) {
			vars = append(vars, sym)
		}
	}
	return vars
}

// bank3Used says, for each of vars, whether a pruned link keeps it when
// 12.x rebuilds bank 3: a relocation of a kept function's sections or of
// a kept module-wide section (.nv.global.init; an nvcc -G object's
// .debug_info, which names every variable of its file) names it, or one
// in the bytes of a kept variable of the bank itself (a __constant__
// pointer to another), or -variables-used (a part of its name) or, when
// they decide, the host objects' lists of __constant__ variables (.nvHRCE,
// .nvHRCI) name it.
func bank3Used(ctx *linkContext, c3 *outputSection, vars []*symbol) []bool {
	at := make(map[*symbol]int, len(vars))
	for i, sym := range vars {
		at[sym] = i
	}
	used := make([]bool, len(vars))
	var queue []int
	mark := func(sym *symbol) {
		if i, ok := at[sym]; ok && !used[i] {
			used[i] = true
			queue = append(queue, i)
		}
	}
	markRelocs := func(isec *inputSection) {
		for r := range isec.relocs() {
			if r.Sym != 0 && int(r.Sym) < len(isec.file.syms) {
				mark(isec.file.syms[r.Sym])
			}
		}
	}
	for _, fn := range ctx.funcs {
		markRelocs(fn.text)
		for _, isec := range fn.sections {
			markRelocs(isec)
		}
	}
	for _, file := range ctx.files {
		for _, isec := range file.sections {
			if isec.fn == nil && isec.out != nil && isec.out != c3 {
				markRelocs(isec)
			}
		}
	}
	patterns := ctx.config.VariablesUsed
	var host []string
	if !ctx.usedLists() && ctx.hostKernelRefs() != nil {
		for _, u := range ctx.linkUnits() {
			if h := u.host; h != nil {
				host = append(host, h.refs[hostobj.ConstantExtern]...)
				host = append(host, h.refs[hostobj.ConstantIntern]...)
			}
		}
	}
	for _, sym := range vars {
		for _, p := range patterns {
			if strings.Contains(sym.name, p) {
				mark(sym)
			}
		}
		for _, p := range host {
			if globMatch(p, sym.name) {
				mark(sym)
			}
		}
	}
	// A kept variable keeps what the relocations in its bytes name.
	for len(queue) > 0 {
		sym := vars[queue[0]]
		queue = queue[1:]
		isec := sym.section
		start := ctx.placed(sym).value - isec.outOff
		for r := range isec.relocs() {
			if off := uint64(r.Offset); off >= start && off < start+sym.size && r.Sym != 0 && int(r.Sym) < len(isec.file.syms) {
				mark(isec.file.syms[r.Sym])
			}
		}
	}
	return used
}

// bank3LocalKind says why nvlink lists sym with the locals (withLocals).
func bank3LocalKind(sym *symbol) string {
	if sym.local {
		return "static"
	}
	return "weak (inline or template)"
}

// bank3Refusals reports the pruned links whose rebuild of bank 3 nvlink
// 12.4 and 12.5 crash on, and says whether there was one: a kept static
// (local) variable (SIGFPE, exit status 136), and a dropped variable whose
// bytes a relocation patches, a __constant__ pointer nothing kept reads
// (SIGSEGV, 139).
func bank3Refusals(ctx *linkContext, c3 *outputSection, vars []*symbol, used []bool) bool {
	refused := false
	for i, sym := range vars {
		if used[i] && withLocals(sym) {
			ctx.report(&linkError{file: sym.file.Name, section: sym.section.name(), symbol: sym.name,
				msg: fmt.Sprintf("%s __constant__ variable kept in a bank 3 that nvlink 12.x rebuilds past 64 KiB (0x%x bytes) for pruned kernels, which it cannot do (nvlink crashes: SIGFPE)", bank3LocalKind(sym), c3.size)})
			refused = true
		}
		if used[i] {
			continue
		}
		isec := sym.section
		start := ctx.placed(sym).value - isec.outOff
		for r := range isec.relocs() {
			if off := uint64(r.Offset); off >= start && off < start+sym.size {
				ctx.report(&linkError{file: sym.file.Name, section: isec.name(), symbol: sym.name,
					msg: fmt.Sprintf("__constant__ variable that holds an address and that no kept code uses, left out of a bank 3 that nvlink 12.x rebuilds past 64 KiB (0x%x bytes) for pruned kernels, which it cannot do (nvlink crashes: SIGSEGV)", c3.size)})
				refused = true
				break
			}
		}
	}
	return refused
}

// moveRebuiltConstants gives bank 3 the layout rebuildConstantBank chose,
// after relocation, so that each variable carries its relocated bytes to
// its new place; the relocations kept in the bank move with them. A bank
// left with no variable is not written.
func moveRebuiltConstants(ctx *linkContext) {
	rb := ctx.bank3
	if rb == nil {
		return
	}
	c3 := rb.osec
	c3.addralign = rb.align
	if len(rb.vars) == 0 {
		c3.setBytes(nil)
		c3.members = nil
		rb.dropped = true
		return
	}
	if c3.hasBytes() {
		old := c3.ownBytes()
		data := make([]byte, rb.size)
		for _, v := range rb.vars {
			if v.from+v.sym.size <= uint64(len(old)) {
				copy(data[v.to:], old[v.from:v.from+v.sym.size])
			}
		}
		c3.setBytes(data)
	} else {
		c3.size = rb.size
	}
	// The variables by first-merge offset, to find the one a kept
	// relocation patches (they do not overlap).
	byFrom := slices.SortedFunc(slices.Values(rb.vars), func(a, b rebuiltVariable) int { return cmp.Compare(a.from, b.from) })
	for _, osec := range ctx.made {
		if osec.rel == nil || osec.rel.target != c3 {
			continue
		}
		for i, r := range osec.rel.relocs {
			off := uint64(r.offset)
			// The last variable that starts at or before off.
			j := sort.Search(len(byFrom), func(k int) bool { return byFrom[k].from > off }) - 1
			if j >= 0 && off < byFrom[j].from+byFrom[j].sym.size {
				v := byFrom[j]
				osec.rel.relocs[i].offset = uint32(off - v.from + v.to)
			}
		}
	}
}

// unusedConstant says whether sym is a variable the rebuild of bank 3 left
// out whose symbol -preserve-relocs keeps: nvlink writes st_other 1.
func (ctx *linkContext) unusedConstant(sym *symbol) bool {
	return ctx.bank3 != nil && ctx.bank3.unused.has(sym)
}

// bank3Dropped says whether osec is a bank 3 whose rebuild kept no
// variable: nvlink writes no such section, nor its section symbol.
func (ctx *linkContext) bank3Dropped(osec *outputSection) bool {
	return ctx.bank3 != nil && ctx.bank3.dropped && ctx.bank3.osec == osec
}
