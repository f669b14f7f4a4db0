package linker

import (
	"io"
	"path/filepath"
	"testing"
)

// TestFindUsesWalksOnlyWithShared: findUses walks the functions'
// relocations only when an input has a shared object or a symbol in
// shared memory. A link whose inputs have none (no __shared__ variable)
// visits no file, where before it walked every function's relocations to
// find nothing; one with function-level shared objects still finds the
// functions that use them.
func TestFindUsesWalksOnlyWithShared(t *testing.T) {
	for _, tc := range []struct {
		name   string
		shared bool
	}{
		{"bank2-callee-alignment-sm80", false},
		{"shared-function-objects-by-size", true},
	} {
		cfg := &Config{Arch: 80, Inputs: caseCubins(t, tc.name), Stdout: io.Discard, Stderr: io.Discard, Output: filepath.Join(t.TempDir(), "out.cubin")}
		ctx := newContext(cfg)
		if err := link(ctx); err != nil {
			t.Fatal(err)
		}
		s := &sharedLayout{}
		s.collectObjects(ctx)
		s.findUses(ctx)
		ctx.maps.unmapAll()
		if visited := s.walk.last != nil; visited != tc.shared {
			t.Errorf("%s: findUses visited the inputs %v, want %v (%d shared objects, a symbol in shared memory %v)", tc.name, visited, tc.shared, len(s.objects), s.spaceNamed)
		}
		if tc.shared && len(s.uses) == 0 {
			t.Errorf("%s: no function uses shared memory, want the kernels' callees", tc.name)
		}
	}
}
