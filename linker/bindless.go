package linker

import (
	"sort"

	"github.com/cudalink/cudalink/linker/cubin"
)

// assignBindlessSlots gives every texture and surface reference that live
// code reaches through a bindless relocation (BINDLESSOFF*, or a bank-0
// CONST_FIELD on sm_90) a 4-byte slot in bank 0, as nvlink does: the
// slots follow the largest .nv.constant0.<k> of any kernel, so they sit
// at the same offsets in every kernel and a device function reached from
// several kernels reads the right one. Each kernel that reaches such code
// gets all the slots, its bank-0 section grows to hold them, and
// .rel.nv.constant0.<k> gets one R_CUDA_TEX_HEADER_INDEX (or
// R_CUDA_SURF_HEADER_INDEX) per slot for the driver to fill in.
// applyRelocations patches the instructions with the slot offsets; -v
// reports each such kernel's textures and surfaces.
//
// Slot order: first reference first, taking functions from the last in
// output order to the first and each one's relocations in file order.
// That is nvlink's order for one or two references; nvlink orders three
// or more by a rule not reproduced here (a permutation that depends only
// on their number and first-use order, e.g. 1 3 0 2 for four, 5 1 7 3 4
// 0 6 2 for eight), so their slots may differ from nvlink's.
func assignBindlessSlots(ctx *Context) {
	// nvlink takes the references functions last to first, each
	// function's relocations in file order.
	var refs []*Symbol
	seen := map[*Symbol]bool{}
	users := map[*Function]bool{}
	for i := len(ctx.Funcs) - 1; i >= 0; i-- {
		fn := ctx.Funcs[i]
		for _, r := range fn.Text.Relocs {
			sym := fn.Text.File.Syms[r.Sym]
			if !isBindlessRef(r, sym) {
				continue
			}
			users[fn] = true
			if !seen[sym] {
				seen[sym] = true
				refs = append(refs, sym)
			}
		}
	}
	if len(refs) == 0 {
		return
	}

	var base uint64
	for _, k := range ctx.Funcs {
		if osec := k.bank0(); k.Sym.IsEntry() && osec != nil {
			base = max(base, alignTo(osec.Size, 4))
		}
	}
	ctx.bindless = map[*Symbol]uint64{}
	for i, sym := range refs {
		ctx.bindless[sym] = base + 4*uint64(i)
		sym.referencedLive = true
	}
	end := base + 4*uint64(len(refs))
	for _, k := range ctx.Funcs {
		osec := k.bank0()
		if !k.Sym.IsEntry() || osec == nil || !reachesAny(k, users) {
			continue
		}
		data := osec.contents() // the input bytes are shared; grow a copy
		osec.Data = append(data[:len(data):len(data)], make([]byte, end-uint64(len(data)))...)
		osec.Size = end
		for _, sym := range refs {
			typ := cubin.R_CUDA_TEX_HEADER_INDEX
			if sym.Type() == cubin.STT_CUDA_SURFACE {
				typ = cubin.R_CUDA_SURF_HEADER_INDEX
				k.surfaces++
			} else {
				k.textures++
			}
			osec.keep(ctx, false, outReloc{Offset: ctx.bindless[sym], Type: typ, Sym: sym})
		}
	}
}

// isBindlessRef says whether a relocation reads a texture or surface
// header slot: a linker-resolved type against a texture or surface.
func isBindlessRef(r cubin.Reloc, sym *Symbol) bool {
	if sym == nil || cubin.HowToRelocate(r.Type).Who != cubin.ByLinker {
		return false
	}
	t := sym.Type()
	return t == cubin.STT_CUDA_TEXTURE || t == cubin.STT_CUDA_SURFACE
}

// bank0 returns a kernel's .nv.constant0.<k> output section, nil if it has
// none.
func (fn *Function) bank0() *OutputSection {
	for _, isec := range fn.Sections {
		if isec.Sec.Type == cubin.SHT_CUDA_CONSTANT_B0 && isec.Out != nil {
			return isec.Out
		}
	}
	return nil
}

// reachesAny says whether k's call tree holds one of fns.
func reachesAny(k *Function, fns map[*Function]bool) bool {
	for _, fn := range callTree(k) {
		if fns[fn] {
			return true
		}
	}
	return false
}

// bindlessOrder returns the texture and surface references in slot order.
func (ctx *Context) bindlessOrder() []*Symbol {
	refs := make([]*Symbol, 0, len(ctx.bindless))
	for sym := range ctx.bindless {
		refs = append(refs, sym)
	}
	sort.Slice(refs, func(a, b int) bool { return ctx.bindless[refs[a]] < ctx.bindless[refs[b]] })
	return refs
}
