// Package linker is cudalink's device linker: it takes the inputs nvlink
// takes (relocatable cubins, host objects with device code, fatbinaries,
// archives) and writes what nvlink writes, an executable cubin (or, with
// -r, a relocatable one).
//
// One linkContext carries a link; Run (run.go) makes it and calls link
// (link.go), which runs the passes in order, one file each: load (parse
// every input; past the first 4 MiB, in parallel), resolve symbols,
// build functions and the call graph, eliminate dead code, merge sections
// per CUDA memory space (and hand back the pages of the decompressed
// images' code that no section took), lay them out, compute resources,
// apply relocations, assign the symbol and section indices, rebuild
// .nv.info and the call graph, write the output. The core types are inputFile,
// inputSection, symbol, function and outputSection: a symbol holds its
// chosen definition (resolveSymbols), a function what its input says of
// it (buildFunctions; its call edges buildCallEdges'). What a later pass
// decides about symbols and functions is not written into them but kept
// in a record of the linkContext, indexed by symbol.id or function.order
// (symFuncs, placements, deadCode, kernelShared, resources, ...), whose
// comment names its one writer: where a symbol lands in the output, for
// one, is placeSymbols' placement, read through placed. Errors are
// linkError values that name the file, the section and the symbol; they
// are collected and the link stops at the next checkpoint.
//
// The formats live in the packages below: cubin (ELF), fatbin, hostobj and
// archive. The command line is package cli, the persistent worker package
// worker. The package exports what those packages use: Run and its
// Config, the caches the worker hands in, and the errors a caller tells
// apart; the passes and their types are its own. Their methods are
// unexported too (symbol.defined, inputSection.relocs), but for those that
// satisfy an interface (error, fmt.Stringer, the worker's caches), and so
// are their fields (symbol.size, function.regs; a keyword gets Go's usual
// stand-in: outputSection.typ, inputSection.fn), but for those encoding/json
// reads, which carry a struct tag. tests/doccheck (TestFieldCase) holds
// every package under linker/ to this.
package linker
