package linker

import (
	"path/filepath"
	"testing"
)

// TestInDirIsJoin: inDir, which names an output's temporary files, is
// filepath.Join for the directories filepath.Dir gives of the outputs a
// user names and the names made of their base names.
func TestInDirIsJoin(t *testing.T) {
	for _, out := range []string{"a.cubin", "./a.cubin", "/a.cubin", "d/a.cubin", "d/e/../a.cubin", "/d//e/a.cubin", "../a.cubin", "d/./a.cubin", "//a.cubin"} {
		dir, name := filepath.Dir(out), "."+filepath.Base(out)+".tmp12"
		if got, want := inDir(dir, name), filepath.Join(dir, name); got != want {
			t.Errorf("output %q: inDir(%q, %q) = %q, want %q", out, dir, name, got, want)
		}
	}
}
