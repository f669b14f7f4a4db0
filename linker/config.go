package linker

import "io"

// Config is everything one link needs, as the command line (or a worker
// request) states it. It holds no state of the link itself; that lives in
// Context.
type Config struct {
	// Arch is the target SM number: 80 for -arch=sm_80.
	Arch int
	// Output is the path of the file to write. The file is written to a
	// temporary name in the same directory and renamed only on success.
	Output string
	// Inputs are the input files and -l libraries in command-line order.
	Inputs []Input
	// LibDirs are the -L directories, searched in order for -l libraries.
	LibDirs []string

	Verbose bool // -v: print nvlink's per-function resource lines
	NoWarn  bool // -w: suppress warnings
	Werror  bool // -Werror: warnings are errors
	// Parallelism bounds the goroutines used for per-input work; 0 means
	// GOMAXPROCS. The output does not depend on it.
	Parallelism int

	// Stdout receives -v reports; Stderr receives diagnostics.
	Stdout io.Writer
	Stderr io.Writer
}

// Input is one input on the command line: a file, or a library named with
// -l that is searched for in LibDirs as lib<Name>.a.
type Input struct {
	Path    string
	Library bool // Path is the name given to -l
}
