package linker

import "unsafe"

// PassCode returns the span of this package's code that a link runs: from
// the first to the last of a few passes' entry addresses, and the method
// value wrappers the compiler puts after a package's functions. The Go
// linker lays out a package's code in one piece, its files in name order
// (placeOrphanConstants is in bank2.go, chooseXptxas in xptxas.go), and a
// link runs most of its pages: 115 of the 172 pages of this package's code
// took a page fault of their own in a 10-object link (sm_80, perf33).
// cmd/cudalink gives that span the kernel's fault-around back
// (start.FaultAround). A layout other than the Go linker's only makes the
// span another one; the link's bytes do not depend on it.
func PassCode() (lo, hi uintptr) {
	lo, hi = ^uintptr(0), 0
	add := func(pc uintptr) { lo, hi = min(lo, pc), max(hi, pc+1) }
	for _, f := range []func(*linkContext){placeOrphanConstants, readInputs, registerNames,
		mergeSections, layoutShared, applyRelocations, chooseXptxas} {
		add(**(**uintptr)(unsafe.Pointer(&f)))
	}
	out := writeOutput
	add(**(**uintptr)(unsafe.Pointer(&out)))
	var ctx *linkContext
	run := ctx.run // its wrapper, (*linkContext).run-fm
	add(**(**uintptr)(unsafe.Pointer(&run)))
	return lo, hi
}
