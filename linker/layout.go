package linker

import (
	"sort"

	"github.com/cudalink/cudalink/linker/cubin"
)

// layoutSections fixes the offset of every contribution in its output
// section, the sections' sizes and alignments, and the final value of every
// defined symbol. Merged sections take their inputs in command-line order,
// each at its own alignment; shared memory is laid out per kernel.
func layoutSections(ctx *Context) {
	for _, osec := range ctx.OutSections {
		var size uint64
		for _, isec := range osec.Members {
			align := max(isec.Sec.Addralign, 1)
			size = alignTo(size, align)
			isec.OutOff = size
			size += isec.Sec.Size
			osec.Addralign = max(osec.Addralign, align)
		}
		osec.Size = size
		if cubin.HasFileData(osec.Type) {
			osec.Data = make([]byte, size)
			for _, isec := range osec.Members {
				copy(osec.Data[isec.OutOff:], isec.Sec.Data)
			}
		}
	}
	for _, file := range ctx.Files {
		for _, sym := range file.Syms {
			if sym != nil && sym.File == file && sym.Section != nil && sym.Section.Out != nil &&
				sym.Type() != cubin.STT_SECTION && !sym.laidOut {
				sym.Value += sym.Section.OutOff
				sym.laidOut = true
			}
		}
	}
	layoutShared(ctx)
}

// sharedReserve90 is the shared memory sm_90 reserves in every kernel.
const sharedReserve90 = 0x400

func alignTo(v, a uint64) uint64 {
	if a <= 1 {
		return v
	}
	return (v + a - 1) / a * a
}

// sharedObject is one variable in shared memory.
type sharedObject struct {
	sym   *Symbol
	align uint64
}

// layoutShared lays out shared memory as nvlink does. Variables of
// non-kernel functions (.nv_debug.shared in the inputs) each get one
// module-wide offset. Each kernel's own variables go after the highest end
// among the function-level variables its call tree uses, by decreasing
// alignment; dynamic (extern __shared__) memory starts after that, aligned
// to 16.
func layoutShared(ctx *Context) {
	// Function-level objects (in the inputs' .nv_debug.shared), with their
	// alignment (st_value) and size.
	type object struct {
		sym         *Symbol
		file, index int
		align, size uint64
	}
	objects := map[*Symbol]*object{}
	var moduleAlign uint64
	for fi, file := range ctx.Files {
		for i, isec := range file.Sections {
			if classify(isec.Sec) != classShared {
				continue
			}
			for j, esym := range file.ELF.Symbols {
				if int(esym.Shndx) != i || esym.Type() == cubin.STT_SECTION {
					continue
				}
				o := &object{sym: file.Syms[j], file: fi, index: j, align: max(esym.Value, 1), size: esym.Size}
				objects[o.sym] = o
				moduleAlign = max(moduleAlign, o.align)
			}
		}
	}
	uses := map[*Function][]*Symbol{} // shared objects a function's code references
	for _, fn := range ctx.Funcs {
		for _, isec := range append([]*InputSection{fn.Text}, fn.Sections...) {
			for _, r := range isec.Relocs {
				sym := isec.File.Syms[r.Sym]
				if sym != nil && sym.Other&cubin.STO_CUDA_SPACE_MASK == cubin.STO_CUDA_SHARED {
					uses[fn] = appendSymOnce(uses[fn], sym)
				}
			}
		}
	}
	// Function-level objects overlay one another across kernels: each
	// object gets one offset for every kernel that reaches it, but objects
	// no kernel reaches together may share offsets. Kernels are taken file
	// by file, last file first (in file order within a file); each places
	// the objects it reaches that are not placed yet
	// (later files first, then in symbol order) after the highest end of
	// those already placed that it reaches. So a kernel reaching only its
	// own file's object gets it at 0 (nvlink gives 400 such kernels 0x80
	// each), and kernels sharing a call chain share one layout.
	placed := map[*Symbol]bool{}
	for _, k := range overlayOrder(ctx.Funcs) {
		var cursor uint64
		var fresh []*object
		for _, fn := range callTree(k) {
			for _, sym := range uses[fn] {
				o := objects[sym]
				switch {
				case o == nil:
				case placed[sym]:
					cursor = max(cursor, sym.sharedEnd)
				default:
					placed[sym] = true
					fresh = append(fresh, o)
				}
			}
		}
		sort.SliceStable(fresh, func(a, b int) bool {
			if fresh[a].file != fresh[b].file {
				return fresh[a].file > fresh[b].file
			}
			return fresh[a].index < fresh[b].index
		})
		for _, o := range fresh {
			cursor = alignTo(cursor, o.align)
			o.sym.Value, o.sym.laidOut = cursor, true
			o.sym.sharedEnd = cursor + o.size
			cursor += o.size
		}
	}
	for _, k := range ctx.Funcs {
		if !k.Sym.IsEntry() {
			continue
		}
		var start uint64
		align := uint64(0)
		dynamic, fromFuncs := false, false
		tree := callTree(k)
		for _, fn := range tree {
			for _, sym := range uses[fn] {
				if !sym.Defined() {
					dynamic = true
				} else if objects[sym] != nil {
					start = max(start, sym.sharedEnd)
					fromFuncs = true
				}
			}
		}
		var own *InputSection
		for _, isec := range k.Sections {
			if isec.Sec.Type == cubin.SHT_CUDA_SHARED {
				own = isec
			}
		}
		if fromFuncs {
			align = max(align, moduleAlign)
		}
		end := start
		if own != nil {
			var objs []sharedObject
			file := own.File
			for j, esym := range file.ELF.Symbols {
				if int(esym.Shndx) == own.Sec.Index && esym.Type() != cubin.STT_SECTION {
					objs = append(objs, sharedObject{file.Syms[j], max(esym.Value, 1)})
				}
			}
			sort.SliceStable(objs, func(a, b int) bool { return objs[a].align > objs[b].align })
			for _, o := range objs {
				end = alignTo(end, o.align)
				o.sym.Value = end
				o.sym.laidOut = true
				end += o.sym.Size
			}
			align = max(align, own.Sec.Addralign, 1)
		}
		if dynamic {
			end = alignTo(end, 16)
			align = 16
		}
		k.sharedSize, k.dynOffset, k.usesDynamic = end, end, dynamic
		if own == nil && end == 0 && !dynamic {
			continue
		}
		if own == nil {
			osec := ctx.outSection(".nv.shared."+k.Sym.Name, cubin.SHT_NOBITS, cubin.SHF_WRITE|cubin.SHF_ALLOC)
			osec.Func = k
			osec.synthetic = !fromFuncs // nvlink gives it a section symbol only then
			own = &InputSection{File: k.Text.File, Sec: &cubin.Section{Name: osec.Name, Info: uint32(k.Text.Sec.Index)}, Out: osec, Func: k}
		}
		if ctx.Config.Arch >= 90 {
			end += sharedReserve90
			k.sharedSize = end
		}
		own.Out.Size = end
		own.Out.Addralign = max(align, 1)
	}
	if anyDynamic(ctx) {
		// nvlink writes an empty .nv_debug.shared when dynamic shared memory is used.
		osec := ctx.outSection(".nv_debug.shared", cubin.SHT_NOBITS, cubin.SHF_WRITE|cubin.SHF_ALLOC)
		osec.Addralign = 16
		osec.synthetic = true // nvlink gives it no section symbol
	}
}

// anyDynamic says whether an input declares extern __shared__ memory;
// nvlink then writes an empty .nv_debug.shared, even when no kernel that
// uses it survives.
func anyDynamic(ctx *Context) bool {
	for _, sym := range ctx.Symbols {
		if !sym.Defined() && sym.space() == cubin.STO_CUDA_SHARED {
			return true
		}
	}
	return false
}

// overlayOrder returns the kernels in the order layoutShared places their
// function-level objects: the last input file's kernels first, each file's
// in their order.
func overlayOrder(funcs []*Function) []*Function {
	var kernels []*Function
	for _, fn := range funcs {
		if fn.Sym.IsEntry() {
			kernels = append(kernels, fn)
		}
	}
	sort.SliceStable(kernels, func(a, b int) bool {
		return kernels[a].Text.File.Index > kernels[b].Text.File.Index
	})
	return kernels
}

// callTree returns fn and every function it reaches, in a fixed order.
func callTree(fn *Function) []*Function {
	seen := map[*Function]bool{fn: true}
	list := []*Function{fn}
	for i := 0; i < len(list); i++ {
		for _, c := range list[i].Callees {
			if !seen[c] {
				seen[c] = true
				list = append(list, c)
			}
		}
	}
	return list
}
