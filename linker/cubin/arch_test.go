package cubin

import "testing"

// TestArchCompatible: the same major and an equal or lower minor, as nvlink
// 11.8 links (checked in the corpus: lower-minor and arch-mismatch cases).
func TestArchCompatible(t *testing.T) {
	for _, tt := range []struct {
		sm, target int
		want       bool
	}{
		{80, 80, true}, {80, 86, true}, {80, 89, true}, {70, 75, true}, {52, 53, true},
		{86, 80, false}, {75, 70, false}, {70, 80, false}, {80, 90, false}, {90, 80, false}, {61, 70, false},
	} {
		if got := ArchCompatible(tt.sm, tt.target); got != tt.want {
			t.Errorf("ArchCompatible(%d, %d) = %v, want %v", tt.sm, tt.target, got, tt.want)
		}
	}
}
