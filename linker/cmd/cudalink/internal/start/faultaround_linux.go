package start

import (
	"syscall"
	"unsafe"
)

// noFaultAround turns the kernel's fault-around off for the executable's
// code: the first time a page of a file mapping is read, Linux maps the
// 64 KiB around it as well (the pages of it in the page cache), and a Go
// binary's code is laid out by package, not by use, so a link that
// executes 252 of the code's pages (flat 10 objects; callgrind) had 31
// such windows, 1,984 KiB, resident at its end, half of it never run: a
// small link's largest part of its peak memory. A mapping registered with
// a userfaultfd for write protection is never faulted around (the kernel's
// uffd_disable_fault_around); in the asynchronous mode (Linux 6.7 on) any
// mapping can be, and the kernel resolves a write fault itself, so nothing
// serves the descriptor: it is only kept open, for the registration lasts
// as long as it does. Nothing is write-protected (that takes an ioctl this
// does not make): the code reads and runs as before, a page at a time.
// Where the kernel or a sandbox refuses (an older kernel, a seccomp filter
// without userfaultfd), the process goes on as before.
//
// Each page is then a fault of its own, about 2 µs on a 2-CPU VM instead of
// 6 µs for the 16 pages of a window. It runs in init, before the other
// packages' initialisation: their pages, and what ReleaseStartupPages
// hands back, are mapped again a page at a time. Interleaved runs (31 of
// flat 10 objects, 21 of flat and deep chain 100; perf32): peak RSS 4,288
// -> 3,416 KiB (nvlink 3,864), 8,640 -> 7,780 (8,336), 8,768 -> 7,784
// (8,856); page faults 569 -> 825, 1,735 -> 2,009, 1,760 -> 2,016; CPU
// +0.2 to 0.4 ms. The read-only data stays faulted around: registering it
// too made flat 10 no smaller and cost 60 faults more.
func noFaultAround() {
	f := noFaultAround
	pc := **(**uintptr)(unsafe.Pointer(&f)) // this function's code
	for _, m := range exeMappings() {
		if m.start <= pc && pc < m.end && !m.writable {
			if fd, ok := newAsyncWPFd(); ok {
				if registerWP(fd, m.start, m.end) {
					faultAroundFd = fd
					codeStart, codeEnd = m.start, m.end
				} else {
					syscall.Close(fd)
				}
			}
			return
		}
	}
}

// faultAroundFd is the userfaultfd that noFaultAround registered the code
// with; -1 if none. codeStart and codeEnd are the code's mapping.
var (
	faultAroundFd      = -1
	codeStart, codeEnd uintptr
)

// FaultAround gives the code in [lo, hi), rounded out to the kernel's
// 64 KiB fault-around windows, its fault-around back: code that a link
// runs most of (linker.PassCode), where a fault of one window, about 6 µs
// on a 2-CPU VM, maps pages that would each have been a fault of about 2
// µs, for the few pages of the windows that it does not run. Flat 10
// objects (sm_80), the linker package's code (11 windows): 125 page
// faults fewer for 144 KiB more resident (perf33). It does nothing where
// noFaultAround did nothing, or for a span outside the code.
func FaultAround(lo, hi uintptr) {
	const window = 64 << 10
	lo, hi = max(lo&^(window-1), codeStart), min((hi+window-1)&^(window-1), codeEnd)
	if faultAroundFd < 0 || lo >= hi {
		return
	}
	r := struct{ start, len uint64 }{uint64(lo), uint64(hi - lo)}
	syscall.Syscall(syscall.SYS_IOCTL, uintptr(faultAroundFd), uffdioUnregister, uintptr(unsafe.Pointer(&r)))
}

// restoreFaultAround gives the code back its fault-around (the persistent
// worker's: it runs for long, and faults its pages in once): closing the
// userfaultfd ends its registrations.
func restoreFaultAround() {
	if faultAroundFd >= 0 {
		syscall.Close(faultAroundFd)
		faultAroundFd = -1
	}
}

// The userfaultfd interface (linux/userfaultfd.h).
const (
	uffdUserModeOnly    = 1
	uffdAPI             = 0xaa
	uffdFeatureWPAsync  = 1 << 15
	uffdioAPI           = 0xc018aa3f // _IOWR(0xaa, 0x3f, struct uffdio_api), as on amd64 and arm64
	uffdioRegister      = 0xc020aa00 // _IOWR(0xaa, 0x00, struct uffdio_register)
	uffdioRegisterModeW = 1 << 1
	uffdioUnregister    = 0x8010aa01 // _IOR(0xaa, 0x01, struct uffdio_range)
)

// newAsyncWPFd opens a userfaultfd for user-mode faults (which needs no
// privilege) with asynchronous write protection.
func newAsyncWPFd() (int, bool) {
	if sysUserfaultfd == 0 {
		return -1, false
	}
	fd, _, errno := syscall.RawSyscall(sysUserfaultfd, syscall.O_CLOEXEC|uffdUserModeOnly, 0, 0)
	if errno != 0 {
		return -1, false
	}
	api := struct{ api, features, ioctls uint64 }{uffdAPI, uffdFeatureWPAsync, 0}
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, uffdioAPI, uintptr(unsafe.Pointer(&api))); errno != 0 {
		syscall.Close(int(fd))
		return -1, false
	}
	return int(fd), true
}

// registerWP registers [start, end) with the userfaultfd fd for write
// protection.
func registerWP(fd int, start, end uintptr) bool {
	reg := struct{ start, len, mode, ioctls uint64 }{uint64(start), uint64(end - start), uffdioRegisterModeW, 0}
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), uffdioRegister, uintptr(unsafe.Pointer(&reg)))
	return errno == 0
}
