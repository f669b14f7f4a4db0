package linker

import (
	"bufio"
	"fmt"
	"slices"
	"strings"
)

// dumpCallgraph prints the call graph as nvlink 11.8 does for
// --dump-callgraph (and --dump-callgraph-no-demangle, which 11.8 demangles
// all the same), on standard error, after the stack-size warnings:
//
//	callgraph for sm_80:
//	# A: s -> B // s (number A) potentially calls B
//	...
//	1: ^&k(int *) [24] -> 3 2
//	2:
//	3: vprintf ->
//
// One line per node of nvlink's call graph, numbered as registerNames met
// the function symbols. A kept function shows '^' if it is a kernel, '&'
// if its address is taken, its name as nvlink's demangler spells it, its
// own register count, and the nodes it calls in the order .nv.callgraph
// lists them (indirect calls materialised; removed ones too, which a
// kernel kept without its callees calls). An undefined function whose
// address an input takes shows '&' and its name (kept, as every
// address-taken function is, and called by every indirect call site of
// its prototype); one that kept code calls shows only its name; a
// removed function, one only
// removed code calls and the nameless nodes are blank (" ->" under -g and
// -preserve-relocs, which keep the nameless functions). A function an
// -ewp image copied into a kernel ($kernel$function) follows its kernel,
// named "kernel::function" (12.x: "[clone kernel] function") and with
// nothing more.
//
// Then, for each kept function, input by input and each input's in its
// symbol table order, and each kernel that reaches it (kernels last node
// first), a line when the function's registers raise what the kernel needs
// so far: nvlink's register propagation, told (propagateRegisters), each
// register limit error just before its line. Neither node order nor
// section order: of two functions of one input, the one whose symbol comes
// first is named (Animal::~Animal() [deleting] before Dog's, whose section
// came first, callgraph-dump-propagation-node-order-*; the library slow
// path __internal_accurate_pow before dwave, which calls it and whose node
// comes first, callgraph-dump-propagation-symbol-order-*).
func dumpCallgraph(ctx *linkContext) {
	if !ctx.config.DumpCallgraph && !ctx.config.DumpCallgraphNoDemangle || ctx.config.Stderr == nil {
		return
	}
	w := bufio.NewWriter(ctx.config.Stderr)
	defer w.Flush()
	if len(ctx.files) == 0 {
		// Only host code, whole-program code or images for other
		// architectures: nvlink says so instead.
		fmt.Fprint(w, "No relocatable objects found. Did not generate callgraph.\n")
		return
	}
	fmt.Fprintf(w, "callgraph for sm_%d:\n", ctx.config.Arch)
	fmt.Fprint(w, "# A: s -> B // s (number A) potentially calls B\n"+
		"# s [N]     // s uses N registers\n"+
		"# ^s        // s is entry point\n"+
		"# &s        // s has address taken\n")
	calledLive := map[*symbol]bool{}
	for _, fn := range ctx.funcs {
		for _, c := range fn.edges {
			calledLive[c] = true
		}
		for _, c := range fn.dumpIndirect {
			calledLive[c] = true
		}
	}
	for i, sym := range ctx.names.nodes {
		line := ctx.nodeLine(sym, calledLive)
		if sym != nil && sym.isPlaceholder() && ctx.keepsAll() {
			line = " ->" // -g and -preserve-relocs keep it: an undefined function with no name
		}
		fmt.Fprintf(w, "%d: %s\n", i+1, line)
	}

	// Register propagation, in nvlink's order, with the register limit
	// errors where nvlink gives them.
	propagateRegisters(ctx, func(fn, k *function) {
		fmt.Fprintf(w, "regcount %d for %s propagated to entry %s\n", fn.regs, edgName(fn.sym.name), edgName(k.sym.name))
	}, func() { w.Flush() })
}

// nodeLine is the text after "N: " for one node.
func (ctx *linkContext) nodeLine(sym *symbol, calledLive map[*symbol]bool) string {
	if sym != nil && ctx.clones.has(sym) {
		// A function a -ewp image copied into a kernel's code: its name
		// alone, kernel and function each demangled, whether or not the
		// kernel stays.
		return cloneEDGName(sym.name, ctx.toolkit.cloneBrackets) + " ->"
	}
	fn := ctx.liveFunc(sym)
	if fn == nil {
		if sym != nil && !sym.defined() && ctx.undefAddrTaken.has(sym) {
			return "&" + edgName(sym.name) + " ->"
		}
		if sym != nil && !sym.defined() && calledLive[sym] {
			return edgName(sym.name) + " ->"
		}
		return ""
	}
	var b strings.Builder
	if ctx.isEntry(sym) {
		b.WriteByte('^')
	}
	if fn.addrTaken {
		b.WriteByte('&')
	}
	fmt.Fprintf(&b, "%s [%d] ->", edgName(sym.name), fn.regs)
	// 12.x's nvlink lists the callees of indirect calls as 11.8's does,
	// though it writes none into .nv.callgraph.
	edges := fn.edges
	if len(fn.dumpIndirect) > 0 {
		edges = slices.Concat(fn.edges, fn.dumpIndirect)
	}
	for i := len(edges) - 1; i >= 0; i-- {
		if c := edges[i]; ctx.names.nodeOf(c) != 0 {
			fmt.Fprintf(&b, " %d", ctx.names.nodeOf(c))
		}
	}
	return b.String()
}

// cloneEDGName is nvlink's name for a function an -ewp image copied into a
// kernel, $kernel$function: both demangled, joined by "::"
// ("uses_g(int *)::g(int)"), or with brackets as 12.x writes it
// ("[clone uses_g(int *)] g(int)"). The function's substitutions continue
// the kernel's table, as nvlink's demangler reads them (its S2_ after
// _Z6k_pipePKfPfi is float *: "pipeline<(float *::std::__4::...)10>").
// A part that is no C++ name (ptxas's own __cuda_sm20_sqrt_rn_f32_slowpath)
// leaves the whole name as it is.
func cloneEDGName(name string, brackets bool) string {
	parts := strings.Split(strings.TrimPrefix(name, "$"), "$")
	var table *edgParser
	for i, p := range parts {
		s, after, ok := edgDemangleAfter(p, table)
		if !ok {
			return name
		}
		parts[i], table = s, after
	}
	if brackets && len(parts) == 2 {
		return "[clone " + parts[0] + "] " + parts[1]
	}
	return strings.Join(parts, "::")
}
