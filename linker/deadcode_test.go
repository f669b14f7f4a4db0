package linker

import "testing"

// TestGlobMatch: nvcc's host-reference patterns, '*' for any run.
func TestGlobMatch(t *testing.T) {
	cases := []struct {
		pattern, name string
		want          bool
	}{
		{"_Z9klaunched*", "_Z9klaunchedPi", true},
		{"_Z9klaunched*", "_Z9klaunched", true},
		{"_Z9klaunched*", "_Z12knotlaunchedPi", false},
		{"__nv_static_26__981689c5_5_h1_cu_3caf325a_*16kstatic_launched*", "__nv_static_26__981689c5_5_h1_cu_3caf325a__Z16kstatic_launchedPi", true},
		{"__nv_static_26__981689c5_5_h1_cu_3caf325a_*16kstatic_launched*", "__nv_static_26__981689c5_5_h1_cu_3caf325a__Z11kstatic_notPi", false},
		{"exact", "exact", true},
		{"exact", "exactly", false},
		{"*a*b*", "xxaxxbxx", true},
		{"*a*b*", "xxbxxaxx", false},
	}
	for _, c := range cases {
		if got := globMatch(c.pattern, c.name); got != c.want {
			t.Errorf("globMatch(%q, %q) = %v, want %v", c.pattern, c.name, got, c.want)
		}
	}
}
