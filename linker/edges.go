package linker

import (
	"cmp"
	"slices"
)

// buildCallEdges writes each function's call graph edges (function.edges,
// its one writer): the callees the inputs' call graphs record, defined or
// not, and on 11.8 (toolkit.indirectEdges) those materialised from
// indirect call sites, input by input in the order the records come; on
// 12.x, those go to function.dumpIndirect, in the same order.
// nvlink does not merge an edge with an equal one: a weak copy a later
// one replaced leaves its calls, and the later copy's calls of the same
// functions come again; a materialised edge joins a direct one, or one
// from another site.
//
// It runs once registerNames has replayed nvlink's symbol creation order:
// the edges one indirect call site materialises, to every address-taken
// function of its prototype (linkContext.addrTakenByProto), come in the
// order nvlink created those functions' symbols, not in the order the
// inputs list them (a function another file calls before the one taking
// its address comes earlier).
func buildCallEdges(ctx *linkContext) {
	// Every function's edges in one array, each at its own capacity
	// (edgeCounts): appending never grows one into the next.
	total := 0
	for _, n := range ctx.edgeCounts {
		total += int(n)
	}
	all := make([]*symbol, total)
	for i, fn := range ctx.allFuncs {
		if n := int(ctx.edgeCounts[i]); n > 0 {
			fn.edges, all = all[:0:n], all[n:]
		}
	}
	for _, file := range ctx.files {
		for _, c := range file.calls {
			caller := ctx.funcIn(file.syms[c[0]], file)
			if caller == nil {
				caller, _ = ctx.replacedCaller(file, c[0])
			}
			if caller != nil {
				caller.edges = append(caller.edges, file.syms[c[1]])
			}
		}
		// Each caller's last site first, as buildFunctions links them;
		// 12.x writes none of these edges, but --dump-callgraph lists
		// them in the same order (function.dumpIndirect).
		for i := len(file.indirect) - 1; i >= 0; i-- {
			site := file.indirect[i]
			caller := ctx.funcIn(file.syms[site[0]], file)
			if caller == nil {
				continue
			}
			list := &caller.edges
			if !ctx.toolkit.indirectEdges {
				list = &caller.dumpIndirect
			}
			start := len(*list)
			for _, fn := range ctx.addrTakenByProto[file.protoStrings[site[1]]] {
				*list = append(*list, fn.sym)
			}
			*list = append(*list, ctx.undefAddrTakenByProto[file.protoStrings[site[1]]]...)
			if len(*list)-start > 1 {
				slices.SortStableFunc((*list)[start:], func(x, y *symbol) int {
					return cmp.Compare(ctx.names.createdAt(x), ctx.names.createdAt(y))
				})
			}
		}
	}
}
