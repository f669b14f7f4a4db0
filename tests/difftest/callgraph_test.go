package difftest

import (
	"slices"
	"strings"
	"testing"
)

// TestCallgraphDump checks --dump-callgraph (and -dump-callgraph-no-demangle)
// text exactly: for every corpus case run with one of them, the lines nvlink
// printed that are not "nvlink ..." messages (the header, one line per node,
// the register propagation lines) must be cudalink's stderr lines that are
// not its messages ("cudalink..." and their ">>> " details), the same lines
// in the same order (none when nvlink printed none, as when it refuses
// the options); the exit status must be zero exactly when nvlink's is, and
// errors (undefined references) must come before the call graph exactly
// when nvlink's do: after it with 11.8, before it with 12.4 and 12.5.
// The cases of every toolkit run: nvlink 12.4 and 12.5 print the call graph
// as 11.8 does (indirect calls' callees listed though their .nv.callgraph
// holds no such edge).
func TestCallgraphDump(t *testing.T) {
	ran, graphs := 0, 0
	cases := loadEveryToolkit(t)
	for _, c := range cases {
		dump := false
		for _, f := range c.Flags {
			switch strings.TrimLeft(f, "-") {
			case "dump-callgraph", "dump-callgraph-no-demangle":
				dump = true
			}
		}
		if !dump {
			continue
		}
		ran++
		name := c.Name
		if c.Toolkit != "" && c.Toolkit != DefaultToolkit {
			name = "cuda-" + c.Toolkit + "/" + name
		}
		t.Run(name, func(t *testing.T) {
			t.Chdir(c.Dir)
			status, _, stderr := link(t, cudalinkArgs(t, c, c.Inputs, t.TempDir()+"/out.cubin"))
			if (status == 0) != (c.ExitStatus == 0) {
				t.Fatalf("exit status %d, nvlink's %d:\n%s", status, c.ExitStatus, stderr)
			}
			want := otherLines(c.Messages, "nvlink ")
			got := otherLines(stderr, "cudalink", ">>> ")
			if len(want) > 0 && strings.HasPrefix(want[0], "callgraph for sm_") {
				graphs++
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("call graph differs\nnvlink:\n%s\ncudalink:\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
			}
			// The register limit errors come each just before the
			// graph's propagation line of the same raise.
			if want, got := graphAndRegErrors(c.Messages, "nvlink "), graphAndRegErrors(stderr, "cudalink", ">>> "); !slices.Equal(got, want) {
				t.Errorf("register limit errors and call graph interleaved otherwise\nnvlink:\n%s\ncudalink:\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
			}
			// Both linkers print the call graph and their errors on
			// standard error: nvlink 11.8 its undefined references after
			// the graph, 12.4 and 12.5 before it.
			if want, got := errorsFirst(c.Messages, "nvlink error"), errorsFirst(stderr, "cudalink: error"); want != got && strings.Contains(c.Messages, "callgraph for sm_") {
				t.Errorf("errors before the call graph: %v, nvlink's %v\nnvlink:\n%s\ncudalink:\n%s", got, want, c.Messages, stderr)
			}
		})
	}
	if ran == 0 || graphs == 0 {
		t.Fatalf("%d corpus cases run with --dump-callgraph, %d where nvlink printed a call graph", ran, graphs)
	}
}

// errorsFirst says whether out has an error line (starting with prefix)
// before its call graph.
func errorsFirst(out, prefix string) bool {
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(l, prefix):
			return true
		case strings.HasPrefix(l, "callgraph for sm_"):
			return false
		}
	}
	return false
}

// graphAndRegErrors returns otherLines(out, prefixes...) with the register
// limit errors ("entry function 'k' with max regcount of ...", nvlink's
// words and cudalink's) in their places, each as "regs k f".
func graphAndRegErrors(out string, prefixes ...string) []string {
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if m := diagnosticLine.FindStringSubmatch(l); m != nil && m[7] != "" {
			lines = append(lines, "regs "+m[7]+" "+m[8])
			continue
		}
		lines = append(lines, otherLines(l, prefixes...)...)
	}
	return lines
}

// otherLines returns the lines of out that start with none of prefixes.
func otherLines(out string, prefixes ...string) []string {
	var lines []string
next:
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		for _, p := range prefixes {
			if strings.HasPrefix(l, p) {
				continue next
			}
		}
		lines = append(lines, l)
	}
	return lines
}

// TestExtraWarnings checks -extra-warnings (-extrawarn) exactly: for every
// corpus case run with it, nvlink's output and cudalink's stderr, with the
// tools' own prefixes of warnings taken off ("nvlink warning : ",
// "cudalink: warning: "), must be the same lines in the same order: the
// stack-size warnings, the extra warnings in call graph node order, then
// any --dump-callgraph text. In a case that fails (undefined references),
// the warning lines alone, which both linkers give before the errors (none,
// in a case that checks that none is given).
func TestExtraWarnings(t *testing.T) {
	ran := 0
	for _, c := range loadCorpus(t) {
		extra, keepsAll := false, false
		for _, f := range c.Flags {
			switch strings.TrimLeft(f, "-") {
			case "extra-warnings", "extrawarn":
				extra = true
			case "g", "debug", "preserve-relocs":
				keepsAll = true // nvlink gives no such warning then
			}
		}
		if !extra {
			continue
		}
		ran++
		t.Run(c.Name, func(t *testing.T) {
			t.Chdir(c.Dir)
			status, _, stderr := link(t, cudalinkArgs(t, c, c.Inputs, t.TempDir()+"/out.cubin"))
			if (status == 0) != (c.Expect == "ok") {
				t.Fatalf("exit status %d:\n%s", status, stderr)
			}
			want := strings.ReplaceAll(strings.TrimRight(c.Messages, "\n"), "nvlink warning : ", "warning: ")
			got := strings.ReplaceAll(strings.TrimRight(stderr, "\n"), "cudalink: warning: ", "warning: ")
			if c.Expect != "ok" {
				want = strings.Join(infoLines(want, "warning: "), "\n")
				got = strings.Join(infoLines(got, "warning: "), "\n")
			}
			if c.Expect == "ok" && !keepsAll && !strings.Contains(want, "has address taken but no calls to it found") {
				t.Fatalf("nvlink gave no extra warning:\n%s", c.Messages)
			}
			if got != want {
				t.Errorf("messages differ\nnvlink:\n%s\ncudalink:\n%s", want, got)
			}
		})
	}
	if ran == 0 {
		t.Fatal("no corpus case runs with -extra-warnings")
	}
}
