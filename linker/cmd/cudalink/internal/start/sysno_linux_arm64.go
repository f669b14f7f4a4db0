package start

// sysUserfaultfd is userfaultfd's system call number (faultaround_linux.go).
const sysUserfaultfd = 282
