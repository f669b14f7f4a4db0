//go:build linux

package linker

import (
	"errors"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"syscall"
	"unsafe"
)

// createTemp creates a new file in dir named pattern with the last "*"
// replaced by a random string, as os.CreateTemp does, but with mode 0666
// less the umask, the mode nvlink gives its outputs, and opened with a
// plain system call: an *os.File that os opens is registered with the
// runtime's poller, which for a regular file only costs a one-shot link
// the poller's start (an epoll instance, an eventfd and six more system
// calls) and its later polling.
func createTemp(dir, pattern string) (*os.File, error) {
	fd := -1
	name, err := claimTempName(dir, pattern, func(name string) (err error) {
		fd, err = syscall.Open(name, syscall.O_RDWR|syscall.O_CREAT|syscall.O_EXCL|syscall.O_CLOEXEC, 0o666)
		return err
	})
	if err != nil {
		return nil, &os.PathError{Op: "createtemp", Path: name, Err: err}
	}
	return os.NewFile(uintptr(fd), name), nil
}

// createTempOutput opens an unnamed file in dir (O_TMPFILE), which
// vanishes if the process ends before it is named; on a file system
// without O_TMPFILE, a named temporary file. Either has mode 0666 less
// the umask, as nvlink's outputs.
func createTempOutput(dir, pattern string) (*tempOutput, error) {
	fd, err := syscall.Open(dir, syscall.O_RDWR|oTmpfile|syscall.O_CLOEXEC, 0o666)
	if err != nil {
		return newNamedTemp(dir, pattern)
	}
	// The name is the pattern's, for messages; the file has none yet.
	return &tempOutput{f: os.NewFile(uintptr(fd), inDir(dir, pattern))}, nil
}

// oTmpfile is O_TMPFILE (__O_TMPFILE | O_DIRECTORY), the same on every
// Linux architecture Go supports but alpha, sparc and parisc.
const oTmpfile = 0o20000000 | syscall.O_DIRECTORY

// publish gives the finished unnamed file t the name path: a hard link
// from its /proc/self/fd entry (linkat with AT_SYMLINK_FOLLOW, which needs
// no privilege). When path exists, the link is made under a temporary
// name that replaceFile then moves to path (a signal in the microseconds
// between the two leaves that name behind); exists says the link found a
// file there (writableIfExists), so that the link to path, which would
// fail, is not tried. Where /proc is not mounted, t is copied into a named
// temporary file.
func (t *tempOutput) publish(path string, exists bool) error {
	proc := "/proc/self/fd/" + strconv.Itoa(int(t.f.Fd()))
	if !exists {
		err := linkat(proc, path)
		if err == nil {
			return t.f.Close()
		}
		if !errors.Is(err, syscall.EEXIST) {
			return t.copyAndReplace(path, exists)
		}
	}
	dir, pattern := tempNames(path)
	name, err := claimTempName(dir, pattern, func(name string) error { return linkat(proc, name) })
	if err != nil {
		if exists && !errors.Is(err, syscall.EEXIST) {
			// The first link tried, which failed as the link to path
			// would have.
			return t.copyAndReplace(path, exists)
		}
		t.f.Close()
		return &os.LinkError{Op: "link", Old: proc, New: name, Err: err}
	}
	defer t.f.Close()
	if err := replaceFile(name, path); err != nil {
		os.Remove(name)
		return err
	}
	return nil
}

// copyAndReplace is publish where the unnamed file t cannot be linked
// from /proc (not mounted): it is copied into a named temporary file,
// which then replaces path.
func (t *tempOutput) copyAndReplace(path string, exists bool) error {
	if err := t.copyToNamed(tempNames(path)); err != nil {
		return err
	}
	return t.replace(path, exists)
}

// copyToNamed copies the unnamed file t, contents and mode, into a new
// named temporary file and makes that t's file.
func (t *tempOutput) copyToNamed(dir, pattern string) error {
	named, err := newNamedTemp(dir, pattern)
	if err != nil {
		t.f.Close()
		return err
	}
	if _, err = t.f.Seek(0, io.SeekStart); err == nil {
		_, err = io.Copy(named.f, t.f)
	}
	if err == nil {
		var fi os.FileInfo
		if fi, err = t.f.Stat(); err == nil {
			err = named.f.Chmod(fi.Mode().Perm())
		}
	}
	t.f.Close()
	if err != nil {
		named.discard()
		return err
	}
	*t = *named
	return nil
}

// linkat makes newpath a hard link to the file the symbolic link oldpath
// (a /proc/self/fd entry) names.
func linkat(oldpath, newpath string) error {
	const atSymlinkFollow = 0x400
	cwd := -100 // AT_FDCWD
	po, err := syscall.BytePtrFromString(oldpath)
	if err != nil {
		return err
	}
	pn, err := syscall.BytePtrFromString(newpath)
	if err != nil {
		return err
	}
	_, _, errno := syscall.Syscall6(syscall.SYS_LINKAT, uintptr(cwd), uintptr(unsafe.Pointer(po)), uintptr(cwd), uintptr(unsafe.Pointer(pn)), atSymlinkFollow, 0)
	if errno != 0 {
		return errno
	}
	return nil
}

// endBySignal ends the process as sig would have ended it, had nothing
// caught it.
func endBySignal(sig os.Signal) {
	signal.Reset(sig)
	if s, ok := sig.(syscall.Signal); ok {
		syscall.Kill(os.Getpid(), s)
	}
	os.Exit(1)
}

// replaceFile moves the finished temporary output tmp to path, which a
// reader sees either as it was or with the new contents. When path is a
// regular file already, the two are exchanged (renameat2 with
// RENAME_EXCHANGE) and the old contents, now at tmp, are removed; else tmp
// is renamed.
//
// A plain rename over an existing file costs far more than the link's
// own writing on ext4, which (mounted with auto_da_alloc, its default)
// allocates and starts writing back the new file's blocks before such a
// rename returns: 7 to 60 ms of a 10-object link that takes 5 ms of CPU,
// against 0.05 ms for a rename to a new name or an exchange. Relinking
// over the previous output is what every incremental build does.
func replaceFile(tmp, path string) error {
	var st syscall.Stat_t
	if err := syscall.Lstat(path, &st); err == nil && st.Mode&syscall.S_IFMT == syscall.S_IFREG {
		if err := exchangeFiles(tmp, path); err == nil {
			// tmp holds the old output now: nothing names it but tmp.
			os.Remove(tmp)
			return nil
		}
		// No renameat2, or a file system without RENAME_EXCHANGE: rename.
	}
	return os.Rename(tmp, path)
}

// exchangeFiles swaps the files at a and b (renameat2 RENAME_EXCHANGE).
func exchangeFiles(a, b string) error {
	var nr uintptr
	switch runtime.GOARCH {
	case "amd64":
		nr = 316
	case "arm64", "riscv64", "loong64":
		nr = 276
	default:
		return syscall.ENOSYS
	}
	pa, err := syscall.BytePtrFromString(a)
	if err != nil {
		return err
	}
	pb, err := syscall.BytePtrFromString(b)
	if err != nil {
		return err
	}
	const renameExchange = 1 << 1
	cwd := -100 // AT_FDCWD
	_, _, errno := syscall.Syscall6(nr, uintptr(cwd), uintptr(unsafe.Pointer(pa)), uintptr(cwd), uintptr(unsafe.Pointer(pb)), renameExchange, 0)
	if errno != 0 {
		return errno
	}
	return nil
}
