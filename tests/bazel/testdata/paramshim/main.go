// Command paramshim is cudalink's command line plus Bazel's @file arguments
// (a file of one argument per line), for the end-to-end test while
// cudalink itself does not read @file arguments outside worker mode. It
// runs the same cli.Run, so its outputs are the command line's.
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/cudalink/cudalink/linker/cli"
)

func main() {
	args, err := expand(os.Args[1:], 0)
	if err != nil {
		fmt.Fprintf(os.Stderr, "paramshim: %v\n", err)
		os.Exit(2)
	}
	os.Exit(cli.Run(args, os.Stdout, os.Stderr))
}

// expand replaces each @file argument by the file's lines, recursively, as
// Bazel does for a worker request; @@x stays as it is.
func expand(args []string, depth int) ([]string, error) {
	if depth > 8 {
		return nil, fmt.Errorf("@file arguments nested too deep")
	}
	var out []string
	for _, arg := range args {
		name, ok := strings.CutPrefix(arg, "@")
		if !ok || strings.HasPrefix(name, "@") {
			out = append(out, arg)
			continue
		}
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		text := strings.TrimSuffix(string(data), "\n")
		lines := []string{}
		if text != "" {
			lines = strings.Split(text, "\n")
		}
		more, err := expand(lines, depth+1)
		if err != nil {
			return nil, err
		}
		out = append(out, more...)
	}
	return out, nil
}
