//go:build linux && !amd64 && !arm64

package start

// sysUserfaultfd is userfaultfd's system call number (faultaround_linux.go);
// 0: none here, and noFaultAround does nothing.
const sysUserfaultfd = 0
