package linker

import (
	"fmt"
	"io"
)

// stackUnknown is the MIN_STACK_SIZE of a kernel whose call graph recurses.
const stackUnknown = 0xffffffff

// computeResources propagates resource use through the call graph: a
// kernel's register and barrier counts become the maximum over everything
// it calls, and its minimum stack is its own frame plus the deepest chain of
// callee frames. Recursion makes the stack size unknown, with nvlink's
// warning.
func computeResources(ctx *Context) {
	for _, fn := range ctx.Funcs {
		fn.ownRegs = fn.Regs
	}
	for _, k := range ctx.Funcs {
		if !k.Sym.IsEntry() {
			continue
		}
		for _, fn := range callTree(k) {
			k.Regs = max(k.Regs, fn.Regs)
			k.Barriers = max(k.Barriers, fn.Barriers)
		}
		depth, recursive := deepestChain(k, func(fn *Function) uint32 { return fn.FrameSize })
		k.crsChain, _ = deepestChain(k, func(fn *Function) uint32 { return fn.CRSStack })
		if recursive {
			k.MinStack = stackUnknown
			k.Recursive = true
			ctx.warnf("Stack size for entry function '%s' cannot be statically determined", k.Sym.Name)
		} else {
			k.MinStack = depth
		}
	}
}

// deepestChain returns the largest sum of weight along any call chain from
// root, and whether some chain is recursive. It walks iteratively with
// memoisation, so deep call graphs cannot overflow the goroutine stack.
func deepestChain(root *Function, weight func(*Function) uint32) (uint32, bool) {
	const (
		unvisited = iota
		onPath
		done
	)
	state := map[*Function]int{}
	best := map[*Function]uint32{}
	recursive := false
	type frame struct {
		fn   *Function
		next int
	}
	stack := []frame{{root, 0}}
	state[root] = onPath
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next < len(top.fn.Callees) {
			c := top.fn.Callees[top.next]
			top.next++
			switch state[c] {
			case onPath:
				recursive = true
			case unvisited:
				state[c] = onPath
				stack = append(stack, frame{c, 0})
			}
			continue
		}
		var deepest uint32
		for _, c := range top.fn.Callees {
			if state[c] == done {
				deepest = max(deepest, best[c])
			}
		}
		best[top.fn] = weight(top.fn) + deepest
		state[top.fn] = done
		stack = stack[:len(stack)-1]
	}
	return best[root], recursive
}

// reportResources prints nvlink's -v lines: global and constant memory of
// the module, then per function its registers, stack and memory.
func reportResources(ctx *Context) {
	if !ctx.Config.Verbose || ctx.Config.Stdout == nil {
		return
	}
	w := ctx.Config.Stdout
	var gmem, cmem3 uint64
	for _, osec := range ctx.OutSections {
		switch osec.Name {
		case ".nv.global", ".nv.global.init":
			gmem += osec.Size
		case ".nv.constant3":
			cmem3 = osec.Size
		}
	}
	line := fmt.Sprintf("info    : %d bytes gmem", gmem)
	if cmem3 > 0 {
		line += fmt.Sprintf(", %d bytes cmem[3]", cmem3)
	}
	fmt.Fprintln(w, line)
	for _, fn := range ctx.Funcs {
		reportFunction(w, ctx, fn)
	}
}

func reportFunction(w io.Writer, ctx *Context, fn *Function) {
	fmt.Fprintf(w, "info    : Function properties for '%s':\n", fn.Sym.Name)
	var smem, cmem0, cmem2 uint64
	for _, isec := range fn.Sections {
		if isec.Out == nil {
			continue
		}
		switch {
		case isec.Sec.Name == ".nv.shared."+fn.Sym.Name:
			smem = isec.Out.Size
		case isec.Sec.Name == ".nv.constant0."+fn.Sym.Name:
			cmem0 = isec.Out.Size
		case isec.Sec.Name == ".nv.constant2."+fn.Sym.Name:
			cmem2 = isec.Out.Size
		}
	}
	if fn.Sym.IsEntry() {
		smem = fn.sharedSize
	}
	stack := uint64(fn.FrameSize)
	if fn.Sym.IsEntry() {
		stack = uint64(fn.MinStack)
	}
	line := fmt.Sprintf("info    : used %d registers, %d stack, %d bytes smem, %d bytes cmem[0], ", fn.Regs, stack, smem, cmem0)
	if cmem2 > 0 {
		line += fmt.Sprintf("%d bytes cmem[2], ", cmem2)
	}
	line += "0 bytes lmem"
	fmt.Fprintln(w, line)
}
