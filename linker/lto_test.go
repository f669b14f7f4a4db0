package linker

import (
	"slices"
	"testing"
)

// TestNVJitLinkOptions: nvJitLink gets the target, -lto -ptx, then every
// libnvvm option nvlink gives but the virtual architecture and -link-lto,
// in order, for its NVVM.
func TestNVJitLinkOptions(t *testing.T) {
	got := nvJitLinkOptions(90, []string{"-arch=compute_90", "-ftz=0", "-prec-div=1", "-link-lto", "--device-c", "-maxreg=32", "-g"})
	want := []string{"-arch=sm_90", "-lto", "-ptx", "-Xnvvm=-ftz=0", "-Xnvvm=-prec-div=1", "-Xnvvm=--device-c", "-Xnvvm=-maxreg=32", "-Xnvvm=-g"}
	if !slices.Equal(got, want) {
		t.Errorf("nvJitLinkOptions = %q, want %q", got, want)
	}
}
