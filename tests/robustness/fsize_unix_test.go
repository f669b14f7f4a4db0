//go:build unix

package robustness

import (
	"syscall"
	"testing"
)

// limitFileSize caps the size of any file the test process writes at n
// bytes for the test's duration, so an output that runs away fails its
// write (EFBIG; Go ignores SIGXFSZ) instead of filling the disk.
func limitFileSize(t *testing.T, n uint64) {
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
		t.Logf("cannot read RLIMIT_FSIZE: %v", err)
		return
	}
	lim := old
	if lim.Cur > n {
		lim.Cur = n
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Logf("cannot set RLIMIT_FSIZE: %v", err)
		return
	}
	t.Cleanup(func() { syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old) })
}
