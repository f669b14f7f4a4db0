// Package start prepares the cudalink process before nearly every other
// package is initialised. It imports nothing but the runtime and syscall,
// so it is among the first (packages are initialised in dependency order,
// ties broken by import path; GODEBUG=inittrace=1 shows it after the few
// packages syscall needs); cudalink's main imports it for that and for
// ReleaseStartupPages.
//
// Its settings keep a link from reading the binary's function tables
// (gopclntab), pages the link has no other use for: on Linux every page
// fault in the binary maps the 64 KiB around it, so a few scattered reads
// are hundreds of KiB of a small link's peak memory; noFaultAround turns
// that off for the code. And it lets the runtime's monitor thread wake
// less often (slowMonitor), which a short link pays for in CPU time.
package start

import (
	"runtime"
	"syscall"
)

// procs is GOMAXPROCS as the process started, before init set it to 1;
// 0 when the GOMAXPROCS environment variable set it (then init leaves it).
var procs int

func init() {
	// From here on, a page of the code is mapped when it runs, not the
	// 64 KiB around it.
	noFaultAround()
	// The runtime's monitor thread wakes less often (a millisecond at
	// least): it started before this.
	slowMonitor()
	// One P until a link works on several goroutines (linker.Config's
	// Parallelism, which main passes as Procs): a small link runs on one
	// goroutine, and a second P only costs. The runtime starts its own
	// goroutines on whichever P is idle, waking a thread for each; the
	// main goroutine, moved from P to P, starts a span of every size class
	// anew on each; and each P samples its first allocation after
	// MemProfileRate changes (below), whatever the rate: on a second P,
	// one sample in the middle of the link reads the tables of every frame
	// of its stack (12 windows of 64 KiB at flat 100 objects). Flat 10
	// objects, 31 interleaved runs (docs/benchmarks.md, perf14): CPU 3.25
	// -> 2.84 ms.
	if _, set := syscall.Getenv("GOMAXPROCS"); !set {
		procs = runtime.GOMAXPROCS(1)
	}
	// No allocation is sampled for a memory profile unless one is asked
	// for: each sample walks the stack through the function tables.
	// -memprofile and CUDALINK_HEAPPROFILE set the rate they need later.
	runtime.MemProfileRate = 0
	// The first allocation after a change of rate is sampled whatever the
	// rate: let it be this one, on a short stack, on the one P.
	sinkPtr = new([16]byte)
	// The main goroutine's stack grows once, now, while it holds three
	// frames, to more than a link needs: each growth copies the stack
	// and reads the tables of every frame on it.
	growStack(false)
}

// Procs is the number of processors the process may use (GOMAXPROCS as it
// started), for a link's parallel passes: init runs the process on one
// until then. 0 when the GOMAXPROCS environment variable decides, which
// init leaves as it is.
func Procs() int { return procs }

// RestoreProcs gives the process the processors init took (the
// runtime's default GOMAXPROCS, updated as the runtime does), the
// runtime's threads their timer slack and the code its fault-around, for
// the persistent worker, which runs links side by side.
func RestoreProcs() {
	restoreMonitor()
	restoreFaultAround()
	if procs != 0 {
		runtime.SetDefaultGOMAXPROCS()
	}
}

// growStack has a frame of 120 KiB (a larger array would be put on the
// heap), which the runtime makes room for before it runs: the stack
// becomes 256 KiB. The array is never touched, so only the stack's address
// space grows, not the memory in use.
//
//go:noinline
func growStack(use bool) {
	if use { // never: the array is zeroed where it is declared
		var frame [120 << 10]byte
		sink(frame[:])
		sink(sinkPtr[:])
	}
}

//go:noinline
func sink([]byte) {}

// sinkPtr holds the first allocation (init): on the heap, as it must be
// to be sampled.
var sinkPtr *[16]byte
