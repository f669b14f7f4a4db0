//go:build !linux

package linker

import "os"

// replaceFile moves the finished temporary output tmp to path.
func replaceFile(tmp, path string) error { return os.Rename(tmp, path) }

// createTemp is os.CreateTemp.
func createTemp(dir, pattern string) (*os.File, error) { return os.CreateTemp(dir, pattern) }
