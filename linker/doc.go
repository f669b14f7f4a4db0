// Package linker is cudalink's device linker: it takes the inputs nvlink
// takes (relocatable cubins, host objects with device code, fatbinaries,
// archives) and writes what nvlink writes, an executable cubin (or, with
// -r, a relocatable one).
//
// One Context carries a link. Link, in link.go, runs the passes in order,
// one file each: load (parse every input in parallel), resolve symbols,
// build functions and the call graph, eliminate dead code, merge sections
// per CUDA memory space, lay them out, compute resources, apply
// relocations, rebuild .nv.info and the call graph, write the output. The
// core types are InputFile, InputSection, Symbol, Function and
// OutputSection. Errors are LinkError values that name the file, the
// section and the symbol; they are collected and the link stops at the
// next checkpoint.
//
// The formats live in the packages below: cubin (ELF), fatbin, hostobj and
// archive. The command line is package cli, the persistent worker package
// worker.
package linker
