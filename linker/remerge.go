package linker

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/cudalink/cudalink/linker/cubin"
)

// remergeConstants replays nvlink's second merge of the __constant__ data
// (bank 3, .nv.constant3), which it makes when it prunes kernels or
// variables (remergesConstants; its scratch section is
// TEMP_MERGED_CONSTANTS, see finishNames). The first merge placed every
// input's contribution after the previous one, at its own alignment: the
// symbols, the code's c[0x3][...] operands and the kept relocations of the
// constants keep those offsets. The second merge takes the contributions
// again in the same order and folds some of them onto an earlier one
// (remergeFolds); nvlink writes the bank that merge makes, shorter by what
// it folded, every contribution after a folded one moved down, while
// nothing that refers into the bank moves. It runs after relocation, so
// each contribution carries its relocated bytes to its new place.
//
// It also leaves the offset at which the second merge placed the last
// contribution it counts (remergeKindOf) and did not fold in the null
// symbol's st_value; when it counts none, the null symbol keeps what the
// weak copies' bank-2 constants left there (nullSymbol), 0 without them.
//
// Measured with nvlink 11.8, 12.4 and 12.5 alike, sm_52 to sm_90,
// -kernels-used and the host objects' reference lists alike, one
// contribution per input (sizes 1 to 260 bytes at alignments 1, 4, 8 and
// 16, initialised or not, one variable or several): the
// constant-remerge-* corpus cases.
func remergeConstants(ctx *linkContext) {
	c3 := ctx.outByName.get(".nv.constant3")
	if !ctx.remergesConstants() || c3 == nil || len(c3.members) == 0 || ctx.bank3 != nil {
		return // no second merge, or 12.x rebuilt the bank instead (rebuildConstantBank)
	}
	var walk inputWalk // the folds compare the inputs' bytes
	offs, folded, size, last, counted := remergeLayout(ctx, &walk, c3)
	ctx.null.lastConstant, ctx.null.remerged, ctx.null.counted = last, true, counted
	checkRelocsPastBank(ctx, c3, size)
	moved := size != c3.size
	for i, isec := range c3.members {
		moved = moved || folded[i] || offs[i] != isec.outOff
	}
	if !moved || !c3.hasBytes() {
		return
	}
	old := c3.ownBytes()
	data := make([]byte, size)
	for i, isec := range c3.members {
		if folded[i] || isec.outOff+isec.sec.Size > uint64(len(old)) {
			continue // folded, or bytes the section does not hold
		}
		copy(data[offs[i]:], old[isec.outOff:isec.outOff+isec.sec.Size])
	}
	c3.setBytes(data)
}

// checkRelocsPastBank refuses what nvlink 11.8, 12.4 and 12.5 stop on with
// "Internal error: relocation is past end of offset" (exit status 1): a
// relocation kept for the driver in bank 3 (an address in a __constant__
// table) keeps its first-merge offset, and the second merge left the bank
// no longer than that offset (the hunt60 sweep's s321, 12.5: inline
// __constant__ copies folded ahead of a table of function pointers).
// nvlink compares the offset alone: a relocation whose 8 bytes run past
// the end but whose offset is inside the bank links (a bank of 0x21 bytes,
// a relocation at 0x20). The relocation of lowest offset past the end is
// reported, with the input and the variable that hold it.
func checkRelocsPastBank(ctx *linkContext, c3 *outputSection, size uint64) {
	if c3.ext == nil {
		return
	}
	var past *outReloc
	for _, rs := range []*outputSection{c3.ext.relOut, c3.ext.relaOut} {
		if rs == nil || rs.rel == nil {
			continue
		}
		for i, r := range rs.rel.relocs {
			if uint64(r.offset) >= size && (past == nil || r.offset < past.offset) {
				past = &rs.rel.relocs[i]
			}
		}
	}
	if past == nil {
		return
	}
	off := uint64(past.offset)
	e := &linkError{section: c3.name}
	for _, isec := range c3.members {
		if off < isec.outOff || off >= isec.outOff+isec.sec.Size {
			continue
		}
		e.file, e.section = isec.file.nvlinkName(), isec.name()
		for _, sym := range isec.file.syms {
			if sym != nil && sym.section == isec && sym.typ() != cubin.STT_SECTION && sym.defined() {
				if v := ctx.placed(sym).value; v <= off && off < v+max(sym.size, 1) {
					e.symbol = sym.name
					break
				}
			}
		}
		break
	}
	target := "no symbol"
	if past.sym != nil {
		target = displayName(past.sym.name)
	}
	e.msg = fmt.Sprintf("relocation kept for the driver past the end of the __constant__ bank that nvlink's second merge makes for pruned kernels (%s against %s at 0x%x, the bank 0x%x bytes long; nvlink: Internal error: relocation is past end of offset)", past.typ, target, off, size)
	ctx.report(e)
}

// constantBankSize is the size of bank 3 (c3) as nvlink measures it for
// its limit ("File uses too much global constant data") and the -v
// report: after the second merge when it makes one, though that merge
// (remergeConstants) runs after relocation here. nvlink 11.8, 12.4 and
// 12.5 alike: 0x10010 bytes of inputs of which the second merge folds
// 16 link with -kernels-used, and 0x10030 of which it folds 16 are
// reported as 0x10020 (the hunt50 sweep).
func (ctx *linkContext) constantBankSize(c3 *outputSection) uint64 {
	if ctx.bank3 != nil {
		return ctx.bank3.size // 12.x's rebuild past 64 KiB (rebuildConstantBank)
	}
	if ctx.null.remerged || !ctx.remergesConstants() || len(c3.members) == 0 {
		return c3.size
	}
	var walk inputWalk
	_, _, size, _, _ := remergeLayout(ctx, &walk, c3)
	return size
}

// remergeLayout is the second merge's layout of bank 3: where each member
// lands, which members it folds onto an earlier one (their offsets mean
// nothing), the bank's new size, and what the merge leaves in the null
// symbol: last, when it counted a member (counted).
func remergeLayout(ctx *linkContext, walk *inputWalk, c3 *outputSection) (offs []uint64, folded []bool, size, last uint64, counted bool) {
	offs, folded = make([]uint64, len(c3.members)), make([]bool, len(c3.members))
	var placed []int // members laid out and counted, which later ones may fold onto
	for i, isec := range c3.members {
		walk.visit(ctx, isec.file)
		kind := remergeKindOf(isec)
		if kind != remergeAppended {
			for _, j := range placed {
				if remergeFolds(kind, c3.members[j], isec) {
					folded[i] = true
					break
				}
			}
		}
		if folded[i] {
			continue
		}
		size = alignTo(size, max(isec.sec.Addralign, 1))
		offs[i] = size
		size += isec.sec.Size
		if kind != remergeAppended {
			placed = append(placed, i)
			last = offs[i]
		}
	}
	return offs, folded, size, last, len(placed) > 0
}

// remergeKind is how nvlink's second merge of bank 3 treats an input's
// contribution, by its size and alignment alone (whatever variables it
// holds):
//
//	size (bytes)                   alignment  kind      folded onto an earlier one     sets the null symbol
//	4                              4          scalar    of equal bytes, unless all 0   yes
//	8                              8          scalar    of equal bytes, unless all 0   yes
//	12, 16, 20, 24, 32, 48, 64     any        block     of equal bytes and alignment   yes
//	any other                      any        appended  never                          no
//
// So 4 bytes at alignment 1 or 2 (char[4], short[2]), 8 at alignment 4
// (int[2]), and 28, 36, 40, 44, 56, 80, 96 or 128 bytes are appended. No
// contribution folds onto part of another, nor a scalar onto a block.
type remergeKind uint8

const (
	remergeAppended remergeKind = iota
	remergeScalar
	remergeBlock
)

// remergeKindOf classifies isec's contribution (see remergeKind).
func remergeKindOf(isec *inputSection) remergeKind {
	switch size, align := isec.sec.Size, isec.sec.Addralign; size {
	case 4, 8:
		if align == size {
			return remergeScalar
		}
	case 12, 16, 20, 24, 32, 48, 64:
		return remergeBlock
	}
	return remergeAppended
}

// remergeFolds says whether the second merge folds isec (of kind kind)
// onto the earlier member prev: same kind, size, alignment and bytes (as
// the inputs hold them, before relocation), and for a scalar not all
// zeros (nvlink never folds a zero scalar).
func remergeFolds(kind remergeKind, prev, isec *inputSection) bool {
	if remergeKindOf(prev) != kind || prev.sec.Size != isec.sec.Size || prev.sec.Addralign != isec.sec.Addralign {
		return false
	}
	a, b := sectionBytesPadded(prev), sectionBytesPadded(isec)
	if !bytes.Equal(a, b) {
		return false
	}
	return kind != remergeScalar || slices.ContainsFunc(a, func(c byte) bool { return c != 0 })
}

// sectionBytesPadded is isec's bytes, zeros after what the input holds up
// to its size (a section holds no more than 64 bytes when it is compared).
func sectionBytesPadded(isec *inputSection) []byte {
	d := isec.sec.Data
	if uint64(len(d)) >= isec.sec.Size {
		return d[:isec.sec.Size]
	}
	return append(append([]byte(nil), d...), make([]byte, isec.sec.Size-uint64(len(d)))...)
}
