//go:build unix

package linker

import (
	"cmp"
	"os"
	"slices"
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
	// sorted: maps is in address order, for releaseMapping's binary
	// search (a pass visits every input, so a scan would make each pass
	// quadratic in the number of inputs).
	sorted bool
}

// read returns the contents of path, mapped when the file is regular and
// not empty (mapped says so), else read.
func (m *fileMaps) read(path string) (data []byte, mapped bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, false, err
	}
	size := fi.Size()
	if !fi.Mode().IsRegular() || size <= 0 || int64(int(size)) != size {
		data, err = os.ReadFile(path)
		return data, false, err
	}
	data, err = syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_PRIVATE)
	if err != nil {
		data, err = os.ReadFile(path)
		return data, false, err
	}
	m.mu.Lock()
	m.maps = append(m.maps, data)
	m.sorted = false
	m.mu.Unlock()
	return data, true, nil
}

// release hands back the pages of a whole mapping read returned.
func (m *fileMaps) release(data []byte) { syscall.Madvise(data, syscall.MADV_DONTNEED) }

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
	if !m.sorted {
		slices.SortFunc(m.maps, func(x, y []byte) int { return cmp.Compare(base(x), base(y)) })
		m.sorted = true
	}
	// The last mapping that starts at or before b is the only one that
	// can hold it: mappings do not overlap.
	i, found := slices.BinarySearchFunc(m.maps, start, func(data []byte, at uintptr) int { return cmp.Compare(base(data), at) })
	if !found {
		i--
	}
	if i >= 0 {
		if data := m.maps[i]; start < base(data)+uintptr(len(data)) {
			syscall.Madvise(data, syscall.MADV_DONTNEED)
		}
	}
}

// base is the address of a mapping's first byte.
func base(data []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(data))) }
