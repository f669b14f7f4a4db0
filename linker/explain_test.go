package linker

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestWithoutParams: a --why-live question's name without its parameter
// list and return type, template arguments kept whole.
func TestWithoutParams(t *testing.T) {
	for _, tt := range []struct {
		query, name string
		ok          bool
	}{
		{"bump(double *)", "bump", true},
		{"float transform<float>(int)", "transform<float>", true},
		{"pair<unsigned int, float> make<unsigned int>(int)", "make<unsigned int>", true},
		{"ns::f()", "ns::f", true},
		{"apply<void (*)(int)>", "", false},
		{"bump", "", false},
		{"(int)", "", false},
	} {
		name, ok := withoutParams(tt.query)
		if name != tt.name || ok != tt.ok {
			t.Errorf("withoutParams(%q) = %q, %v; want %q, %v", tt.query, name, ok, tt.name, tt.ok)
		}
	}
}

// TestNameDistance: case is set aside, but names that differ only in case
// are one edit apart, not none (which would read as an exact match).
func TestNameDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"saxpy", "saxpy", 0},
		{"SAXPY", "saxpy", 1},
		{"Saxpi", "saxpy", 1}, // case aside, one substitution
		{"secrte", "secret", 1},
	} {
		if got := nameDistance(tt.a, tt.b, 3); got != tt.want {
			t.Errorf("nameDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestWhyLiveSuggestionsBounded: a question whose name without parameters
// has many overloads lists maxSuggestions of them and counts the rest.
func TestWhyLiveSuggestionsBounded(t *testing.T) {
	var targets []*explainTarget
	for i := range maxSuggestions + 3 {
		full := fmt.Sprintf("over(int%d)", i)
		targets = append(targets, &explainTarget{mangled: full, base: full, full: full, edg: full,
			noParams: "over", noTemplate: "over", plain: "over"})
	}
	var w bytes.Buffer
	(&linkContext{}).whyLive(&w, "over(float)", targets)
	lines := strings.Split(strings.TrimSuffix(w.String(), "\n"), "\n")
	if len(lines) != maxSuggestions+2 || !strings.HasSuffix(lines[0], "did you mean one of these?") ||
		lines[len(lines)-1] != ">>> and 3 more" {
		t.Errorf("got:\n%s", w.String())
	}
}
