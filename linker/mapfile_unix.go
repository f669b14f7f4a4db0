//go:build unix

package linker

import (
	"cmp"
	"os"
	"slices"
	"sync"
	"syscall"
)

// fileMaps maps input files read-only into memory for the length of one
// link: a one-shot link (no object cache) parses inputs in place instead
// of copying them into the heap, so untouched bytes are never read and the
// garbage collector never scans or counts them. Every map is released by
// unmapAll when the link is over; nothing of a link's result (messages,
// names, the output image) points into a mapping.
//
// A pass that walks the inputs (inputWalk) says when it leaves a file
// (releaseMapping), and parsing says so when it is done with one
// (release). The pages of the files left are handed back (MADV_DONTNEED),
// to be faulted in again from the page cache by the next pass that reads
// them, in batches: once the files left hold more than releaseBatchBytes,
// all of them go at once, with one madvise call for each run of mappings
// that are adjacent in memory (the kernel places a link's mappings mostly
// side by side). A call per file, as before, cost a system call and a TLB
// shootdown on every CPU the process ran on each time a pass moved from
// one file to the next (2,291 calls in the 100-object flat benchmark
// program, a tenth of its CPU time); a batch keeps at most
// releaseBatchBytes more of the inputs resident.
type fileMaps struct {
	mu   sync.Mutex
	maps []*mapping
	// sorted: maps is in address order, for find's binary search (a pass
	// visits every input, so a scan would make each pass quadratic in the
	// number of inputs).
	sorted bool
	byBase map[uintptr]*mapping // every mapping by its first byte's address

	// left are the mappings left since the last batch was released, and
	// leftBytes their size.
	left      []*mapping
	leftBytes int
	// copiedBytes is the part of leftBytes whose images were copied
	// (mapping.copied).
	copiedBytes int
	// holding: nothing is released until hold(false) (see hold).
	holding bool
	// lastLink: the process exits after this link (linkOnce's last), or a
	// test has the link read its inputs as if it did (WithLastLinkReads).
	lastLink bool
	// copyRelocs: the link copies the relocation sections of the cubins
	// it maps out of their mappings (copyRelocations).
	copyRelocs bool
	// slab holds the cubins readSmall has the link read into memory,
	// one after the other; nil for a link that maps them.
	slab []byte
	// notCubin: the last file readIntoSlab was given was not a cubin,
	// so it reads the next one's header first (see wholeReadBytes).
	notCubin bool
	// slabReads counts readIntoSlab's reads (a test's measure).
	slabReads int

	// arenas are the anonymous mappings device images are decompressed
	// into (imageBuffer), and free the unused rest of the last one.
	arenas [][]byte
	free   []byte
	// released counts the bytes releaseUnused handed back; poison (a
	// test's) fills them with poisonByte instead, so that a pass that
	// read them would write other bytes.
	released int
	poison   bool
}

// poisonByte is what fileMaps.poison fills released bytes with.
const poisonByte = 0xa5

// readSmall has a one-shot process's last link, of size bytes of inputs
// in all (less than serialReadBytes), read its cubins into one buffer in
// the heap instead of mapping each: a mapping holds whole pages, so a
// 16 KB cubin costs 20 KiB resident, and the 64 KiB the kernel maps
// around a fault spill into the next mapping's pages only by chance. Such
// a link holds its inputs to its end anyway (tuneCollectorAfter), and its
// collector is off, so the buffer is never scanned or moved. Interleaved
// runs (docs/benchmarks.md, perf14): flat 100 objects peak RSS 9568 ->
// 9236 KiB, deep chain 100 9764 -> 9304, flat 10 4056 -> 3988, for the
// page faults of the buffer instead of the mappings' (CPU within 0.1 to
// 0.5 ms). Other files (host objects, archives, fatbinaries; a cubin that
// grew since it was measured) are mapped as before: a host object's
// device images are a small part of it.
func (m *fileMaps) readSmall(size int) {
	if m.lastLink && size > 0 {
		m.slab = make([]byte, 0, size)
	}
}

// trimSlab gives the slab back what parsing alone reads of the cubin just
// read into its end (data, parsed as objs): its section header table
// (cubin.File.DropSectionHeaders) and its symbol and string tables, which
// the other sections are moved down over, closing the gaps between them
// (DropTables); the next cubin is read over what it cut. Flat 100 objects
// (docs/benchmarks.md, perf14): of 1,645,344 bytes of cubins the buffer
// holds 1,053,312.
func (m *fileMaps) trimSlab(data []byte, objs []*Object) {
	if len(objs) != 1 || objs[0].ELF == nil || len(data) == 0 || addr(objs[0].ELF.Data) != addr(data) {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.slab) == 0 || addr(data)+uintptr(len(data)) != addr(m.slab)+uintptr(len(m.slab)) {
		return // not the slab's last file
	}
	ef := objs[0].ELF
	if cut := ef.DropSectionHeaders(); cut > 0 {
		cut += ef.DropTables()
		m.slab = m.slab[:len(m.slab)-cut]
	}
}

// wholeReadBytes is the largest file readIntoSlab reads in one system call
// before it knows the file is a cubin, when the file before it was one: a
// read of the header first (64 bytes) and then the rest is a system call
// more per input (a pread of 64 bytes takes 1.3 us on a 2-CPU VM). Flat
// 100 objects (16 KB cubins; perf34): 203 -> 104 preads, CPU -0.37 ms (90%
// interval -0.55 to -0.15, 101 paired runs at load 10, every file read
// whole) and -0.17 (-0.26 to +0.04, 151 at load 13); deep chain 100 -0.16
// (-0.29 to -0.04) and -0.12 (-0.34 to +0.08). A file that is not a cubin
// after all (a host object among cubins) was read in vain: at most this
// many bytes of the buffer, which the next file read into it reuses, and
// the files after it have their headers read first again.
const wholeReadBytes = 64 << 10

// readIntoSlab reads the file fd of size bytes into the slab if it is a
// cubin (an ELF64 file for EM_CUDA) and fits; false if not.
func (m *fileMaps) readIntoSlab(fd, size int) ([]byte, bool) {
	const header = 64 // an ELF64 header
	m.mu.Lock()
	defer m.mu.Unlock()
	off := len(m.slab)
	if size < header || size > cap(m.slab)-off {
		return nil, false
	}
	data := m.slab[off : off+size : off+size]
	first := header
	if size <= wholeReadBytes && !m.notCubin {
		first = size
	}
	m.slabReads++
	if n, err := syscall.Pread(fd, data[:first], 0); err != nil || n != first {
		return nil, false
	}
	if m.notCubin = string(data[:5]) != "\x7fELF\x02" || data[18] != 190 || data[19] != 0; m.notCubin {
		return nil, false
	}
	if first < size {
		m.slabReads++
		if n, err := syscall.Pread(fd, data[first:], int64(first)); err != nil || n != size-first {
			return nil, false
		}
	}
	m.slab = m.slab[:off+size]
	return data, true
}

// mapping is one mapped file.
type mapping struct {
	data []byte
	left bool // in fileMaps.left
	// copied: parsing copied out every device image the link reads (a
	// host object's compressed images), so a link that holds its inputs
	// does not hold this one (see hold).
	copied bool
}

// releaseBatchBytes is how many bytes of mapped inputs a link lets the
// passes leave before it releases them (see fileMaps).
const releaseBatchBytes = 1 << 20

// read returns the contents of path, mapped when the file is regular and
// not empty (mapped says so), else read (into the slab, see readSmall, or
// the heap). The file is opened with plain system calls: an *os.File would
// also register it with the poller. With headers (a library parsed for a
// link that may not need it: deferredImage), the pages that parsing reads
// are read in first (readHeaders).
func (m *fileMaps) read(path string, headers bool) (data []byte, mapped bool, err error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, false, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, false, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	size := st.Size
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG || size <= 0 || int64(int(size)) != size {
		data, err = os.ReadFile(path)
		return data, false, err
	}
	if data, ok := m.readIntoSlab(fd, int(size)); ok {
		return data, false, nil
	}
	if headers {
		data, err = readHeaders(fd, int(size))
	} else {
		data, err = syscall.Mmap(fd, 0, int(size), syscall.PROT_READ, syscall.MAP_PRIVATE)
	}
	if err != nil {
		data, err = os.ReadFile(path)
		return data, false, err
	}
	m.mu.Lock()
	mp := &mapping{data: data}
	m.maps = append(m.maps, mp)
	if m.byBase == nil {
		m.byBase = map[uintptr]*mapping{}
	}
	m.byBase[addr(data)] = mp
	m.sorted = false
	m.mu.Unlock()
	return data, true, nil
}

// readHeaders maps the file fd of size bytes as read does, with the pages
// walkHeaders visits read into the mapping (pread): a library that a link
// parses only to its headers (libcudadevrt.a, which nvcc -dlink passes to
// every link and few need: deferredImage) is then resident by those pages
// alone. Read where they lie in the mapping, each 4 KiB page of them was a
// fault that mapped the 64 KiB around it (the kernel's fault-around), 868
// of 11.8's library's 1,000 KiB in 14 faults; a page written into a private
// mapping is copied (a write fault maps no neighbours), and the mapping
// is then made read-only again. What walkHeaders does not visit is read
// through the mapping, as from any other input; a released mapping
// (madvise) drops the copies and reads the file again.
func readHeaders(fd, size int) ([]byte, error) {
	data, err := syscall.Mmap(fd, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE)
	if err != nil {
		return nil, err
	}
	page := uint64(os.Getpagesize())
	done := make([]bool, (uint64(size)+page-1)/page)
	walkHeaders(data, func(off, n uint64) bool {
		if n == 0 {
			return true
		}
		if off > uint64(size) || n > uint64(size)-off {
			return false
		}
		first, last := off/page, (off+n-1)/page
		for first <= last && done[first] {
			first++
		}
		for last >= first && done[last] {
			last--
		}
		if first > last {
			return true
		}
		lo, hi := first*page, min((last+1)*page, uint64(size))
		if got, err := syscall.Pread(fd, data[lo:hi], int64(lo)); err != nil || uint64(got) != hi-lo {
			return false
		}
		for p := first; p <= last; p++ {
			done[p] = true
		}
		return true
	})
	if err := syscall.Mprotect(data, syscall.PROT_READ); err != nil {
		syscall.Munmap(data)
		return nil, err
	}
	return data, nil
}

// release says that the caller is done, for now, with a whole mapping
// read returned (see fileMaps).
func (m *fileMaps) release(data []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if mp := m.byBase[addr(data)]; mp != nil {
		m.leave(mp)
	}
}

// releaseCopied is release for a mapping none of whose device images
// the link reads in place: they were compressed, and parsing decompressed
// them into the heap. hold(true) does not hold such a mapping (what the
// passes read of it was copied; a host object's PTX or other images are
// read again, if at all, from the page cache).
func (m *fileMaps) releaseCopied(data []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if mp := m.byBase[addr(data)]; mp != nil {
		mp.copied = true
		m.leave(mp)
	}
}

// releaseMapping says that a pass has left the mapping that holds b, if
// any (see fileMaps).
func (m *fileMaps) releaseMapping(b []byte) {
	if len(b) == 0 {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if mp := m.find(b); mp != nil {
		m.leave(mp)
	}
}

// leave records that mp was left, and releases every mapping left once
// they hold more than releaseBatchBytes.
func (m *fileMaps) leave(mp *mapping) {
	if mp.left {
		return
	}
	mp.left = true
	m.left = append(m.left, mp)
	m.leftBytes += len(mp.data)
	if mp.copied {
		m.copiedBytes += len(mp.data)
	}
	switch {
	case !m.holding && m.leftBytes > releaseBatchBytes:
		m.releaseLeft()
	case m.holding && m.copiedBytes > releaseBatchBytes:
		// Holding keeps what the passes read in place, not the files
		// whose images were copied out (see hold).
		m.releaseCopiedLeft()
	}
}

// hold stops releasing the mappings left (on) until it is called again
// (off), which releases them all. A link whose inputs are small next to
// its heap holds them to its end: its passes then do not pay for handing
// back and faulting in every input again, once per pass or per output
// section (see tuneCollectorAfter).
//
// Holding (on) still releases the mappings left whose images were copied
// (releaseCopied): 40 host objects with sm_70 and sm_80 images (1.6 MB,
// 3.6 MB of sm_80 images decompressed) held them to the end of the link,
// the whole files resident (the kernel maps the 64 KiB around a fault).
// They go in batches, as when not holding (leave): while readInputs held
// the inputs it read, 40 host objects of 2.7 MB (the weak-template program
// of docs/benchmarks.md) stayed resident until "add inputs", at the
// link's peak.
func (m *fileMaps) hold(on bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.holding = on
	switch {
	case !on && len(m.left) > 0:
		m.releaseLeft()
	case on:
		m.releaseCopiedLeft()
	}
}

// releaseCopiedLeft releases the mappings left whose images were copied
// (releaseCopied) and keeps the others left.
func (m *fileMaps) releaseCopiedLeft() {
	var copied []*mapping
	kept := m.left[:0]
	for _, mp := range m.left {
		if mp.copied {
			copied = append(copied, mp)
		} else {
			kept = append(kept, mp)
		}
	}
	m.copiedBytes = 0
	if len(copied) > 0 {
		m.left = kept
		m.leftBytes = 0
		for _, mp := range kept {
			m.leftBytes += len(mp.data)
		}
		releaseRuns(copied)
	}
}

// releaseLeft releases every mapping left.
func (m *fileMaps) releaseLeft() {
	releaseRuns(m.left)
	m.left = m.left[:0]
	m.leftBytes, m.copiedBytes = 0, 0
}

// releaseRuns releases mappings, one madvise call for each run of
// adjacent ones, and marks them not left.
func releaseRuns(maps []*mapping) {
	slices.SortFunc(maps, func(x, y *mapping) int { return cmp.Compare(addr(x.data), addr(y.data)) })
	for i := 0; i < len(maps); {
		// A run of mappings each of which ends where the next begins
		// (a mapping's length rounded up to the page) is released in one
		// call: nothing else lies between them.
		first := maps[i]
		end := addr(first.data) + pageRound(len(first.data))
		j := i + 1
		for ; j < len(maps) && addr(maps[j].data) == end; j++ {
			end += pageRound(len(maps[j].data))
		}
		madvise(addr(first.data), end-addr(first.data))
		for _, r := range maps[i:j] {
			r.left = false
		}
		i = j
	}
}

// pageRound is n rounded up to the page size: a mapping of n bytes takes
// that much address space.
func pageRound(n int) uintptr {
	p := uintptr(os.Getpagesize())
	return (uintptr(n) + p - 1) &^ (p - 1)
}

// madvise hands back the pages of [addr, addr+n), which must be mappings
// of fileMaps only (files, or arenas).
func madvise(addr, n uintptr) {
	syscall.Syscall(syscall.SYS_MADVISE, addr, n, syscall.MADV_DONTNEED)
}

// find returns the mapping that holds b, or nil.
func (m *fileMaps) find(b []byte) *mapping {
	start := addr(b)
	if mp := m.byBase[start]; mp != nil {
		return mp
	}
	if !m.sorted {
		slices.SortFunc(m.maps, func(x, y *mapping) int { return cmp.Compare(addr(x.data), addr(y.data)) })
		m.sorted = true
	}
	// The last mapping that starts at or before b is the only one that
	// can hold it: mappings do not overlap.
	i, found := slices.BinarySearchFunc(m.maps, start, func(mp *mapping, at uintptr) int { return cmp.Compare(addr(mp.data), at) })
	if !found {
		i--
	}
	if i >= 0 {
		if mp := m.maps[i]; start < addr(mp.data)+uintptr(len(mp.data)) {
			return mp
		}
	}
	return nil
}

// unmapAll releases every mapping, the arenas too.
func (m *fileMaps) unmapAll() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, mp := range m.maps {
		syscall.Munmap(mp.data)
	}
	for _, a := range m.arenas {
		syscall.Munmap(a)
	}
	m.maps, m.byBase, m.left = nil, nil, nil
	m.arenas, m.free = nil, nil
	m.leftBytes = 0
}

// imageBuffer returns n bytes for a device image to be decompressed into,
// outside the Go heap: in an anonymous mapping (an arena), at a page
// boundary, and unmapped with the inputs' mappings (unmapAll). Parsing
// leaves the image's sections windows into it, as it does into a mapped
// file, so that the link keeps the image to its end; in the heap, an
// image was live to the end whole. Here releaseUnused can hand back the
// pages of what no pass reads any more (the code of the weak copies that
// lost and of the functions dead-code elimination removed), and the
// collector neither counts nor paces by the images. Where nothing can be
// mapped the buffer is the heap's.
func (m *fileMaps) imageBuffer(n int) []byte {
	size := int(pageRound(n))
	m.mu.Lock()
	if size > len(m.free) {
		a, err := syscall.Mmap(-1, 0, max(size, imageArenaBytes), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
		if err != nil {
			m.mu.Unlock()
			return make([]byte, n)
		}
		m.arenas = append(m.arenas, a)
		m.free = a
	}
	b := m.free[:n:n]
	m.free = m.free[size:]
	m.mu.Unlock()
	// Its pages are made in one call, not faulted in one at a time as the
	// decompression writes them: on the weak-template program (8.7 MB of
	// images; perf stat, 30 links each, two rounds) 5,460 page faults ->
	// 3,250, task-clock 34.45 and 33.41 -> 31.96 and 32.68 ms.
	syscall.Syscall(syscall.SYS_MADVISE, addr(b), uintptr(size), madvPopulateWrite)
	return b
}

// madvPopulateWrite is MADV_POPULATE_WRITE (Linux 5.14): populate the
// pages of a range for writing, as write faults would. Older kernels
// refuse it, and the pages are faulted in as before.
const madvPopulateWrite = 23

// imageArenaBytes is the address space imageBuffer maps at a time: its
// pages take memory only once an image is written into them.
const imageArenaBytes = 4 << 20

// inArena says whether b lies in an arena of imageBuffer's.
func (m *fileMaps) inArena(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.ContainsFunc(m.arenas, func(a []byte) bool { return within(b, a) })
}

// releaseUnused hands back the whole pages of [at, at+n), which lie in
// an arena of imageBuffer's and which nothing will read again: read, they
// would be zeros.
func (m *fileMaps) releaseUnused(at, n uintptr) {
	p := uintptr(os.Getpagesize())
	lo, hi := (at+p-1)&^(p-1), (at+n)&^(p-1)
	switch {
	case hi <= lo:
		return
	case m.poison:
		for _, a := range m.arenas {
			if lo >= addr(a) && hi <= addr(a)+uintptr(len(a)) {
				for i := range a[lo-addr(a) : hi-addr(a)] {
					a[lo-addr(a)+uintptr(i)] = poisonByte
				}
			}
		}
	default:
		madvise(lo, hi-lo)
	}
	m.released += int(hi - lo)
}

// fileID is what os.SameFile compares on this system: a file's device and
// inode.
type fileID struct{ dev, ino uint64 }

// sameFileID returns fi's fileID, or false where fi does not carry one.
func sameFileID(fi os.FileInfo) (fileID, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || st == nil {
		return fileID{}, false
	}
	return fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)}, true
}
