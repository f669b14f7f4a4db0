//go:build !linux

package worker

import "os"

// IsolateStdout gives the protocol a stdout of its own. Only Linux moves
// the file descriptors (see stdout_linux.go); elsewhere it returns the
// process's stdout and points os.Stdout at standard error, which keeps out
// what Go code prints but not what C code or child processes print.
func IsolateStdout() (*os.File, error) {
	out := os.Stdout
	os.Stdout = os.Stderr
	return out, nil
}
