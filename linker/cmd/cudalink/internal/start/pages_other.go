//go:build !linux

package start

// ReleaseStartupPages does nothing but on Linux (pages_linux.go).
func ReleaseStartupPages() {}
