// Command cudalink is a CUDA device linker that is a drop-in replacement for
// NVIDIA's nvlink 11.8. Run it with the arguments you would give nvlink;
// `cudalink --help` lists them.
package main

import (
	"fmt"
	"os"
	"slices"

	"github.com/cudalink/cudalink/linker/cli"
)

func main() {
	if slices.Contains(os.Args[1:], "--persistent_worker") {
		// Bazel starts a persistent worker with this flag and then sends
		// link requests on stdin. The worker loop goes here; it can answer
		// each request with cli.Run(request arguments, response, response).
		fmt.Fprintln(os.Stderr, "cudalink: error: --persistent_worker is not implemented yet")
		os.Exit(2)
	}
	os.Exit(cli.Run(os.Args[1:], os.Stdout, os.Stderr))
}
