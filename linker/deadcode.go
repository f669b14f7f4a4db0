package linker

import (
	"slices"
	"strings"
)

// eliminateDeadCode keeps the functions reachable from the roots and drops
// the rest with all their sections, as nvlink 11.8 does by default.
//
// Roots are the kernels (with -kernels-used, only those whose mangled name
// contains one of its strings) and the functions whose address is taken (a
// device function pointer may be called from anywhere). Variables are always kept.
// The reason each function is kept is recorded in Function.KeptBy, so a
// "why is this live" report can follow the chain back to a root.
func eliminateDeadCode(ctx *Context) {
	var stack []*Function
	for _, fn := range ctx.Funcs {
		if fn.Sym.IsEntry() && ctx.kernelUsed(fn.Sym.Name) || fn.AddrTaken {
			fn.Live = true
			stack = append(stack, fn)
		}
	}
	// Iterative flood: deep or recursive call graphs cannot overflow.
	for len(stack) > 0 {
		fn := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, callee := range fn.Callees {
			if !callee.Live {
				callee.Live = true
				callee.KeptBy = fn
				stack = append(stack, callee)
			}
		}
	}
	ctx.allFuncs = slices.Clone(ctx.Funcs)
	live := ctx.Funcs[:0]
	for _, fn := range ctx.Funcs {
		if fn.Live {
			live = append(live, fn)
		} else {
			fn.Sym.Func = nil
			fn.Sym.deleted = true
		}
	}
	ctx.Funcs = live
}

// kernelUsed applies -kernels-used: a kernel stays a root when no list was
// given or when its mangled name contains one of the strings, as nvlink
// matches them.
func (ctx *Context) kernelUsed(name string) bool {
	if len(ctx.Config.KernelsUsed) == 0 {
		return true
	}
	for _, s := range ctx.Config.KernelsUsed {
		if strings.Contains(name, s) {
			return true
		}
	}
	return false
}
