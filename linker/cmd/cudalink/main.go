// Command cudalink is a CUDA device linker that is a drop-in replacement for
// NVIDIA's nvlink 11.8. Run it with the arguments you would give nvlink;
// `cudalink --help` lists them.
package main

import (
	"os"
	"os/signal"
	"slices"
	"syscall"

	"github.com/cudalink/cudalink/linker"
	"github.com/cudalink/cudalink/linker/cli"
	"github.com/cudalink/cudalink/linker/nvvm"
	"github.com/cudalink/cudalink/linker/worker/linkworker"
)

func main() {
	if slices.Contains(os.Args[1:], "--persistent_worker") {
		// Bazel starts a persistent worker with this flag, anywhere on the
		// command line, and then sends link requests on stdin.
		os.Exit(linkworker.Main(os.Args[1:]))
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
	status := cli.RunOneShot(os.Args[1:], os.Stdout, os.Stderr)
	// The -dlto helpers end with the link, and are waited for: their time
	// is the link's.
	nvvm.StopHelpers()
	os.Exit(status)
}
