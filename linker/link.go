package linker

import "time"

// link runs the whole device link. Each pass is in its own file, named for
// what it does. At each checkpoint the link stops if errors were reported,
// so one run reports every problem of a kind but never builds on a broken
// state. Every pass is timed for --time. A partial link (-r) runs its own
// list, linkRelocatable.
func link(ctx *linkContext) error {
	if ctx.config.Relocatable {
		return linkRelocatable(ctx)
	}
	if ctx.config.Virtual && !ctx.config.LTO {
		return linkVirtual(ctx) // -arch=compute_NN: nothing is linked; --register-link-binaries only
	}
	ctx.run("check options", warnPreserveRelocs) // nvlink's warning for -preserve-relocs on sm_90
	if ctx.checkpoint() {
		return ErrFailed
	}
	ctx.run("read inputs", readInputs) // parse every input (past 4 MiB, in parallel); archives are indexed
	if ctx.config.Virtual {
		ctx.run("check the target", checkVirtualArchSpecific) // -arch=compute_NN -dlto: compute_90a is a target of 12.x only
	}
	ctx.run("choose -Xptxas", chooseXptxas)                    // -Xptxas given twice: the last (11.8, with its warning) or all (12.x)
	ctx.run("gather LTO inputs", gatherLTOInputs)              // -dlto: libnvvm loaded, every unit's IR for the target read into one program
	ctx.run("report unreadable IR", reportUnreadableBeforePTX) // -dlto -emit-ptx: IR that could not be read, reported before the rest compiles
	ctx.run("optimize link time", optimizeLinkTime)            // -dlto: libnvvm compiles the program to PTX, ptxas that PTX to lto.cubin
	if ctx.config.Virtual {
		if !ctx.compiledWholeProgram() {
			return linkVirtualLTO(ctx) // -arch=compute_NN -dlto, no whole program: --register-link-binaries only
		}
		ctx.linkWholeVirtual() // ptxas linked the whole program: the link goes on as -arch=sm_NN, given -o
		if ctx.checkpoint() {
			return ErrFailed
		}
	}
	ctx.run("compile PTX", compilePTXImages) // ptxas compiles the PTX images addInputs will choose, in parallel
	ctx.run("add inputs", addInputs)         // each unit's image for the target joins the link, in command-line order
	if ctx.checkpoint() {
		return ErrFailed
	}
	ctx.run("extract library members", extractOnDemand) // libcudadevrt (and --archive-mode=on-demand) members the link needs
	ctx.run("choose toolkit", chooseToolkit)            // the nvlink release to reproduce: the inputs' newest e_version (toolkit.go)
	ctx.run("check architectures", checkArchitectures)  // every cubin fits -arch
	ctx.run("report refused input", reportRefusal)      // the first input nvlink refuses, whatever the reason, in command-line order
	if ctx.checkpoint() {
		return ErrFailed // nvlink stops there
	}
	ctx.run("warn about ignored -dlto", warnIgnoredLTO) // nvlink's warning for -dlto without IR to compile
	if ctx.emitsPTX() || ctx.lto.executable != nil {
		ctx.run("warn about -ewp mixes", warnMixedEWP) // nvlink's warning for inputs next to an nvcc -c -ewp image (resolveSymbols gives it in a link that merges them)
	}
	if ctx.checkpoint() {
		return ErrFailed
	}
	if ctx.emitsPTX() {
		return ctx.runErr("write PTX", writeEmittedPTX) // -emit-ptx: libnvvm's PTX is the output
	}
	if ctx.lto.executable != nil {
		if err := ctx.runErr("write output", writeLTOExecutable); err != nil { // -dlto with libcudadevrt: ptxas linked the whole program
			return err
		}
		return ctx.runErr("write host side", writeHostSide) // --register-link-binaries: the LTO inputs, last first
	}
	ctx.run("resolve symbols", resolveSymbols) // one symbol per name, ranked strong > weak > common > undefined; the -ewp mix warnings
	if ctx.checkpoint() {
		return ErrFailed
	}
	ctx.run("unified tables", collectUnifiedTables)         // 12.x: __UFT, __UDT and kin are the driver's
	ctx.run("place orphan constants", placeOrphanConstants) // bank-2 data tied to no function: overlaps must be identical
	if ctx.checkpoint() {
		return ErrFailed
	}
	ctx.run("build functions", buildFunctions)        // one function per defined function, with its sections, callees and callers
	ctx.run("register names", registerNames)          // replay nvlink's creation order of names, sections and symbols
	ctx.run("build call edges", buildCallEdges)       // each function's call graph edges, materialised ones in symbol creation order
	ctx.run("eliminate dead code", eliminateDeadCode) // keep what kernels reach
	if ctx.checkpoint() {
		return ErrFailed
	}
	ctx.run("merge sections", mergeSections)                     // classify by memory space, build per-kernel and merged sections
	ctx.run("release unused code", releaseUnusedCode)            // the pages of decompressed images that hold only code the output does not take
	ctx.run("lay out sections", layoutSections)                  // offsets of every contribution are fixed from here on
	ctx.run("lay out shared memory", layoutShared)               // each kernel's variables, the shared ones, dynamic memory
	ctx.run("lay out debug information", layoutDebugInfo)        // -g: shared memory as the debugger sees it
	ctx.run("keep lost copies' locals", keepLostCopyLocals)      // -preserve-relocs: a losing weak kernel's _param, a replaced one's .const_opt. constants, move to the winner
	ctx.run("place symbols", placeSymbols)                       // each symbol's output value and section (placements) from here on
	ctx.run("rebuild constant bank (12.x)", rebuildConstantBank) // 12.x: bank 3 past 64 KiB laid out again variable by variable
	if ctx.checkpoint() {
		return ErrFailed
	}
	ctx.run("assign bindless slots", assignBindlessSlots)         // texture and surface header slots in each kernel's bank 0
	ctx.run("compute resources", computeResources)                // registers, barriers and stack through the call graph
	ctx.run("extra warnings", warnUncalledAddressTaken)           // -extrawarn: address-taken functions nothing calls
	ctx.run("check limits (12.x)", checkLimitsBeforeCallgraph)    // each kernel's shared memory, then constant bank 3, fit the hardware (12.x: before the graph)
	ctx.run("undefined (12.x)", reportUndefinedBeforeCallgraph)   // nvlink 12.x: the graph and the register limit errors come after the undefined references
	ctx.run("dump call graph", dumpCallgraph)                     // --dump-callgraph: nvlink's text, from the functions and their edges
	ctx.run("check register limits", checkMaxRegs)                // a kernel's -maxrregcount or __launch_bounds__ limit holds for what it calls (the graph's propagation, if dumped, did it)
	ctx.run("check limits", checkLimitsAfterCallgraph)            // 11.8: the limit errors come after the graph and the register limit errors
	ctx.run("check undefined", reportUndefinedAfterCallgraph)     // every reference kept code makes must be defined, but for what the driver provides
	ctx.run("check LTO inputs", reportUnreadableIR)               // -dlto: IR that could not be read explains undefined references
	ctx.run("check removed -ewp kernels", checkRemovedEWPKernels) // a removed -ewp kernel's copied functions would point nowhere (after the undefined references, as nvlink)
	ctx.run("check unreached dynamic", checkUnreachedDynamic)     // -preserve-relocs: extern __shared__ no kernel starts, deleted shared variables -G names (nvlink: reference to deleted symbol)
	if ctx.checkpoint() {
		if ctx.onlyNonFatal() {
			relocateAfterNonFatal(ctx) // nvlink goes on to relocate, where it can still stop
		}
		return ErrFailed
	}
	ctx.run("apply relocations", applyRelocations)              // resolve what the linker resolves, keep the rest for the driver
	ctx.run("merge constants again", remergeConstants)          // after pruning, nvlink's second merge of bank 3 folds repeated data
	ctx.run("move rebuilt constants", moveRebuiltConstants)     // 12.x: bank 3's bytes to rebuildConstantBank's layout
	ctx.run("fill constant bank sizes", fillConstantBankSizes)  // device functions' .nv.ptx.const0.size fields get bank 3's final size
	ctx.run("fill dangling debug labels", fillDanglingLabels)   // debug fields naming labels ptxas left undefined get the null symbol's value
	ctx.run("gather sections", gatherSections)                  // merged sections keep only the bytes relocation changed
	ctx.run("create metadata sections", createMetadataSections) // .nv.info, .nv.callgraph, .nv.prototype, .nv.rel.action exist from here on
	ctx.run("finish names", finishNames)                        // the names nvlink creates after merging every input
	ctx.run("assign indices", assignIndices)                    // the symbol table and section order: symbol and section indices are final from here on
	ctx.run("build metadata", buildNVInfo)                      // fill .nv.info, .nv.callgraph, .nv.prototype, .nv.rel.action
	if ctx.checkpoint() {
		return ErrFailed
	}
	ctx.run("report resources", reportResources)                    // -v: nvlink's per-function resource lines
	if err := ctx.runErr("write output", writeOutput); err != nil { // the executable cubin, written whole or not at all
		return err
	}
	if err := ctx.runErr("write host side", writeHostSide); err != nil { // --register-link-binaries for link.stub
		return err
	}
	return ctx.runErr("explain link", explainLink) // --why-live and --map: why each function is kept, what went where
}

// relocateAfterNonFatal is what a link whose errors are all non-fatal
// (undefined references, resource limits: exit status 255) does after
// them, as nvlink does: it applies the relocations and merges bank 3
// again, whose check (checkRelocsPastBank: "Internal error: relocation is
// past end of offset") can still stop it, with exit status 1 and no -v
// report; else the -v report follows the errors. Measured with nvlink
// 11.8, 12.4 and 12.5 (error-undefined-then-relocation-past-bank-end-sm80
// and its kin): undefined references in kept code or in a pruned kernel, a
// kernel's shared memory past the limit, and a kept pointer to an
// undefined variable, which the past-end check counts. The relocations
// themselves raise nothing then (relocPass.relocate): not one against a
// symbol left undefined, nor a bank 3 past 64 KiB whose offsets do not
// fit the code's fields (cuda12-error-constant-bank3-rebuild-too-large-verbose-sm80:
// exit status 255 and the -v report).
func relocateAfterNonFatal(ctx *linkContext) {
	ctx.afterNonFatal = true
	ctx.run("apply relocations", applyRelocations)
	ctx.run("merge constants again", remergeConstants)
	if ctx.onlyNonFatal() {
		ctx.run("report resources", reportResources) // -v: nvlink reports after its non-fatal errors too
	}
}

// linkRelocatable runs a partial link (-r): the inputs become one
// relocatable cubin that a later link takes as it would take the inputs
// themselves. Symbols are resolved as in a full link, but nothing is laid
// out as an executable: no undefined-symbol check, no dead-code elimination,
// no shared-memory layout, bank-2 folding or resource propagation, and no
// relocation is applied. See docs/partial.md.
func linkRelocatable(ctx *linkContext) error {
	ctx.run("read inputs", readInputs)                         // as a full link: cubins, host objects, archives
	ctx.run("choose -Xptxas", chooseXptxas)                    // as a full link
	ctx.run("gather LTO inputs", gatherLTOInputs)              // -dlto: every unit's IR for the target read into one program
	ctx.run("report unreadable IR", reportUnreadableBeforePTX) // -dlto -emit-ptx: IR that could not be read
	ctx.run("optimize link time", optimizeLinkTime)            // -dlto: libnvvm and ptxas make lto.cubin
	ctx.run("compile PTX", compilePTXImages)                   // ptxas compiles the PTX images addInputs will choose
	ctx.run("add inputs", addInputs)                           // each unit's image for the target, in command-line order
	if ctx.checkpoint() {
		return ErrFailed
	}
	ctx.run("extract library members", extractOnDemand) // libcudadevrt (and --archive-mode=on-demand) members the link needs
	ctx.run("choose toolkit", chooseToolkit)            // the nvlink release to reproduce
	ctx.run("check architectures", checkArchitectures)  // every cubin fits -arch
	ctx.run("report refused input", reportRefusal)      // the first input nvlink refuses, in command-line order
	if ctx.checkpoint() {
		return ErrFailed
	}
	ctx.run("warn about ignored -dlto", warnIgnoredLTO) // nvlink's warning for -dlto without IR to compile
	ctx.run("check inputs", checkRelocatableInputs)     // no -ewp image, and some device code to combine
	if ctx.checkpoint() {
		return ErrFailed
	}
	ctx.run("resolve symbols", resolveSymbols) // the same ranks; undefined names stay undefined
	if ctx.checkpoint() {
		return ErrFailed
	}
	ctx.run("build functions", buildFunctions)                             // the chosen definition of each function, with its sections
	ctx.run("merge sections", mergeRelocatable)                            // per-function sections kept, memory spaces merged by name
	ctx.run("lay out sections", layoutRelocatable)                         // contributions placed in merged sections
	ctx.run("retarget relocations", retargetRelocations)                   // every relocation kept, moved to merged sections and symbols
	ctx.run("create metadata sections", createRelocatableMetadataSections) // .nv.callgraph and .nv.prototype take the inputs' place
	ctx.run("place symbols", placeSymbols)                                 // output values: moved with their sections' contributions
	ctx.run("assign indices", assignRelocatableIndices)                    // .symtab and section order: symbol and section indices are final from here on
	ctx.run("build metadata", buildRelocatableMetadata)                    // .nv.info*, .nv.callgraph, .nv.prototype remapped
	if ctx.checkpoint() {
		return ErrFailed
	}
	return ctx.runErr("write output", writeRelocatable) // ET_REL, as nvcc -dc -cubin writes it
}

// checkpoint says whether the link must stop: errors were reported, or
// the caller cancelled it.
func (ctx *linkContext) checkpoint() bool {
	if c := ctx.config.Context; c != nil && c.Err() != nil {
		ctx.cancelled = true
		return true
	}
	return ctx.failed()
}

// passTime is how long one pass took.
type passTime struct {
	name string
	took time.Duration
}

// run runs one pass, records its time, then runs the hooks that tune or
// trace the process between passes (afterPass).
func (ctx *linkContext) run(name string, pass func(*linkContext)) {
	ctx.config.testHook(name)
	start := time.Now()
	pass(ctx)
	ctx.afterPass(name, time.Since(start))
}

// runErr is run for a pass that returns an error.
func (ctx *linkContext) runErr(name string, pass func(*linkContext) error) error {
	ctx.config.testHook(name)
	start := time.Now()
	err := pass(ctx)
	ctx.afterPass(name, time.Since(start))
	return err
}

// afterPass records a pass's time for --time and runs the hooks that
// concern the process, not the link: the collector's tuning
// (collector.go), memory tracing (memtrace.go) and the scheduler
// (parallel.go). None changes the output.
func (ctx *linkContext) afterPass(name string, took time.Duration) {
	ctx.times = append(ctx.times, passTime{name, took})
	ctx.tuneCollectorAfter(name)
	traceMemory(name)
	ctx.yieldBetweenPasses()
}
