//go:build unix

package linker

import (
	"errors"
	"os"
	"syscall"
)

// writableIfExists says why the existing file at path could not be opened
// for writing (EACCES for a file read-only to the user, ETXTBSY for a
// running executable, EROFS, EPERM for an immutable file), as nvlink's
// opening it fails, or nil when it could be or does not exist; and what
// the output replacing it keeps of it (keepMode, publish). Opening it
// writes nothing (no O_TRUNC), and O_NONBLOCK keeps a FIFO put there
// since outputTarget looked from blocking. It is opened with a plain
// system call: an *os.File opened with O_NONBLOCK is registered with the
// runtime's poller, which a one-shot link would start for it alone (an
// epoll instance, an eventfd and their system calls, and the code's pages).
func writableIfExists(path string) (existingOutput, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, syscall.O_WRONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return existingOutput{}, nil
		}
		return existingOutput{}, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return existingOutput{exists: err == nil}, nil
	}
	return existingOutput{exists: true, regular: true, perm: os.FileMode(st.Mode).Perm()}, nil
}
