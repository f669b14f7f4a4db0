package linker

import (
	"fmt"
	"math"
	"slices"

	"github.com/cudalink/cudalink/linker/cubin"
)

// assignBindlessSlots gives every texture and surface reference of the
// link a 4-byte slot in bank 0, as nvlink does for bindless code: the
// slots follow the largest .nv.constant0.<k> of any kernel kept (as a
// kernel or, demoted, as a function; not those removed), so they sit
// at the same offsets in every kernel and a device function reached from
// several kernels reads the right one. Each kernel that uses bindless code
// (see bindlessKernels) gets all the slots, its bank-0 section grows to
// hold them, and .rel.nv.constant0.<k> gets one R_CUDA_TEX_HEADER_INDEX
// (or R_CUDA_SURF_HEADER_INDEX) per slot for the driver to fill in.
// applyRelocations patches the instructions (BINDLESSOFF*, or a bank-0
// CONST_FIELD on sm_90) with the slot offsets; -v reports each such
// kernel's textures and surfaces.
//
// nvlink does this before it removes dead code, for every texture and
// surface symbol of its inputs: one that no code reads, or that only a
// removed function reads, still gets its slot and stays in .symtab; with
// none read at all, no kernel grows but the symbols and slot names stay.
//
// Slot order: nvlink makes one $NVLINKBINDLESSOFF_<name> symbol per
// reference, textures first, then surfaces, each from the last created
// (registerNames' order) to the first, and then puts their relocations,
// whose offsets are all still unset, through a list merge sort (see
// nvlinkListSort): one or two references stay in order, three or more
// are permuted (numbering four textures in creation order, the slots go
// to 1 3 0 2; eight get 5 1 7 3 4 0 6 2).
func assignBindlessSlots(ctx *linkContext) {
	var refs []*symbol
	for _, sym := range ctx.symbols {
		if t := sym.typ(); t == cubin.STT_CUDA_TEXTURE || t == cubin.STT_CUDA_SURFACE {
			refs = append(refs, sym)
		}
	}
	if len(refs) == 0 {
		return
	}
	slices.SortFunc(refs, func(a, b *symbol) int {
		if sa, sb := a.typ() == cubin.STT_CUDA_SURFACE, b.typ() == cubin.STT_CUDA_SURFACE; sa != sb {
			if sa {
				return 1
			}
			return -1
		}
		return int(ctx.names.createdAt(b) - ctx.names.createdAt(a))
	})
	ctx.bindlessRefs = refs
	refs = nvlinkListSort(refs)
	if ctx.keplerSurfaces() {
		// The descriptors go after every texture slot, in the same order.
		slices.SortStableFunc(refs, func(a, b *symbol) int {
			return b2i(a.typ() == cubin.STT_CUDA_SURFACE) - b2i(b.typ() == cubin.STT_CUDA_SURFACE)
		})
	}

	var base uint64
	for _, k := range ctx.funcs {
		// Every kernel kept counts, those -kernels-used (or the host
		// objects' lists) keep only as functions too: libcudadevrt's
		// address-taken memcpy_3d_device kernels keep their bank 0.
		if osec := k.bank0(); osec != nil {
			base = max(base, alignTo(osec.size, 4))
		}
	}
	ctx.bindless = map[*symbol]uint64{}
	end := base
	for _, sym := range refs {
		ctx.bindless[sym] = end
		end += ctx.bindlessSlotSize(sym)
	}
	if end > math.MaxUint32 {
		// The slots' relocations hold 32-bit places (outReloc).
		ctx.report(&linkError{section: ".nv.constant0", msg: fmt.Sprintf("bindless slots end at 0x%x, past 4 GiB", end)})
		return
	}
	ctx.bindlessSlots = map[*function]slotCount{}
	for _, k := range bindlessKernels(ctx) {
		osec := k.bank0()
		if osec == nil {
			continue
		}
		osec.grow(end - osec.byteLen())
		var n slotCount
		for _, sym := range refs {
			typ := cubin.R_CUDA_TEX_HEADER_INDEX
			if sym.typ() == cubin.STT_CUDA_SURFACE {
				typ = cubin.R_CUDA_SURF_HEADER_INDEX
				if ctx.keplerSurfaces() {
					typ = cubin.R_CUDA_SURF_HW_DESC
				}
				n.surfaces++
			} else {
				n.textures++
			}
			osec.keep(ctx, false, outReloc{offset: uint32(ctx.bindless[sym]), typ: typ, sym: sym})
		}
		ctx.bindlessSlots[k] = n
	}
}

// slotCount is how many texture and surface slots a kernel's bank 0 has
// (the -v report gives them).
type slotCount struct{ textures, surfaces int }

// keplerSurfaces says whether a surface reference's slot holds the
// surface's hardware descriptor, as on Kepler (sm_35, sm_37): 32 bytes the
// driver fills in (R_CUDA_SURF_HW_DESC), which the code reads field by
// field (CONST_FIELD19_23 with the field's offset as addend). From Maxwell
// on a surface slot is a 4-byte header index, as a texture's always is.
func (ctx *linkContext) keplerSurfaces() bool { return ctx.config.Arch < 50 }

// bindlessSlotSize is the size of a texture's or surface's slot in bank 0.
func (ctx *linkContext) bindlessSlotSize(sym *symbol) uint64 {
	if sym.typ() == cubin.STT_CUDA_SURFACE && ctx.keplerSurfaces() {
		return 32
	}
	return 4
}

// nvlinkListSort returns refs in the order nvlink's list merge sort
// (nvlinkListSortFunc) leaves them when every key compares equal. For
// 0 1 2 3 this gives 2 0 3 1; the order depends only on the list's length.
func nvlinkListSort(refs []*symbol) []*symbol {
	return nvlinkListSortFunc(refs, func(a, b *symbol) bool { return false })
}

// nvlinkListSortFunc sorts list as nvlink's list merge sort does, which is
// not stable: it deals the list alternately into two lists, each built by
// adding to its front (so each comes out reversed), sorts both the same
// way, then merges them, taking from the first list unless the second's
// element is less. Bindless slots (all keys equal) and the rebuild of bank
// 3 (rebuildConstantBank) come out in its order.
func nvlinkListSortFunc[T any](list []T, less func(a, b T) bool) []T {
	if len(list) <= 1 {
		return list
	}
	// Element i goes to the front of half i%2, so it ends up at position
	// len(half)-1-i/2.
	halves := [2][]T{make([]T, (len(list)+1)/2), make([]T, len(list)/2)}
	for i, e := range list {
		h := halves[i%2]
		h[len(h)-1-i/2] = e
	}
	a, b := nvlinkListSortFunc(halves[0], less), nvlinkListSortFunc(halves[1], less)
	out := make([]T, 0, len(list))
	for len(a) > 0 && len(b) > 0 {
		if less(b[0], a[0]) {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	return append(append(out, a...), b...)
}

// bindlessKernels returns the kernels that get the bindless slots: those
// whose call tree holds a function that reads a texture or surface
// header, and the kernels kept as functions that read one themselves. When exactly one kernel is linked (counting only those
// -kernels-used and the host objects keep), nvlink gives it the slots as
// soon as any function of the inputs reads one, even one that is removed
// as dead code and so is in no kernel's call tree.
func bindlessKernels(ctx *linkContext) []*function {
	users := map[*function]bool{}
	var walk inputWalk // relocations are read from the inputs
	for _, fn := range ctx.allFuncs {
		walk.visit(ctx, fn.text.file)
		for r := range fn.text.relocs() {
			if isBindlessRef(r, fn.text.file.syms[r.Sym]) {
				users[fn] = true
				break
			}
		}
	}
	if len(users) == 0 {
		return nil
	}
	kernels := ctx.kernels()
	if len(kernels) != 1 {
		kernels = slices.DeleteFunc(kernels, func(k *function) bool { return !reachesAny(k, users) })
	}
	// A kernel kept only as a function (-kernels-used with
	// -preserve-relocs) gets them when its own code reads one; what it
	// calls does not count.
	for _, fn := range ctx.funcs {
		if ctx.demoted(fn) && users[fn] {
			kernels = append(kernels, fn)
		}
	}
	return kernels
}

// isBindlessRef says whether a relocation reads a texture or surface
// header slot: a linker-resolved type against a texture or surface.
func isBindlessRef(r cubin.Reloc, sym *symbol) bool {
	if sym == nil || cubin.HowToRelocate(r.Type).Who != cubin.ByLinker {
		return false
	}
	t := sym.typ()
	return t == cubin.STT_CUDA_TEXTURE || t == cubin.STT_CUDA_SURFACE
}

// bank0 returns a kernel's .nv.constant0.<k> output section, nil if it has
// none.
func (fn *function) bank0() *outputSection {
	for _, isec := range fn.sections {
		if isec.sec.Type == cubin.SHT_CUDA_CONSTANT_B0 && isec.out != nil {
			return isec.out
		}
	}
	return nil
}

// reachesAny says whether k's call tree holds one of fns.
func reachesAny(k *function, fns map[*function]bool) bool {
	for _, fn := range callTree(k) {
		if fns[fn] {
			return true
		}
	}
	return false
}
