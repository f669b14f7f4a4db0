package difftest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/cudalink/cudalink/linker"
)

// ptxCompilerLib is the --ptx-compiler that cudalinkArgs gives the cases
// that compile PTX (TestCorpusPTXCompiler); "" runs ptxas, as TestCorpus
// does.
var ptxCompilerLib string

// ptxCompilerArchive is where Debian's CUDA 11.8 (nvidia-cuda-dev) puts the
// PTX compiler library, which scripts/setup-ptxcompiler.sh makes a shared
// library.
const ptxCompilerArchive = "/usr/lib/x86_64-linux-gnu/libnvptxcompiler_static.a"

// findPTXCompilerLib returns the CUDA 11.8 PTX compiler library that
// scripts/setup.sh builds: $CUDALINK_PTX_COMPILER, else
// ${CUDALINK_CACHE:-/var/cache/cudalink}/cuda-11.8/libnvptxcompiler.so. The
// test is skipped loudly when the toolkit has no PTX compiler archive, and
// fails when it has one that setup did not build.
func findPTXCompilerLib(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("CUDALINK_PTX_COMPILER"); p != "" {
		return p
	}
	cache := os.Getenv("CUDALINK_CACHE")
	if cache == "" {
		cache = "/var/cache/cudalink"
	}
	lib := filepath.Join(cache, "cuda-11.8", "libnvptxcompiler.so")
	if exists(lib) {
		return lib
	}
	if exists(ptxCompilerArchive) {
		t.Fatalf("CUDA 11.8's %s is installed but %s is missing: run scripts/setup.sh (scripts/setup-ptxcompiler.sh builds it)", ptxCompilerArchive, lib)
	}
	t.Skipf("SKIP: no CUDA 11.8 PTX compiler library (%s, package nvidia-cuda-dev)", ptxCompilerArchive)
	return ""
}

// TestCorpusPTXCompiler links the CUDA 11.8 cases that compile PTX (PTX
// inputs, and the PTX libnvvm makes under -dlto) as TestCorpus does, but
// with the PTX compiler library (--ptx-compiler, in the helper) instead of
// ptxas processes: same bytes as nvlink's, same exit status, messages
// naming the same files and symbols.
func TestCorpusPTXCompiler(t *testing.T) {
	lib := findPTXCompilerLib(t)
	var cases []*Case
	for _, c := range loadCorpus(t) {
		if c.Ptxas {
			cases = append(cases, c)
		}
	}
	if len(cases) == 0 {
		t.Fatal("no case of the corpus compiles PTX (ptxas: yes)")
	}
	ptxCompilerLib = lib
	defer func() { ptxCompilerLib = "" }()
	runCorpus(t, cases, DefaultToolkit)
}

// ptxasLineName is the input's name in a line of ptxas's messages:
// nvlink's built-in ptxas calls it "application ptx input", cudalink names
// the input ("broken.ptx", "a.o (compute_80 PTX)").
var ptxasLineName = regexp.MustCompile(`(?m)^ptxas (.+?), line ([0-9]+);`)

// ptxasLines are the lines of msgs that ptxas printed, the input's name
// spelt as nvlink's.
func ptxasLines(msgs string) []string {
	var lines []string
	for _, l := range strings.Split(msgs, "\n") {
		if strings.HasPrefix(l, "ptxas ") {
			lines = append(lines, ptxasLineName.ReplaceAllString(l, "ptxas application ptx input, line $2;"))
		}
	}
	return lines
}

// TestPTXCompilerMessages: what is printed of the compiles of every CUDA
// 11.8 case that compiles PTX is nvlink's lines, in nvlink's order, but for
// the input's name: warnings, errors, and after the first PTX that fails
// nothing (nvlink stops there), through the PTX compiler library and
// through ptxas. ptxas alone adds "Ptx assembly aborted due to errors"
// after "Unsupported .version", which nvlink's built-in ptxas and the
// library do not print.
func TestPTXCompilerMessages(t *testing.T) {
	lib := findPTXCompilerLib(t)
	cases := loadCorpus(t)
	for _, compiler := range []string{"library", "ptxas"} {
		t.Run(compiler, func(t *testing.T) {
			if compiler == "library" {
				ptxCompilerLib = lib
				defer func() { ptxCompilerLib = "" }()
			}
			checked := 0
			for _, c := range cases {
				if !c.Ptxas {
					continue
				}
				t.Run(c.Name, func(t *testing.T) {
					t.Chdir(c.Dir)
					_, _, stderr := link(t, cudalinkArgs(t, c, c.Inputs, filepath.Join(t.TempDir(), "out.cubin")))
					want, got := ptxasLines(c.Messages), ptxasLines(stderr)
					if compiler == "ptxas" {
						for i := 1; i < len(got); i++ {
							if got[i] == "ptxas fatal   : Ptx assembly aborted due to errors" && strings.Contains(got[i-1], "Unsupported .version") {
								got = slices.Delete(got, i, i+1)
							}
						}
					}
					if !slices.Equal(got, want) {
						t.Errorf("ptxas's lines:\n%s\nnvlink's:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
					}
					if len(want) > 0 {
						checked++
					}
				})
			}
			if checked == 0 {
				t.Error("no case of the corpus has ptxas messages to compare")
			}
			t.Logf("%d cases with ptxas messages", checked)
		})
	}
}

// countingCache is a linker.CompileCache that keeps every result and
// counts the compiles, as the persistent worker's cache keeps them.
type countingCache struct {
	mu       sync.Mutex
	kept     map[string]*linker.Compiled
	compiles int
}

func (c *countingCache) Objects(path string, load func() ([]*linker.Object, error)) ([]*linker.Object, error) {
	return load()
}

func (c *countingCache) Compiled(key string, compile func() (*linker.Compiled, error)) (*linker.Compiled, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if res, ok := c.kept[key]; ok {
		return res, nil
	}
	c.compiles++
	res, err := compile()
	if err == nil {
		c.kept[key] = res
	}
	return res, err
}

// TestPTXCompilerCache: through the library, a relink of the same PTX
// compiles nothing and writes nvlink's bytes again (the persistent
// worker's case); ptxas's results are other entries, and the same bytes.
func TestPTXCompilerCache(t *testing.T) {
	lib := findPTXCompilerLib(t)
	ptxas, err := exec.LookPath("ptxas")
	if err != nil {
		t.Skip("SKIP: ptxas (CUDA 11.8) not on PATH")
	}
	dir := filepath.Join(corpusDir, "ptx-only-host-objects")
	want, err := os.ReadFile(filepath.Join(dir, "expected.cubin"))
	if err != nil {
		t.Fatal(err)
	}
	cache := &countingCache{kept: map[string]*linker.Compiled{}}
	link := func(what string, edit func(*linker.Config), compiles int) {
		t.Helper()
		var msgs bytes.Buffer
		out := filepath.Join(t.TempDir(), "out.cubin")
		cfg := &linker.Config{
			Arch:   80,
			Output: out,
			Inputs: []linker.Input{{Path: filepath.Join(dir, "a.o")}, {Path: filepath.Join(dir, "b.o")}},
			Cache:  cache,
			Stdout: &msgs, Stderr: &msgs,
		}
		edit(cfg)
		if err := linker.Run(cfg); err != nil {
			t.Fatalf("%s: %v\n%s", what, err, msgs.String())
		}
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: output differs from nvlink's (%d bytes, nvlink %d)", what, len(got), len(want))
		}
		if cache.compiles != compiles {
			t.Errorf("%s: %d compiles in all, want %d", what, cache.compiles, compiles)
		}
	}
	withLib := func(cfg *linker.Config) { cfg.PTXCompiler = lib; cfg.Ptxas = "/nonexistent/ptxas" }
	link("library", withLib, 2)
	link("library again", withLib, 2)
	link("ptxas", func(cfg *linker.Config) { cfg.Ptxas = ptxas }, 4)
	link("ptxas again", func(cfg *linker.Config) { cfg.Ptxas = ptxas }, 4)
}
