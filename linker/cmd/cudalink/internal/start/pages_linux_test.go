package start

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"unsafe"
)

// TestReleaseStartupPages: the test binary's code and read-only data
// resident before the call are handed back (what runs afterwards maps
// some again).
func TestReleaseStartupPages(t *testing.T) {
	before := exeResidentPages(t)
	ReleaseStartupPages()
	after := exeResidentPages(t)
	if after >= before {
		t.Errorf("resident pages of the executable's read-only mappings: %d before, %d after", before, after)
	}
}

// TestExeMappings: the executable's mappings init found (exeMappings,
// which ReleaseStartupPages uses without reading /proc/self/maps again)
// are those the file lists now, the code among them, read-only, as
// registering it for noFaultAround left it.
func TestExeMappings(t *testing.T) {
	var buf [16 << 10]byte
	n := readFile("/proc/self/maps", buf[:])
	exe, err := os.Stat("/proc/self/exe")
	if n <= 0 || err != nil {
		t.Skip("no /proc/self/maps or /proc/self/exe")
	}
	ino := strconv.FormatUint(exe.Sys().(*syscall.Stat_t).Ino, 10)
	var want []exeMapping
	for rest := buf[:n]; ; {
		m, ok := nextMapping(&rest)
		if !ok {
			break
		}
		if m.inode != nil && string(m.inode) == ino {
			want = append(want, exeMapping{start: m.start, end: m.end, writable: m.perms[1] == 'w'})
		}
	}
	got := exeMappings()
	if !slices.Equal(got, want) {
		t.Errorf("exeMappings() = %+v, /proc/self/maps lists %+v", got, want)
	}
	f := TestExeMappings
	pc := **(**uintptr)(unsafe.Pointer(&f))
	if !slices.ContainsFunc(got, func(m exeMapping) bool { return m.start <= pc && pc < m.end && !m.writable }) {
		t.Errorf("no read-only mapping of %+v holds the code (%#x)", got, pc)
	}
}

// TestOnlyFilePages: a private mapping of a file whose pages were only
// read is the file's; one with a page written to (anonymous since, as a
// debugger's breakpoint or a relocated table would be) is not, and
// ReleaseStartupPages would leave it alone.
func TestOnlyFilePages(t *testing.T) {
	page := syscall.Getpagesize()
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, make([]byte, 4*page), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := syscall.Mmap(int(f.Fd()), 0, 4*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(b)
	pagemap, err := syscall.Open("/proc/self/pagemap", syscall.O_RDONLY, 0)
	if err != nil {
		t.Skip("no /proc/self/pagemap:", err)
	}
	defer syscall.Close(pagemap)
	start := uintptr(unsafe.Pointer(&b[0]))
	end := start + uintptr(len(b))
	sum := 0
	for i := 0; i < len(b); i += page {
		sum += int(b[i]) // read: the file's pages
	}
	if !onlyFilePages(pagemap, start, end) {
		t.Errorf("read-only use: onlyFilePages = false, want true (sum %d)", sum)
	}
	b[2*page] = 1 // written: an anonymous copy
	if onlyFilePages(pagemap, start, end) {
		t.Errorf("a page written: onlyFilePages = true, want false")
	}
}

// TestNextMapping reads the lines of /proc/self/maps as the kernel writes
// them, and stops at one cut short.
func TestNextMapping(t *testing.T) {
	maps := []byte("00400000-00655000 r-xp 00000000 fe:00 10087 /tmp/cudalink\n" +
		"7fffb1110000-7fffb1190000 rw-p 00000000 00:00 0 \n" +
		"7ffff7ffd000-7ffff7fff000 r-xp 00000000 00:00 0                          [vdso]\n" +
		"7ffffffde000-7ffffffff000 rw-p 00000000 00:00 0")
	m, ok := nextMapping(&maps)
	if !ok || m.start != 0x400000 || m.end != 0x655000 || string(m.perms) != "r-xp" || string(m.dev) != "fe:00" || string(m.inode) != "10087" {
		t.Errorf("first line: %+v, %v", m, ok)
	}
	for _, want := range []uintptr{0x7fffb1110000, 0x7ffff7ffd000} {
		m, ok = nextMapping(&maps)
		if !ok || m.start != want || m.inode != nil {
			t.Errorf("anonymous mapping at %#x: %+v, %v", want, m, ok)
		}
	}
	if m, ok = nextMapping(&maps); ok {
		t.Errorf("a line without its newline: %+v, want none", m)
	}
}

// exeResidentPages counts the present pages of the executable's mappings
// that are not writable.
func exeResidentPages(t *testing.T) int {
	t.Helper()
	var buf [16 << 10]byte
	n := readFile("/proc/self/maps", buf[:])
	exe, err := os.Stat("/proc/self/exe")
	if n <= 0 || err != nil {
		t.Skip("no /proc/self/maps or /proc/self/exe")
	}
	ino := exe.Sys().(*syscall.Stat_t).Ino
	pagemap, err := syscall.Open("/proc/self/pagemap", syscall.O_RDONLY, 0)
	if err != nil {
		t.Skip("no /proc/self/pagemap:", err)
	}
	defer syscall.Close(pagemap)
	page := uintptr(syscall.Getpagesize())
	count := 0
	for rest := buf[:n]; ; {
		m, ok := nextMapping(&rest)
		if !ok {
			break
		}
		if m.inode == nil || string(m.inode) != strconv.FormatUint(ino, 10) || m.perms[1] == 'w' {
			continue
		}
		entries := make([]uint64, (m.end-m.start)/page)
		b := unsafe.Slice((*byte)(unsafe.Pointer(&entries[0])), len(entries)*8)
		if _, err := syscall.Pread(pagemap, b, int64(m.start/page*8)); err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			count += int(e >> 63)
		}
	}
	return count
}
