package difftest

import (
	"strings"
	"testing"
)

// TestVerboseReport checks that -v prints nvlink's report: for every corpus
// case run with -v, each "nvlink info" line nvlink printed appears, in the
// same order, as a "cudalink info" line with the same text. Error cases
// count too: after errors it does not call fatal (undefined references,
// limits exceeded) nvlink still prints the report, after fatal ones none.
// The cases of every toolkit run, the 12.x ones as cuda-<v>/<name>.
func TestVerboseReport(t *testing.T) {
	ran := 0
	cases := loadEveryToolkit(t)
	for _, c := range cases {
		verbose := false
		for i, f := range c.Flags {
			// "-Xptxas -v" is ptxas's -v, not nvlink's.
			xptxas := i > 0 && (c.Flags[i-1] == "-Xptxas" || c.Flags[i-1] == "--Xptxas")
			verbose = verbose || (f == "-v" || f == "--verbose") && !xptxas
		}
		if !verbose {
			continue
		}
		ran++
		name := c.Name
		if c.Toolkit != "" && c.Toolkit != DefaultToolkit {
			name = "cuda-" + c.Toolkit + "/" + name
		}
		t.Run(name, func(t *testing.T) {
			t.Chdir(c.Dir)
			_, _, stderr := link(t, cudalinkArgs(t, c, c.Inputs, t.TempDir()+"/out.cubin"))
			want := infoLines(c.Messages, "nvlink info    : ")
			got := infoLines(stderr, "cudalink info    : ")
			if len(want) == 0 && c.Expect == "ok" {
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
