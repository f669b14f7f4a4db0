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
