//go:build !unix

package linker

import "os"

// fileMaps reads inputs into memory where files cannot be mapped.
type fileMaps struct {
	lastLink   bool // unused: see mapfile_unix.go
	copyRelocs bool // unused: see mapfile_unix.go
}

func (m *fileMaps) read(path string, headers bool) ([]byte, bool, error) {
	data, err := os.ReadFile(path)
	return data, false, err
}
func (m *fileMaps) release([]byte)             {}
func (m *fileMaps) releaseCopied([]byte)       {}
func (m *fileMaps) unmapAll()                  {}
func (m *fileMaps) releaseMapping([]byte)      {}
func (m *fileMaps) hold(bool)                  {}
func (m *fileMaps) readSmall(int)              {}
func (m *fileMaps) trimSlab([]byte, []*Object) {}

// imageBuffer returns a buffer from the heap: see mapfile_unix.go.
func (m *fileMaps) imageBuffer(n int) []byte    { return make([]byte, n) }
func (m *fileMaps) inArena([]byte) bool         { return false }
func (m *fileMaps) releaseUnused(at, n uintptr) {}

// fileID is unused where files are not mapped: see mapfile_unix.go.
type fileID struct{}

// sameFileID says that fi carries no identity dropRepeatedArchives can use
// as a key: it compares files with os.SameFile instead.
func sameFileID(os.FileInfo) (fileID, bool) { return fileID{}, false }
