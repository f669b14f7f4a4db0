package cubin

import "testing"

// TestArchCompatible: the same major and an equal or lower minor, and the
// integrated architectures only with themselves, as nvlink 11.8 links
// (checked in the corpus: lower-minor, arch-mismatch and tegra-* cases).
func TestArchCompatible(t *testing.T) {
	for _, tt := range []struct {
		sm, target int
		want       bool
	}{
		{80, 80, true}, {80, 86, true}, {80, 89, true}, {70, 75, true}, {50, 52, true}, {60, 61, true}, {53, 53, true}, {87, 87, true},
		{86, 80, false}, {75, 70, false}, {70, 80, false}, {80, 90, false}, {90, 80, false}, {61, 70, false},
		{52, 53, false}, {50, 53, false}, {53, 52, false}, {60, 62, false}, {62, 61, false},
		{70, 72, false}, {72, 75, false}, {80, 87, false}, {86, 87, false}, {87, 89, false}, {87, 86, false},
	} {
		if got := ArchCompatible(tt.sm, tt.target); got != tt.want {
			t.Errorf("ArchCompatible(%d, %d) = %v, want %v", tt.sm, tt.target, got, tt.want)
		}
	}
}
