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

// ptxCompilerLib is the --ptx-compiler (library or program) that
// cudalinkArgs gives the cases of toolkit ptxCompilerToolkit that compile
// PTX (TestCorpusPTXCompiler); "" runs ptxas, as TestCorpus does.
var ptxCompilerLib, ptxCompilerToolkit string

// ptxCompilerArchive is where a toolkit keeps the PTX compiler library,
// which scripts/setup-ptxcompiler.sh makes a shared library and a program:
// Debian's CUDA 11.8 (nvidia-cuda-dev) at the system's path, CUDA 12.4 and
// 12.5 in the same place under /opt/cuda-<version>
// (scripts/setup-cuda12.sh).
func ptxCompilerArchive(toolkit string) string {
	const lib = "/usr/lib/x86_64-linux-gnu/libnvptxcompiler_static.a"
	if toolkit == DefaultToolkit {
		return lib
	}
	return "/opt/cuda-" + toolkit + lib
}

// findPTXCompilers returns a toolkit's PTX compilers that scripts/setup.sh
// builds in ${CUDALINK_CACHE:-/var/cache/cudalink}/cuda-<version>:
// "library", libnvptxcompiler.so (loaded in the helper), and "program",
// cudalink-ptxc (the library linked into a C program). The test is skipped
// loudly when the toolkit is not installed, and fails when setup left it
// without its PTX compiler archive or did not build the compilers from it.
func findPTXCompilers(t *testing.T, toolkit string) map[string]string {
	t.Helper()
	cache := os.Getenv("CUDALINK_CACHE")
	if cache == "" {
		cache = "/var/cache/cudalink"
	}
	dir := filepath.Join(cache, "cuda-"+toolkit)
	found := map[string]string{
		"library": filepath.Join(dir, "libnvptxcompiler.so"),
		"program": filepath.Join(dir, "cudalink-ptxc"),
	}
	archive := ptxCompilerArchive(toolkit)
	for _, p := range found {
		if exists(p) {
			continue
		}
		if exists(archive) {
			t.Fatalf("CUDA %s's %s is installed but %s is missing: run scripts/setup.sh (scripts/setup-ptxcompiler.sh builds it)", toolkit, archive, p)
		}
		if prefix := "/opt/cuda-" + toolkit; toolkit != DefaultToolkit && exists(filepath.Join(prefix, ".complete")) {
			// scripts/setup-cuda12.sh keeps the archive in every prefix it
			// unpacks: one without it is a broken setup, not a machine
			// without the toolkit.
			t.Fatalf("CUDA %s is installed in %s without its PTX compiler archive %s: run scripts/setup.sh", toolkit, prefix, archive)
		}
		t.Skipf("SKIP: no CUDA %s PTX compiler library (%s; scripts/setup.sh installs it)", toolkit, archive)
	}
	return found
}

// usePTXCompiler makes cudalinkArgs give the cases of toolkit that compile
// PTX the compiler lib, until the test ends.
func usePTXCompiler(t *testing.T, toolkit, lib string) {
	ptxCompilerLib, ptxCompilerToolkit = lib, toolkit
	t.Cleanup(func() { ptxCompilerLib, ptxCompilerToolkit = "", "" })
}

// ptxCases are a toolkit's cases that compile PTX (`ptxas: yes`, implied by
// `nvvm: yes`).
func ptxCases(t *testing.T, toolkit string) []*Case {
	t.Helper()
	all := loadCorpus(t)
	if toolkit != DefaultToolkit {
		var err error
		if all, err = LoadToolkitCases(corpusDir, toolkit); err != nil {
			t.Fatal(err)
		}
	}
	var cases []*Case
	for _, c := range all {
		if c.Ptxas {
			cases = append(cases, c)
		}
	}
	if len(cases) == 0 {
		t.Fatalf("no CUDA %s case of the corpus compiles PTX (ptxas: yes)", toolkit)
	}
	return cases
}

// ptxToolkits are the toolkits whose PTX compilers the tests run: 11.8's
// cases as TestX/<compiler>/<name>, the others' as
// TestX/cuda-<version>/<compiler>/<name>.
func ptxToolkits(t *testing.T, run func(t *testing.T, toolkit string)) {
	run(t, DefaultToolkit)
	for _, tk := range otherToolkits {
		t.Run("cuda-"+tk, func(t *testing.T) { run(t, tk) })
	}
}

// TestCorpusPTXCompiler links the cases that compile PTX (PTX inputs, and
// the PTX libnvvm or libnvJitLink makes under -dlto) of CUDA 11.8, 12.4 and
// 12.5 as TestCorpus does, but with that toolkit's PTX compiler
// (--ptx-compiler: the library in the helper, and the program
// cudalink-ptxc) instead of ptxas processes: same bytes as nvlink's, same
// exit status, messages naming the same files and symbols.
func TestCorpusPTXCompiler(t *testing.T) {
	ptxToolkits(t, func(t *testing.T, toolkit string) {
		compilers := findPTXCompilers(t, toolkit)
		cases := ptxCases(t, toolkit)
		for _, kind := range []string{"library", "program"} {
			t.Run(kind, func(t *testing.T) {
				usePTXCompiler(t, toolkit, compilers[kind])
				runCorpus(t, cases, toolkit)
			})
		}
	})
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

// TestPTXCompilerMessages: what is printed of the compiles of every case
// of CUDA 11.8, 12.4 and 12.5 that compiles PTX is nvlink's lines, in
// nvlink's order, but for the input's name: warnings, errors, and after the
// first PTX that fails nothing (nvlink stops there), through the toolkit's
// PTX compiler (the library and the program) and through its ptxas. ptxas
// alone adds "Ptx assembly aborted due to errors" after "Unsupported
// .version", which nvlink's built-in ptxas and the PTX compiler do not
// print.
func TestPTXCompilerMessages(t *testing.T) {
	ptxToolkits(t, func(t *testing.T, toolkit string) {
		compilers := findPTXCompilers(t, toolkit)
		cases := ptxCases(t, toolkit)
		for _, compiler := range []string{"library", "program", "ptxas"} {
			t.Run(compiler, func(t *testing.T) {
				if compiler != "ptxas" {
					usePTXCompiler(t, toolkit, compilers[compiler])
				}
				checked := 0
				for _, c := range cases {
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
					t.Errorf("no CUDA %s case of the corpus has ptxas messages to compare", toolkit)
				}
				t.Logf("%d CUDA %s cases with ptxas messages", checked, toolkit)
			})
		}
	})
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

// TestPTXCompilerCache: through the library or the program, a relink of
// the same PTX compiles nothing and writes nvlink's bytes again (the
// persistent worker's case); each compiler's results are other entries,
// and the same bytes.
func TestPTXCompilerCache(t *testing.T) {
	compilers := findPTXCompilers(t, DefaultToolkit)
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
	with := func(compiler string) func(cfg *linker.Config) {
		return func(cfg *linker.Config) { cfg.PTXCompiler = compiler; cfg.Ptxas = "/nonexistent/ptxas" }
	}
	link("library", with(compilers["library"]), 2)
	link("library again", with(compilers["library"]), 2)
	link("program", with(compilers["program"]), 4)
	link("program again", with(compilers["program"]), 4)
	link("ptxas", func(cfg *linker.Config) { cfg.Ptxas = ptxas }, 6)
	link("ptxas again", func(cfg *linker.Config) { cfg.Ptxas = ptxas }, 6)
}
