package difftest

import (
	"strings"
	"testing"
)

// TestVerboseReport checks that -v prints nvlink's report: for every corpus
// case run with -v, each "nvlink info" line nvlink printed appears, in the
// same order, as a "cudalink info" line with the same text.
func TestVerboseReport(t *testing.T) {
	ran := 0
	for _, c := range loadCorpus(t) {
		verbose := false
		for _, f := range c.Flags {
			verbose = verbose || f == "-v" || f == "--verbose"
		}
		if !verbose || c.Expect != "ok" {
			continue
		}
		ran++
		t.Run(c.Name, func(t *testing.T) {
			t.Chdir(c.Dir)
			_, _, stderr := link(t, cudalinkArgs(t, c, c.Inputs, t.TempDir()+"/out.cubin"))
			want := infoLines(c.Messages, "nvlink info    : ")
			got := infoLines(stderr, "cudalink info    : ")
			if len(want) == 0 {
				t.Fatalf("nvlink printed no info lines:\n%s", c.Messages)
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("-v report differs\nnvlink:\n%s\ncudalink:\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
			}
		})
	}
	if ran == 0 {
		t.Fatal("no corpus case runs with -v")
	}
}

// infoLines returns the text after prefix of every line that starts with it.
func infoLines(out, prefix string) []string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(l, prefix); ok {
			lines = append(lines, rest)
		}
	}
	return lines
}
