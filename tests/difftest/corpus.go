// Package difftest is the differential test of cudalink against NVIDIA's
// nvlink 11.8 over the link-case corpus in tests/corpus/cases (see
// README.md). This file holds the small helpers the tests use to read the
// corpus; the tests themselves are in corpus_test.go.
package difftest

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Case is one link case: a directory under tests/corpus/cases with a
// case.txt (format: tests/corpus/README.md).
type Case struct {
	Name   string   // directory name
	Dir    string   // absolute path of the case directory
	Arch   string   // "sm_80"
	Inputs []string // link inputs in order, relative to Dir
	Flags  []string // extra nvlink flags, given to both linkers
	Expect string   // "ok" or "error"

	// From expected.txt:
	ExitStatus int    // nvlink's exit status
	Messages   string // nvlink's stderr+stdout
}

// Args returns the cudalink/nvlink command line of the case (without
// argv[0]) with inputs spelt as given and the output written to out.
func (c *Case) Args(inputs []string, out string) []string {
	args := []string{"-arch=" + c.Arch}
	args = append(args, c.Flags...)
	args = append(args, inputs...)
	return append(args, "-o", out)
}

// AbsInputs returns the link inputs as absolute paths.
func (c *Case) AbsInputs() []string {
	abs := make([]string, len(c.Inputs))
	for i, in := range c.Inputs {
		abs[i] = filepath.Join(c.Dir, in)
	}
	return abs
}

// InputBytes is the total size of the link inputs that exist.
func (c *Case) InputBytes() int64 {
	var n int64
	for _, p := range c.AbsInputs() {
		if fi, err := os.Stat(p); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// LoadCases reads every case under dir (tests/corpus/cases), sorted by name.
// A case whose generated files are missing (regen not run yet) is an error.
func LoadCases(dir string) ([]*Case, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var cases []*Case
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		c, err := LoadCase(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		cases = append(cases, c)
	}
	sort.Slice(cases, func(i, j int) bool { return cases[i].Name < cases[j].Name })
	return cases, nil
}

// LoadCase reads the case in directory dir.
func LoadCase(dir string) (*Case, error) {
	c := &Case{Name: filepath.Base(dir), Dir: dir}
	f, err := os.ReadFile(filepath.Join(dir, "case.txt"))
	if err != nil {
		return nil, err
	}
	var sources, link []string
	haveLink := false
	sc := bufio.NewScanner(bytes.NewReader(f))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("%s/case.txt:%d: not a key: value line", c.Name, n)
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		switch key {
		case "arch":
			c.Arch = val
		case "sources":
			sources = strings.Fields(val)
		case "link":
			link, haveLink = strings.Fields(val), true
		case "nvlink":
			c.Flags = strings.Fields(val)
		case "expect":
			c.Expect = val
		case "source-arch", "nvcc", "junk":
			// used by regen only
		default:
			return nil, fmt.Errorf("%s/case.txt:%d: unknown key %q", c.Name, n, key)
		}
	}
	if c.Arch == "" {
		return nil, fmt.Errorf("%s/case.txt: no arch", c.Name)
	}
	if c.Expect != "ok" && c.Expect != "error" {
		return nil, fmt.Errorf("%s/case.txt: expect is %q, want ok or error", c.Name, c.Expect)
	}
	if haveLink {
		c.Inputs = link
	} else {
		for _, s := range sources {
			c.Inputs = append(c.Inputs, strings.TrimSuffix(s, filepath.Ext(s))+".cubin")
		}
	}
	if len(c.Inputs) == 0 {
		return nil, fmt.Errorf("%s/case.txt: no link inputs", c.Name)
	}

	exp, err := os.ReadFile(filepath.Join(dir, "expected.txt"))
	if err != nil {
		return nil, fmt.Errorf("%s: %v (run go run ./tests/corpus/regen %s)", c.Name, err, c.Name)
	}
	first, rest, _ := strings.Cut(string(exp), "\n")
	status, ok := strings.CutPrefix(first, "exit ")
	if !ok {
		return nil, fmt.Errorf("%s/expected.txt: first line %q is not \"exit N\"", c.Name, first)
	}
	if c.ExitStatus, err = strconv.Atoi(status); err != nil {
		return nil, fmt.Errorf("%s/expected.txt: %v", c.Name, err)
	}
	c.Messages = rest
	return c, nil
}

var quoted = regexp.MustCompile(`(=?)'([^'\n]*)'`)

// QuotedTokens returns the '...'-quoted tokens of nvlink's messages (file
// names, symbols, arch names), which cudalink's messages must mention too.
// Empty tokens and tokens right after '=' (fatbinary internals such as
// key='0', ident=”) are left out. The result is sorted and deduplicated.
func QuotedTokens(messages string) []string {
	seen := map[string]bool{}
	var toks []string
	for _, m := range quoted.FindAllStringSubmatch(messages, -1) {
		if m[1] == "=" || m[2] == "" || seen[m[2]] {
			continue
		}
		seen[m[2]] = true
		toks = append(toks, m[2])
	}
	sort.Strings(toks)
	return toks
}
