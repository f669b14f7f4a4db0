//go:build !linux

package linker

import (
	"errors"
	"os"
	"syscall"
)

// replaceFile moves the finished temporary output tmp to path.
func replaceFile(tmp, path string) error { return os.Rename(tmp, path) }

// createTemp is os.CreateTemp.
func createTemp(dir, pattern string) (*os.File, error) { return os.CreateTemp(dir, pattern) }

// createTempOutput creates a named temporary output file.
func createTempOutput(dir, pattern string) (*tempOutput, error) { return newNamedTemp(dir, pattern) }

// publish is not reached: every temporary output has a name here.
func (t *tempOutput) publish(string) error {
	t.f.Close()
	return errors.New("unnamed temporary file")
}

// endBySignal ends the process after sig, with the shell's status for it.
func endBySignal(sig os.Signal) {
	if s, ok := sig.(syscall.Signal); ok {
		os.Exit(128 + int(s))
	}
	os.Exit(1)
}
