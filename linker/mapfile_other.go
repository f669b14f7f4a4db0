//go:build !unix

package linker

import "os"

// fileMaps reads inputs into memory where files cannot be mapped.
type fileMaps struct{}

func (m *fileMaps) read(path string) ([]byte, error) { return os.ReadFile(path) }
func (m *fileMaps) unmapAll()                        {}
func (m *fileMaps) releaseMapping([]byte)            {}
