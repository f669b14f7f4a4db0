//go:build unix

package linker

import (
	"os"
	"sync"
	"syscall"
	"unsafe"
)

// fileMaps maps input files read-only into memory for the length of one
// link: a one-shot link (no object cache) parses inputs in place instead
// of copying them into the heap, so untouched bytes are never read and the
// garbage collector never scans or counts them. Every map is released by
// unmapAll when the link is over; nothing of a link's result (messages,
// names, the output image) points into a mapping.
type fileMaps struct {
	mu   sync.Mutex
	maps [][]byte
}

// read returns the contents of path, mapped when the file is regular and
// not empty, else read.
func (m *fileMaps) read(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := fi.Size()
	if !fi.Mode().IsRegular() || size <= 0 || int64(int(size)) != size {
		return os.ReadFile(path)
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_PRIVATE)
	if err != nil {
		return os.ReadFile(path)
	}
	m.mu.Lock()
	m.maps = append(m.maps, data)
	m.mu.Unlock()
	return data, nil
}

// unmapAll releases every mapping.
func (m *fileMaps) unmapAll() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, data := range m.maps {
		syscall.Munmap(data)
	}
	m.maps = nil
}

// releaseMapping releases the whole mapping that holds b, if any: the
// passes walk the inputs roughly in command-line order, so once they move
// past a file its pages can go.
func (m *fileMaps) releaseMapping(b []byte) {
	if len(b) == 0 {
		return
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, data := range m.maps {
		base := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
		if start >= base && start < base+uintptr(len(data)) {
			syscall.Madvise(data, syscall.MADV_DONTNEED)
			return
		}
	}
}
