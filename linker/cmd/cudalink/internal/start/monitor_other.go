//go:build !linux

package start

// slowMonitor and restoreMonitor do nothing but on Linux
// (monitor_linux.go).
func slowMonitor()    {}
func restoreMonitor() {}

// noFaultAround and restoreFaultAround do nothing but on Linux
// (faultaround_linux.go).
func noFaultAround()      {}
func restoreFaultAround() {}

// FaultAround does nothing but on Linux (faultaround_linux.go), where it
// gives a span of the code the kernel's fault-around back.
func FaultAround(lo, hi uintptr) {}
