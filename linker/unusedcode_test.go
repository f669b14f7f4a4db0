//go:build unix

package linker

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestUnusedCodeReleased links the corpus cases that link host objects,
// archives and cubins with nothing but -arch, -L and -l, as nvlink 11.8
// linked them, with the pages releaseUnusedCode and releaseSectionHeaders
// hand back filled with poisonByte instead: a pass that read them after
// the release would write other bytes than nvlink's output, which each
// case holds. Some of the cases must release something (host objects
// whose images nvcc compressed, with weak copies that lose or functions
// dead-code elimination removes, libcudadevrt's members), or the test
// tests nothing.
func TestUnusedCodeReleased(t *testing.T) {
	linked, releasing := 0, 0
	for _, c := range plainCases(t) {
		// linkCase links the case, poisoning what is released or not,
		// and returns the output and how many bytes were released.
		linkCase := func(poison bool) ([]byte, int, error) {
			ctx := c.context()
			ctx.maps.poison = poison
			defer ctx.maps.unmapAll()
			err := link(ctx)
			return ctx.output, ctx.maps.released, err
		}
		out, released, err := linkCase(false)
		linked++
		if err != nil || released == 0 || !bytes.Equal(out, c.want) {
			// Nothing released, nothing to test; or a case this test's
			// Config does not link as the command line does (a thin
			// archive's relative members, libcudadevrt as the system
			// library): TestCorpus links it.
			continue
		}
		releasing++
		out, released, err = linkCase(true)
		switch {
		case err != nil:
			t.Errorf("%s: with %d released bytes poisoned: %v", c.name, released, err)
		case !bytes.Equal(out, c.want):
			t.Errorf("%s: with %d released bytes poisoned, the output (%d bytes) differs from nvlink's (%d)", c.name, released, len(out), len(c.want))
		}
	}
	t.Logf("%d cases linked, %d of them released unused code", linked, releasing)
	if releasing < 10 {
		t.Fatalf("%d of %d cases released unused code, want at least 10", releasing, linked)
	}
}

// plainLink is a corpus case that nvlink 11.8 links successfully from
// inputs, -L and -l alone, with nvlink's output.
type plainLink struct {
	name    string
	ins     []Input
	libDirs []string
	arch    int
	want    []byte
}

// plainCases returns every such case of tests/corpus/cases, in name order.
func plainCases(t *testing.T) []plainLink {
	t.Helper()
	root := filepath.Join("..", "tests", "corpus", "cases")
	dirs, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var cases []plainLink
	for _, d := range dirs {
		dir := filepath.Join(root, d.Name())
		ins, libDirs, arch, ok := plainCase(dir)
		if !ok {
			continue
		}
		want, err := os.ReadFile(filepath.Join(dir, "expected.cubin"))
		if err != nil {
			continue
		}
		cases = append(cases, plainLink{d.Name(), ins, libDirs, arch, want})
	}
	return cases
}

// context is the case's link as the tests' Config runs it.
func (c plainLink) context() *linkContext {
	ctx := newBenchContext(c.ins, c.arch)
	ctx.config.LibDirs = c.libDirs
	return ctx
}

// plainCase reads the case.txt of a corpus case that nvlink 11.8 links
// successfully from inputs, -L and -l alone (no other option of its
// own), and returns the link's inputs, library directories and target;
// ok is false for any other case.
func plainCase(dir string) (ins []Input, libDirs []string, arch int, ok bool) {
	text, err := os.ReadFile(filepath.Join(dir, "case.txt"))
	if err != nil {
		return nil, nil, 0, false
	}
	var link string
	for _, line := range strings.Split(string(text), "\n") {
		key, value, _ := strings.Cut(line, ":")
		value = strings.TrimSpace(value)
		switch key {
		case "link":
			link = value
		case "arch":
			n, err := strconv.Atoi(strings.TrimPrefix(value, "sm_"))
			if err != nil {
				return nil, nil, 0, false
			}
			arch = n
		case "expect":
			if value != "ok" {
				return nil, nil, 0, false
			}
		case "toolkits":
			if !strings.Contains(value, "11.8") {
				return nil, nil, 0, false
			}
		case "nvlink", "cudalink", "cuda-version", "ptxas", "nvvm", "junk", "register-link-binaries":
			return nil, nil, 0, false // options of the link's own, or inputs that need more
		}
	}
	if link == "" || arch == 0 {
		return nil, nil, 0, false
	}
	for _, a := range strings.Fields(link) {
		switch {
		case strings.HasPrefix(a, "-L"):
			libDirs = append(libDirs, filepath.Join(dir, a[2:]))
		case strings.HasPrefix(a, "-l"):
			ins = append(ins, Input{Path: a[2:], Library: true})
		case strings.HasPrefix(a, "-"):
			return nil, nil, 0, false
		default:
			ins = append(ins, Input{Path: filepath.Join(dir, a)})
		}
	}
	return ins, libDirs, arch, true
}
