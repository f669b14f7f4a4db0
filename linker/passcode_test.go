package linker

import (
	"runtime"
	"strings"
	"testing"
)

// TestPassCode: the span PassCode gives holds nearly all of this
// package's code, as the test binary's function table places it (the
// package's files' functions, tests included, laid out in file name
// order), looked up every 64 bytes from 2 MiB before the span to 2 MiB
// after it: a file whose name sorts before bank2.go, or a layout that
// puts the package in pieces, would leave code of the link out.
func TestPassCode(t *testing.T) {
	lo, hi := PassCode()
	if lo >= hi || hi-lo > 16<<20 {
		t.Fatalf("PassCode() = %#x, %#x", lo, hi)
	}
	const pkg = "github.com/cudalink/cudalink/linker."
	in, all := 0, 0
	for pc := lo - min(lo, 2<<20); pc < hi+2<<20; pc += 64 {
		if f := runtime.FuncForPC(pc); f != nil && strings.HasPrefix(f.Name(), pkg) {
			all++
			if lo <= pc && pc < hi {
				in++
			}
		}
	}
	if in < all*95/100 {
		t.Errorf("PassCode's span [%#x, %#x) holds %d of the package's %d samples of code", lo, hi, in, all)
	}
	t.Logf("PassCode's span [%#x, %#x) holds %d of the package's %d samples of code", lo, hi, in, all)
}
