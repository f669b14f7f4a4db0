//go:build !linux

package linker

import (
	"errors"
	"os"
	"syscall"
)

// replaceFile moves the finished temporary output tmp to path.
func replaceFile(tmp, path string) error { return os.Rename(tmp, path) }

// createTemp is os.CreateTemp, but the file has mode 0666 less the umask,
// the mode nvlink gives its outputs, where os.CreateTemp's has 0600.
func createTemp(dir, pattern string) (*os.File, error) {
	var f *os.File
	_, err := claimTempName(dir, pattern, func(name string) (err error) {
		f, err = os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		return err
	})
	return f, err
}

// createTempOutput creates a named temporary output file.
func createTempOutput(dir, pattern string) (*tempOutput, error) { return newNamedTemp(dir, pattern) }

// publish is not reached: every temporary output has a name here.
func (t *tempOutput) publish(string, bool) error {
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
