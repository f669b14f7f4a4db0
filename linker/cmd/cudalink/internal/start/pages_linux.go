package start

import (
	"syscall"
	"unsafe"
)

// ReleaseStartupPages hands back the executable's read-only pages that
// the process has mapped so far (madvise MADV_DONTNEED on its code and
// read-only data), before a one-shot link. They stay in the page cache;
// the link maps again only those it uses. Linux maps the 64 KiB around
// each page fault in the binary, and starting up (the runtime's
// initialisation: verifying the function tables, the preemption set-up,
// the memory profiler's first samples; the packages' initialisation)
// touches windows the link never reads again: at the end of a 10-object
// link 1.4 MiB of read-only data and function tables were resident, 0.6
// after. Interleaved runs (docs/benchmarks.md, perf14): flat 10 objects
// peak RSS 5092 -> 3932 KiB (nvlink 3888), flat 100 10624 -> 9508, deep
// chain 100 10880 -> 9824; it costs about 0.12 ms (reading the page map,
// two madvise calls) and 30 page faults. The executable's mappings are
// those init found (exeMappings).
//
// A mapping holding a page of its own (anonymous: written since it was
// mapped, as a position-independent binary's relocated read-only data is,
// or a debugger's breakpoint) is left alone: dropping it would lose what
// was written.
func ReleaseStartupPages() {
	maps := exeMappings()
	if len(maps) == 0 {
		return
	}
	pagemap, err := syscall.Open("/proc/self/pagemap", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	defer syscall.Close(pagemap)
	for _, m := range maps {
		if !m.writable && onlyFilePages(pagemap, m.start, m.end) {
			syscall.Syscall(syscall.SYS_MADVISE, m.start, m.end-m.start, syscall.MADV_DONTNEED)
		}
	}
}

// exeMapping is one of the executable's mappings, as /proc/self/maps
// listed it.
type exeMapping struct {
	start, end uintptr
	writable   bool
}

// exeMaps holds the executable's mappings (exeMappings), nExeMaps how
// many; exeMapsRead says they were looked for.
var (
	exeMaps     [16]exeMapping
	nExeMaps    int
	exeMapsRead bool
)

// exeMappings returns the mappings of the executable's file (its device
// and inode: those of the mapping that holds this function's code), from
// /proc/self/maps read the first time (init's noFaultAround). They do not
// change while the process runs (nothing maps, unmaps or protects the
// binary's segments again), so ReleaseStartupPages, later, does not read
// the file a second time (an open, two reads and a close, and the kernel's
// walk of every mapping: 0.9% of a 10-object link's samples). Empty if the
// file cannot be read or the code's mapping is not in it; at most
// len(exeMaps) (a Go executable has three or four).
func exeMappings() []exeMapping {
	if exeMapsRead {
		return exeMaps[:nExeMaps]
	}
	exeMapsRead = true
	var buf [16 << 10]byte
	n := readFile("/proc/self/maps", buf[:])
	if n <= 0 {
		return nil
	}
	f := exeMappings
	pc := **(**uintptr)(unsafe.Pointer(&f)) // this function's code
	var exe mapping
	for rest := buf[:n]; ; {
		m, ok := nextMapping(&rest)
		if !ok {
			return nil
		}
		if m.start <= pc && pc < m.end && m.inode != nil {
			exe = m
			break
		}
	}
	for rest := buf[:n]; nExeMaps < len(exeMaps); {
		m, ok := nextMapping(&rest)
		if !ok {
			break
		}
		if string(m.dev) == string(exe.dev) && string(m.inode) == string(exe.inode) {
			exeMaps[nExeMaps] = exeMapping{start: m.start, end: m.end, writable: m.perms[1] == 'w'}
			nExeMaps++
		}
	}
	return exeMaps[:nExeMaps]
}

// onlyFilePages says whether every page of [start, end) that is present is
// the file's (none anonymous), from /proc/self/pagemap: bit 63 says the
// page is present, bit 61 that it is a file page; bit 62 says it is in swap,
// which only an anonymous page can be.
func onlyFilePages(pagemap int, start, end uintptr) bool {
	page := uintptr(syscall.Getpagesize())
	var entries [1024]uint64
	b := unsafe.Slice((*byte)(unsafe.Pointer(&entries[0])), len(entries)*8)
	for p := start / page; p < end/page; {
		want := min(int(end/page-p), len(entries))
		n, err := syscall.Pread(pagemap, b[:want*8], int64(p*8))
		if err != nil || n < want*8 {
			return false
		}
		for _, e := range entries[:want] {
			if e>>63&1 == 1 && e>>61&1 == 0 || e>>62&1 == 1 {
				return false
			}
		}
		p += uintptr(want)
	}
	return true
}

// mapping is a line of /proc/self/maps: "start-end perms offset dev inode
// path". inode is nil when the mapping is not a file's.
type mapping struct {
	start, end        uintptr
	perms, dev, inode []byte
}

// nextMapping takes the first line off *rest; false at the end or on a
// line cut short (buf was full) or not understood.
func nextMapping(rest *[]byte) (mapping, bool) {
	s := *rest
	i := 0
	for i < len(s) && s[i] != '\n' {
		i++
	}
	if i == len(s) {
		return mapping{}, false
	}
	line := s[:i]
	*rest = s[i+1:]
	var fields [5][]byte
	for k := range fields {
		for len(line) > 0 && line[0] == ' ' {
			line = line[1:]
		}
		j := 0
		for j < len(line) && line[j] != ' ' {
			j++
		}
		fields[k], line = line[:j], line[j:]
	}
	m := mapping{perms: fields[1], dev: fields[3], inode: fields[4]}
	if len(m.perms) < 4 || len(m.inode) == 0 {
		return mapping{}, false
	}
	if string(m.inode) == "0" {
		m.inode = nil
	}
	addr := fields[0]
	dash := 0
	for dash < len(addr) && addr[dash] != '-' {
		dash++
	}
	var ok1, ok2 bool
	m.start, ok1 = parseHex(addr[:dash])
	if dash < len(addr) {
		m.end, ok2 = parseHex(addr[dash+1:])
	}
	return m, ok1 && ok2 && m.start < m.end
}

func parseHex(s []byte) (uintptr, bool) {
	var v uintptr
	for _, c := range s {
		switch {
		case '0' <= c && c <= '9':
			v = v<<4 | uintptr(c-'0')
		case 'a' <= c && c <= 'f':
			v = v<<4 | uintptr(c-'a'+10)
		default:
			return 0, false
		}
	}
	return v, len(s) > 0
}

// readFile reads what fits of a file into buf; 0 if it cannot.
func readFile(path string, buf []byte) int {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return 0
	}
	defer syscall.Close(fd)
	n := 0
	for n < len(buf) {
		m, err := syscall.Read(fd, buf[n:])
		if err != nil || m <= 0 {
			break
		}
		n += m
	}
	return n
}
