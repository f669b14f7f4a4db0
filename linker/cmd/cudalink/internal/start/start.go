// Package start prepares the cudalink process before nearly every other
// package is initialised. It imports nothing but the runtime, so it is
// among the first (packages are initialised in dependency order, ties
// broken by import path; GODEBUG=inittrace=1 shows it fourth, after three
// packages of a few microseconds); cudalink's main imports it for that
// alone.
//
// Both of its settings keep a link from reading the binary's function
// tables (gopclntab), pages the link has no other use for: on Linux every
// page fault in the binary maps the 64 KiB around it, so a few scattered
// reads are hundreds of KiB of a small link's peak memory.
package start

import "runtime"

func init() {
	// No allocation is sampled for a memory profile unless one is asked
	// for: each sample walks the stack through the function tables.
	// -memprofile and CUDALINK_HEAPPROFILE set the rate they need later.
	runtime.MemProfileRate = 0
	// The first allocation after a change of rate is sampled whatever the
	// rate: let it be this one, on a short stack.
	sinkPtr = new([16]byte)
	// The main goroutine's stack grows once, now, while it holds three
	// frames, to more than a link needs: each growth copies the stack
	// and reads the tables of every frame on it.
	growStack(false)
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
