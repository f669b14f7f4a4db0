// Command cudalink is a CUDA device linker that is a drop-in replacement for
// NVIDIA's nvlink 11.8. Run it with the arguments you would give nvlink;
// `cudalink --help` lists them.
package main

import (
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"syscall"

	"github.com/cudalink/cudalink/linker"
	"github.com/cudalink/cudalink/linker/cli"
	"github.com/cudalink/cudalink/linker/worker/linkworker"
)

func main() {
	if slices.Contains(os.Args[1:], "--persistent_worker") {
		// Bazel starts a persistent worker with this flag, anywhere on the
		// command line, and then sends link requests on stdin.
		os.Exit(linkworker.Main(os.Args[1:]))
	}
	// One link's heap is nearly all live until the process ends, so the
	// garbage the collector lets pile up (as much again as the live heap,
	// by default) only raises the peak: collect at 25% growth instead. On
	// the 400-object benchmark program this takes the peak resident set
	// from about 59 to 53 MB for 0.08 s more time (docs/benchmarks.md).
	// GOGC, when set, still decides; the worker keeps the default.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(oneLinkGCPercent)
	}
	// An interrupted link leaves no partial output: the temporary file is
	// removed before the process ends with the signal's conventional status.
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		sig := <-signals
		linker.RemoveTempFiles()
		os.Exit(128 + int(sig.(syscall.Signal)))
	}()
	os.Exit(cli.Run(os.Args[1:], os.Stdout, os.Stderr))
}

// oneLinkGCPercent is the collector's target for a one-shot link.
const oneLinkGCPercent = 25
