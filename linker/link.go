package linker

// Link runs the whole device link. Each pass is in its own file, named for
// what it does. At each checkpoint the link stops if errors were reported,
// so one run reports every problem of a kind but never builds on a broken
// state.
func Link(ctx *Context) error {
	loadInputs(ctx) // parse every input in parallel, then check architectures
	if ctx.checkpoint() {
		return ErrFailed
	}
	resolveSymbols(ctx) // one Symbol per name, ranked strong > weak > common > undefined
	if ctx.checkpoint() {
		return ErrFailed
	}
	buildFunctions(ctx)    // one Function per defined function, with its sections and call edges
	registerNames(ctx)     // replay nvlink's creation order of names, sections and symbols
	eliminateDeadCode(ctx) // keep what kernels reach; report undefined references of live code
	if ctx.checkpoint() {
		return ErrFailed
	}
	mergeSections(ctx)    // classify by memory space, build per-kernel and merged sections
	layoutSections(ctx)   // offsets of every contribution and symbol are fixed from here on
	computeResources(ctx) // registers, barriers and stack through the call graph
	applyRelocations(ctx) // resolve what the linker resolves, keep the rest for the driver
	buildNVInfo(ctx)      // rebuild .nv.info, .nv.callgraph, .nv.prototype, .nv.rel.action
	if ctx.checkpoint() {
		return ErrFailed
	}
	reportResources(ctx) // -v: nvlink's per-function resource lines
	if err := writeOutput(ctx); err != nil {
		return err
	}
	if err := writeHostSide(ctx); err != nil { // --register-link-binaries for nvcc -dlink's link.stub
		return err
	}
	return explainLink(ctx) // --why-live and --map: why each function is kept, what went where
}

// checkpoint says whether the link must stop: errors were reported, or
// the caller cancelled it.
func (ctx *Context) checkpoint() bool {
	if c := ctx.Config.Context; c != nil && c.Err() != nil {
		ctx.cancelled = true
		return true
	}
	return ctx.failed()
}
