package normalize

import (
	"fmt"
	"strings"
	"testing"
)

func TestDiffEqual(t *testing.T) {
	if d := Diff("a\nb\n", "a\nb\n"); d != "" {
		t.Fatalf("Diff of equal texts = %q, want empty", d)
	}
	if d := Diff("", ""); d != "" {
		t.Fatalf("Diff of empty texts = %q, want empty", d)
	}
}

func TestDiffChangedLine(t *testing.T) {
	want := "section .a\n  1\n  2\n  3\n  4\n  5\n  6\n  7\n  8\nsection .b\n  x\n"
	got := "section .a\n  1\n  2\n  3\n  4\n  FIVE\n  6\n  7\n  8\nsection .b\n  x\n"
	d := Diff(want, got)
	for _, s := range []string{"-  5\n", "+  FIVE\n", "@@ -3,7 +3,7 @@ section .a\n", "   2\n", "   7\n"} {
		if !strings.Contains(d, s) {
			t.Errorf("Diff output lacks %q:\n%s", s, d)
		}
	}
	if strings.Contains(d, "section .b") {
		t.Errorf("Diff output has more context than expected:\n%s", d)
	}
}

func TestDiffInsertDelete(t *testing.T) {
	want := "a\nb\nc\nd\n"
	got := "a\nc\nd\ne\n"
	d := Diff(want, got)
	if !strings.Contains(d, "-b\n") || !strings.Contains(d, "+e\n") || strings.Contains(d, "-c") || strings.Contains(d, "+c") {
		t.Errorf("unexpected diff:\n%s", d)
	}
	// Duplicate lines (no unique anchors) go through the LCS fallback.
	d = Diff("x\nx\ny\nx\n", "x\ny\nx\nx\n")
	if del, ins := changedLines(d); del != 1 || ins != 1 {
		t.Errorf("unexpected diff of duplicate lines:\n%s", d)
	}
	d = Diff("", "a\n")
	if !strings.Contains(d, "+a\n") {
		t.Errorf("unexpected diff against empty:\n%s", d)
	}
}

func TestDiffIsShort(t *testing.T) {
	var a, b strings.Builder
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&a, "line %d\n", i)
		if i%10 == 0 {
			fmt.Fprintf(&b, "LINE %d\n", i)
		} else {
			fmt.Fprintf(&b, "line %d\n", i)
		}
	}
	d := Diff(a.String(), b.String())
	del, ins := changedLines(d)
	if changed := del + ins; changed != diffMaxLines {
		t.Errorf("Diff shows %d differing lines, want %d:\n%s", changed, diffMaxLines, d)
	}
	if !strings.Contains(d, "160 more differing lines not shown (200 in all)") {
		t.Errorf("Diff lacks the summary line:\n%s", d)
	}
}

// changedLines counts the deleted and inserted lines of a Diff output.
func changedLines(d string) (del, ins int) {
	for _, l := range strings.Split(d, "\n") {
		switch {
		case strings.HasPrefix(l, "---"), strings.HasPrefix(l, "+++"):
		case strings.HasPrefix(l, "-"):
			del++
		case strings.HasPrefix(l, "+"):
			ins++
		}
	}
	return del, ins
}
