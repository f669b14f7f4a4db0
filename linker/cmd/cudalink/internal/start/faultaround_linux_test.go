package start

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"unsafe"
)

// TestNoFaultAround: reading a page of a file mapping registered as
// noFaultAround registers the code maps that page alone; the same read of
// an unregistered mapping maps the pages around it too (the kernel's
// fault-around, which this turns off).
func TestNoFaultAround(t *testing.T) {
	page := syscall.Getpagesize()
	const pages = 64
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, bytes.Repeat([]byte{1}, pages*page), 0o644); err != nil {
		t.Fatal(err)
	}
	fd, ok := newAsyncWPFd()
	if !ok {
		t.Skip("no asynchronous write-protecting userfaultfd here (Linux 6.7 on, and a sandbox that allows it)")
	}
	defer syscall.Close(fd)
	for _, register := range []bool{false, true} {
		b := mapFile(t, path, pages*page)
		start := uintptr(unsafe.Pointer(&b[0]))
		if register && !registerWP(fd, start, start+uintptr(len(b))) {
			t.Fatal("the file mapping could not be registered")
		}
		sum := int(b[pages/2*page]) // a read fault in the middle
		got := presentPages(t, b)
		switch {
		case register && got != 1:
			t.Errorf("registered: %d pages present after reading one (sum %d), want 1", got, sum)
		case !register:
			t.Logf("not registered: %d pages present after reading one (the kernel's fault-around)", got)
		}
	}
}

// TestNoFaultAroundCode: init registered the test binary's code (where
// the kernel allows it: smaps then lists uw among the mapping's VmFlags).
func TestNoFaultAroundCode(t *testing.T) {
	if fd, ok := newAsyncWPFd(); !ok {
		t.Skip("no asynchronous write-protecting userfaultfd here")
	} else {
		syscall.Close(fd)
	}
	if faultAroundFd < 0 {
		t.Fatal("init did not register the code")
	}
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	f := TestNoFaultAroundCode
	pc := **(**uintptr)(unsafe.Pointer(&f))
	inCode := false
	for line := range bytes.Lines(smaps) {
		if fields := bytes.Fields(line); len(fields) > 0 && !bytes.HasSuffix(fields[0], []byte(":")) {
			// A mapping's line, as in /proc/self/maps; its
			// attributes follow.
			m, ok := nextMapping(&line)
			inCode = ok && m.start <= pc && pc < m.end
			continue
		}
		if inCode && bytes.HasPrefix(line, []byte("VmFlags:")) {
			if !bytes.Contains(line, []byte(" uw")) {
				t.Errorf("the code's mapping is not registered: %s", bytes.TrimSpace(line))
			}
			return
		}
	}
	t.Error("the code's mapping is not in /proc/self/smaps")
}

// TestFaultAround: FaultAround unregisters the 64 KiB windows of the code
// it is given (smaps lists no uw for the mapping that holds them now),
// and the rest of the code stays registered. The window is registered
// again at the end.
func TestFaultAround(t *testing.T) {
	if faultAroundFd < 0 {
		t.Skip("init did not register the code")
	}
	f := TestFaultAround
	pc := **(**uintptr)(unsafe.Pointer(&f))
	const window = 64 << 10
	lo, hi := max(pc&^(window-1), codeStart), min(pc&^(window-1)+window, codeEnd)
	FaultAround(pc, pc+1)
	defer registerWP(faultAroundFd, lo, hi)
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	var m mapping
	seen := 0
	for line := range bytes.Lines(smaps) {
		if fields := bytes.Fields(line); len(fields) > 0 && !bytes.HasSuffix(fields[0], []byte(":")) {
			m, _ = nextMapping(&line)
			continue
		}
		if !bytes.HasPrefix(line, []byte("VmFlags:")) || m.end <= codeStart || m.start >= codeEnd {
			continue
		}
		registered := bytes.Contains(line, []byte(" uw"))
		switch {
		case m.start == lo && m.end == hi:
			seen++
			if registered {
				t.Errorf("[%#x, %#x), given its fault-around back, is still registered", lo, hi)
			}
		case m.start <= pc && pc < m.end:
			t.Errorf("the code's mapping [%#x, %#x) holds %#x, want [%#x, %#x)", m.start, m.end, pc, lo, hi)
		default:
			seen++
			if !registered {
				t.Errorf("[%#x, %#x) of the code is not registered", m.start, m.end)
			}
		}
	}
	if want := 1 + btoi(lo > codeStart) + btoi(hi < codeEnd); seen != want {
		t.Errorf("the code is %d mappings in /proc/self/smaps, want %d", seen, want)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// mapFile maps n bytes of the file path, private and read-only, until the
// test ends.
func mapFile(t *testing.T, path string, n int) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := syscall.Mmap(int(f.Fd()), 0, n, syscall.PROT_READ, syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Munmap(b) })
	return b
}

// presentPages counts the pages of b that are mapped (/proc/self/pagemap).
func presentPages(t *testing.T, b []byte) int {
	t.Helper()
	pagemap, err := syscall.Open("/proc/self/pagemap", syscall.O_RDONLY, 0)
	if err != nil {
		t.Skip("no /proc/self/pagemap:", err)
	}
	defer syscall.Close(pagemap)
	page := uintptr(syscall.Getpagesize())
	start := uintptr(unsafe.Pointer(&b[0]))
	entries := make([]uint64, uintptr(len(b))/page)
	e := unsafe.Slice((*byte)(unsafe.Pointer(&entries[0])), len(entries)*8)
	if _, err := syscall.Pread(pagemap, e, int64(start/page*8)); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, x := range entries {
		n += int(x >> 63)
	}
	return n
}
