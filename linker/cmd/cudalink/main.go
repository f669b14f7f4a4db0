// Command cudalink is a CUDA device linker that is a drop-in replacement for
// NVIDIA's nvlink 11.8. Run it with the arguments you would give nvlink;
// `cudalink --help` lists them.
package main

import (
	"os"
	"slices"

	"github.com/cudalink/cudalink/linker"
	"github.com/cudalink/cudalink/linker/cli"
	"github.com/cudalink/cudalink/linker/cmd/cudalink/internal/start" // first: see its doc
	"github.com/cudalink/cudalink/linker/nvvm"
	"github.com/cudalink/cudalink/linker/worker/linkworker"
)

func main() {
	if slices.Contains(os.Args[1:], "--persistent_worker") {
		// Bazel starts a persistent worker with this flag, anywhere on the
		// command line, and then sends link requests on stdin.
		start.RestoreProcs()
		os.Exit(linkworker.Main(os.Args[1:]))
	}
	// The linker's own code, most of which a link runs, is mapped 64 KiB
	// at a time again; what starting up mapped of the binary and the link
	// does not use leaves the link's peak memory.
	start.FaultAround(linker.PassCode())
	start.ReleaseStartupPages()
	// An interrupted link leaves no partial output: the output is written
	// to an unnamed file, or a named temporary one that a signal removes
	// (linker.RemoveTempFiles).
	status := cli.RunOneShot(os.Args[1:], os.Stdout, os.Stderr, start.Procs())
	// The -dlto helpers end with the link, and are waited for: their time
	// is the link's.
	nvvm.StopHelpers()
	os.Exit(status)
}
