//go:build !linux

package start

// slowMonitor and restoreMonitor do nothing but on Linux
// (monitor_linux.go).
func slowMonitor()    {}
func restoreMonitor() {}
