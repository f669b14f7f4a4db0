package worker

import (
	"fmt"
	"os"
	"syscall"
)

// IsolateStdout gives the protocol a stdout of its own: it moves the
// process's standard output to a new close-on-exec descriptor, which it
// returns, and points descriptor 1 and os.Stdout at standard error. From
// then on anything else that prints to stdout (a stray fmt.Println, a C
// library, a child process) ends in Bazel's worker log rather than in the
// middle of a response, where one byte can make Bazel fail the build or, in
// proto mode, wait forever. Call it first thing, before any goroutine that
// might print.
func IsolateStdout() (*os.File, error) {
	fd, _, errno := syscall.Syscall(syscall.SYS_FCNTL, 1, syscall.F_DUPFD_CLOEXEC, 3)
	if errno != 0 {
		return nil, fmt.Errorf("duplicating stdout: %v", errno)
	}
	if err := syscall.Dup3(2, 1, 0); err != nil {
		syscall.Close(int(fd))
		return nil, fmt.Errorf("pointing stdout at stderr: %v", err)
	}
	os.Stdout = os.Stderr
	return os.NewFile(fd, "worker-protocol-stdout"), nil
}
