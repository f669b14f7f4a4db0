// Command regen rebuilds the link-case corpus in tests/corpus/cases with the
// real CUDA toolkit (nvcc and nvlink, CUDA 11.8) and records what nvlink does
// with every case, so that the differential test can run cudalink on the same
// inputs without the toolkit.
//
// Usage (from anywhere inside the module):
//
//	go run ./tests/corpus/regen              # regenerate every case
//	go run ./tests/corpus/regen NAME...      # regenerate only these cases
//	go run ./tests/corpus/regen -list        # list the cases and stop
//
// For each case directory cases/<name> it reads case.txt, builds the inputs
// (cubins with `nvcc -dc -cubin`, host objects with `nvcc -dc` or `nvcc -c`,
// libraries with `nvcc -lib` and `ar`), creates the requested junk inputs,
// runs `nvlink -arch=<arch> <flags> <inputs> -o expected.cubin` in the
// (staged) case directory and writes expected.txt (`exit N` followed by
// nvlink's combined stderr and stdout). See tests/corpus/README.md for the
// case.txt format.
//
// Everything is compiled in /tmp/cudalink-corpus-build/<name> and linked in
// /tmp/cudalink-corpus-build/cases/<name> (see stageRoot), so the output does
// not depend on where the repository is checked out.
//
// It only uses the Go standard library, and exits with status 0 and a message
// when nvcc or nvlink cannot be found.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

const modulePath = "github.com/cudalink/cudalink"

// junkSpec is one `junk:` line: a generated bad input.
type junkSpec struct {
	name string // output file name, relative to the case directory
	kind string // empty | empty-archive | text | text:<n> | garbage:<n> | truncate:<cubin>:<n> | corrupt-shoff:<cubin> | orphan-bank2:<cubin> | fill-bank2:<cubin>:<function>:<byte> | machine:<file>:<e_machine>[:<e_type>]
}

// libSpec is one `nvcc-lib:` or `ar:` line: an archive and what goes in it.
type libSpec struct {
	name    string   // the archive, relative to the case directory
	members []string // nvcc-lib: the .cu files; ar: the (generated) member files
	thin    bool     // ar-thin: a GNU thin archive (ar rcsDT), members stored outside it
}

// caseSpec is a parsed case.txt.
type caseSpec struct {
	name         string
	dir          string
	comment      string
	arch         string
	sources      []string            // compiled to <stem>.cubin (nvcc -dc -cubin)
	ptxSources   []string            // hand-written PTX compiled to <stem>.cubin (ptxas -c)
	objects      []string            // compiled to <stem>.o (nvcc -dc)
	objectsNoRDC []string            // compiled to <stem>.o (nvcc -c, whole-program mode)
	fatbins      []string            // compiled to <stem>.fatbin (nvcc -fatbin -rdc=true)
	hostSources  []string            // C++ compiled to <stem>.o by the host compiler alone (g++ -c)
	sourceArch   map[string]string   // file -> sm_XX
	sourceFlags  map[string][]string // file or nvcc-lib archive -> flags replacing -arch=
	sourceTK     map[string]string   // file -> the toolkit that compiles it (`source-toolkit:`)
	nvccFlags    []string
	nvccLibs     []libSpec
	nvccDlinks   []libSpec // `nvcc-dlink:` lines: name the output object, members its inputs
	ldRs         []libSpec // `ld-r:` lines: name the output object, members its inputs (ld -r)
	cats         []libSpec // `cat:` lines: name the output, members the files concatenated
	arLibs       []libSpec
	devrt        bool
	differs      bool // `cudalink: differs`
	regLink      bool // `register-link-binaries: yes`: nvlink writes expected.reg.c
	link         []string
	linkSet      bool
	nvlinkFlags  []string
	nvvm         bool // `nvvm: yes`: nvlink gets -nvvmpath=<the staged nvvm directory> (LTO)
	junk         []junkSpec
	expect       string
	toolkits     []string // `toolkits:`, default 11.8: the toolkits the case is built with
	genDir       string   // where the generated files go (see toolkitLayout)
}

// regFile is the --register-link-binaries file nvlink writes for a case
// with `register-link-binaries: yes` (the list of cudaRegister routines nvcc
// -dlink compiles into the host side).
const regFile = "expected.reg.c"

// generatedExt lists the suffixes of generated files: every file of a case
// directory ending in one of them is deleted before a case is rebuilt.
var generatedExt = []string{".cubin", ".o", ".a", ".fatbin"}

func main() {
	jobs := flag.Int("j", runtime.NumCPU(), "number of cases built in parallel")
	list := flag.Bool("list", false, "list the cases and exit")
	cuda := flag.String("cuda", defaultToolkit, "the CUDA toolkit to build with: 11.8 (nvcc and nvlink from PATH) or 12.4, 12.5 (from /opt/cuda-<version>/usr/bin, see scripts/setup-cuda12.sh)")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: go run ./tests/corpus/regen [-j N] [-list] [-cuda VERSION] [case...]\n")
		flag.PrintDefaults()
	}
	flag.Parse()

	casesDir, err := findCasesDir()
	if err != nil {
		fatalf("%v", err)
	}
	tk, err := toolkitLayout(casesDir, *cuda)
	if err != nil {
		fatalf("%v", err)
	}
	names, err := selectCases(casesDir, flag.Args())
	if err != nil {
		fatalf("%v", err)
	}
	specs := make([]*caseSpec, 0, len(names))
	for _, n := range names {
		c, err := parseCase(filepath.Join(casesDir, n))
		if err != nil {
			fatalf("%v", err)
		}
		if !slicesContains(c.toolkits, tk.version) {
			if len(flag.Args()) > 0 {
				fatalf("case %s is not built with CUDA %s (its toolkits: %s)", n, tk.version, strings.Join(c.toolkits, " "))
			}
			continue
		}
		c.genDir = filepath.Join(tk.casesDir, n)
		specs = append(specs, c)
	}
	if *list {
		for _, c := range specs {
			fmt.Printf("%-40s %-6s %-5s %s\n", c.name, c.arch, c.expect, c.comment)
		}
		return
	}

	for _, tool := range []string{"nvcc", "nvlink"} {
		if _, err := exec.LookPath(tk.tool(tool)); err != nil {
			fmt.Fprintf(os.Stderr, "regen: %s not found; the CUDA %s toolkit is needed to regenerate the corpus. Skipping (nothing changed).\n", tk.tool(tool), tk.version)
			return
		}
	}
	if v, err := tk.toolVersion(); err == nil && !strings.Contains(v, "release "+tk.version) {
		fmt.Fprintf(os.Stderr, "regen: warning: this corpus records CUDA %s behaviour, but nvcc says:\n%s\n", tk.version, v)
	}

	if *jobs < 1 {
		*jobs = 1
	}
	unlock, err := lockStage(tk.stageRoot)
	if err != nil {
		fatalf("%v", err)
	}
	if err := prepareLibs(tk, specs); err != nil {
		unlock()
		fatalf("%v", err)
	}
	results := make([]error, len(specs))
	sem := make(chan struct{}, *jobs)
	var wg sync.WaitGroup
	for i, c := range specs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			results[i] = regen(tk, c)
		}()
	}
	wg.Wait()
	os.RemoveAll(filepath.Join(tk.stageRoot, "libs"))
	os.RemoveAll(filepath.Join(tk.stageRoot, "cases"))
	unlock()

	failed := 0
	for i, c := range specs {
		if results[i] != nil {
			failed++
			fmt.Fprintf(os.Stderr, "FAIL %s: %v\n", c.name, results[i])
			continue
		}
		fmt.Printf("ok   %-40s %-6s expect %s\n", c.name, c.arch, c.expect)
	}
	if failed > 0 {
		fatalf("%d of %d cases failed", failed, len(specs))
	}
	fmt.Printf("regenerated %d cases with CUDA %s in %s\n", len(specs), tk.version, tk.casesDir)
}

func fatalf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "regen: "+format+"\n", args...)
	os.Exit(1)
}

// findCasesDir walks up from the working directory to the module root.
func findCasesDir() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.Contains(string(data), "module "+modulePath) {
			return filepath.Join(dir, "tests", "corpus", "cases"), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("cannot find the %s module root above the working directory", modulePath)
		}
		dir = parent
	}
}

func selectCases(casesDir string, args []string) ([]string, error) {
	if len(args) > 0 {
		var out []string
		for _, a := range args {
			a = strings.TrimSuffix(filepath.Base(a), "/")
			if _, err := os.Stat(filepath.Join(casesDir, a, "case.txt")); err != nil {
				return nil, fmt.Errorf("no such case %q (looked for %s)", a, filepath.Join(casesDir, a, "case.txt"))
			}
			out = append(out, a)
		}
		return out, nil
	}
	ents, err := os.ReadDir(casesDir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		if _, err := os.Stat(filepath.Join(casesDir, e.Name(), "case.txt")); err != nil {
			return nil, fmt.Errorf("case directory %s has no case.txt", e.Name())
		}
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out, nil
}

// parseCase reads dir/case.txt.
func parseCase(dir string) (*caseSpec, error) {
	path := filepath.Join(dir, "case.txt")
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	c := &caseSpec{
		name:        filepath.Base(dir),
		dir:         dir,
		sourceArch:  map[string]string{},
		sourceFlags: map[string][]string{},
		sourceTK:    map[string]string{},
	}
	switch c.name {
	case "cases", "libs":
		// <stageRoot>/cases and <stageRoot>/libs are taken (see stageRoot).
		return nil, fmt.Errorf("%s: a case may not be called %q", dir, c.name)
	}
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	lineNo := 0
	for sc.Scan() {
		lineNo++
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "#") {
			if c.comment == "" {
				c.comment = strings.TrimSpace(strings.TrimPrefix(line, "#"))
			}
			continue
		}
		if i := strings.Index(line, "#"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		if line == "" {
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("%s:%d: expected `key: value`", path, lineNo)
		}
		key = strings.TrimSpace(key)
		val = strings.TrimSpace(val)
		fields := strings.Fields(val)
		bad := func(msg string) error { return fmt.Errorf("%s:%d: %s: %s", path, lineNo, key, msg) }
		switch key {
		case "source-arch", "source-flags", "source-toolkit", "junk", "nvcc-lib", "nvcc-dlink", "ld-r", "cat", "ar", "ar-thin":
		default:
			if seen[key] {
				return nil, bad("given twice")
			}
		}
		seen[key] = true
		switch key {
		case "arch":
			if len(fields) != 1 || !strings.HasPrefix(val, "sm_") && !strings.HasPrefix(val, "compute_") {
				return nil, bad("want one sm_XX or compute_XX value")
			}
			c.arch = val
		case "sources":
			c.sources = fields
		case "ptx-sources":
			c.ptxSources = fields
		case "objects":
			c.objects = fields
		case "objects-no-rdc":
			c.objectsNoRDC = fields
		case "fatbins":
			c.fatbins = fields
		case "ptxas":
			if val != "yes" {
				return nil, bad("want yes (or leave the key out)")
			}
		case "nvvm":
			if val != "yes" {
				return nil, bad("want yes (or leave the key out)")
			}
			c.nvvm = true
		case "host-sources":
			c.hostSources = fields
		case "source-arch":
			if len(fields) != 2 || !strings.HasPrefix(fields[1], "sm_") {
				return nil, bad("want `<source.cu> sm_XX`")
			}
			if _, dup := c.sourceArch[fields[0]]; dup {
				return nil, bad(fields[0] + " given twice")
			}
			c.sourceArch[fields[0]] = fields[1]
		case "source-flags":
			if len(fields) < 2 {
				return nil, bad("want `<source.cu or nvcc-lib archive> <nvcc flags...>`")
			}
			if _, dup := c.sourceFlags[fields[0]]; dup {
				return nil, bad(fields[0] + " given twice")
			}
			c.sourceFlags[fields[0]] = fields[1:]
		case "source-toolkit":
			if len(fields) != 2 || !slicesContains(knownToolkits, fields[1]) {
				return nil, bad("want `<source.cu> <toolkit>`, the toolkit one of " + strings.Join(knownToolkits, " "))
			}
			if _, dup := c.sourceTK[fields[0]]; dup {
				return nil, bad(fields[0] + " given twice")
			}
			c.sourceTK[fields[0]] = fields[1]
		case "nvcc":
			c.nvccFlags = fields
		case "nvcc-lib", "ar", "ar-thin":
			if len(fields) < 2 || !strings.HasSuffix(fields[0], ".a") {
				return nil, bad("want `<lib.a> <members...>`")
			}
			l := libSpec{name: fields[0], members: fields[1:], thin: key == "ar-thin"}
			if key == "nvcc-lib" {
				c.nvccLibs = append(c.nvccLibs, l)
			} else {
				c.arLibs = append(c.arLibs, l)
			}
		case "nvcc-dlink":
			if len(fields) < 2 || !strings.HasSuffix(fields[0], ".o") {
				return nil, bad("want `<out.o> <inputs...>`")
			}
			c.nvccDlinks = append(c.nvccDlinks, libSpec{name: fields[0], members: fields[1:]})
		case "cat":
			if len(fields) < 2 {
				return nil, bad("want `<out> <inputs...>`")
			}
			c.cats = append(c.cats, libSpec{name: fields[0], members: fields[1:]})
		case "ld-r":
			if len(fields) < 2 || !strings.HasSuffix(fields[0], ".o") {
				return nil, bad("want `<out.o> <inputs...>`")
			}
			c.ldRs = append(c.ldRs, libSpec{name: fields[0], members: fields[1:]})
		case "devrt":
			if val != "yes" {
				return nil, bad("want yes (or leave the key out)")
			}
			c.devrt = true
		case "cudalink":
			if val != "differs" {
				return nil, bad("want differs (or leave the key out)")
			}
			c.differs = true
		case "register-link-binaries":
			if val != "yes" {
				return nil, bad("want yes (or leave the key out)")
			}
			c.regLink = true
		case "cuda-version":
			// difftest only: cudalink gets --cuda-version=<toolkit>.
			if val != "yes" {
				return nil, bad("want yes (or leave the key out)")
			}
		case "link":
			c.link = fields
			c.linkSet = true
		case "nvlink":
			c.nvlinkFlags = fields
		case "junk":
			if len(fields) != 2 {
				return nil, bad("want `<file> <kind>`")
			}
			c.junk = append(c.junk, junkSpec{name: fields[0], kind: fields[1]})
		case "expect":
			if val != "ok" && val != "error" {
				return nil, bad("want ok or error")
			}
			c.expect = val
		case "toolkits":
			if len(fields) == 0 {
				return nil, bad("want one or more of " + strings.Join(knownToolkits, " "))
			}
			for _, f := range fields {
				if !slicesContains(knownToolkits, f) {
					return nil, bad(fmt.Sprintf("unknown toolkit %q (known: %s)", f, strings.Join(knownToolkits, " ")))
				}
			}
			c.toolkits = fields
		default:
			return nil, fmt.Errorf("%s:%d: unknown key %q", path, lineNo, key)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if c.arch == "" {
		return nil, fmt.Errorf("%s: missing arch", path)
	}
	if c.expect == "" {
		return nil, fmt.Errorf("%s: missing expect", path)
	}
	if c.comment == "" {
		return nil, fmt.Errorf("%s: the first comment line should say what the case covers", path)
	}
	if c.toolkits == nil {
		c.toolkits = []string{defaultToolkit}
	}
	if c.virtual() && !c.regLink && !slices.Contains(c.nvlinkFlags, "-emit-ptx") {
		// (nvlink can still fail one: -Werror, PTX its ptxas refuses.
		// With -dlto -emit-ptx it writes the program's PTX and no
		// .reg.c, as for sm_NN: lto-virtual-target-emit-ptx-compute80.)
		return nil, fmt.Errorf("%s: a compute_XX (virtual) target links nothing: its case has `register-link-binaries: yes`", path)
	}
	if c.regLink && (c.expect != "ok" && !c.virtual() || c.differs) {
		return nil, fmt.Errorf("%s: register-link-binaries is only for `expect: ok` cases (and virtual targets' errors) without `cudalink: differs`", path)
	}

	// Every generated file has exactly one producer.
	producer := map[string]string{}
	produce := func(name, by string) error {
		if filepath.IsAbs(name) || strings.Contains(name, "/") || name == "case.txt" || name == "expected.txt" || name == "expected.cubin" || name == regFile {
			return fmt.Errorf("%s: %s: bad output name %q", path, by, name)
		}
		if prev, dup := producer[name]; dup {
			return fmt.Errorf("%s: %q is produced by both %s and %s", path, name, prev, by)
		}
		producer[name] = by
		return nil
	}
	compiled := map[string]bool{} // .cu files compiled on their own
	for _, list := range []struct {
		key   string
		files []string
		out   func(string) string
	}{
		{"sources", c.sources, cubinName},
		{"ptx-sources", c.ptxSources, cubinName},
		{"objects", c.objects, objectName},
		{"objects-no-rdc", c.objectsNoRDC, objectName},
		{"fatbins", c.fatbins, fatbinName},
		{"host-sources", c.hostSources, objectName},
	} {
		for _, s := range list.files {
			if ext := sourceExt(list.key); !strings.HasSuffix(s, ext) {
				return nil, fmt.Errorf("%s: %s: %q does not end in %s", path, list.key, s, ext)
			}
			if err := produce(list.out(s), list.key); err != nil {
				return nil, err
			}
			compiled[s] = true
		}
	}
	libNames := map[string]bool{}
	for _, l := range c.nvccLibs {
		for _, m := range l.members {
			if !strings.HasSuffix(m, ".cu") {
				return nil, fmt.Errorf("%s: nvcc-lib %s: %q does not end in .cu", path, l.name, m)
			}
		}
		if err := produce(l.name, "nvcc-lib"); err != nil {
			return nil, err
		}
		libNames[l.name] = true
	}
	// fromEarlier produces l.name, a step of kind made of files (each a
	// what) that the steps before it generate.
	fromEarlier := func(kind, what, steps string, l libSpec) error {
		for _, m := range l.members {
			if _, ok := producer[m]; !ok {
				return fmt.Errorf("%s: %s %s: %s %q is not generated by an earlier step (%s)", path, kind, l.name, what, m, steps)
			}
		}
		return produce(l.name, kind)
	}
	for _, l := range c.nvccDlinks {
		if err := fromEarlier("nvcc-dlink", "input", "objects, nvcc-lib", l); err != nil {
			return nil, err
		}
	}
	for _, l := range c.ldRs {
		if err := fromEarlier("ld-r", "input", "objects, objects-no-rdc, host-sources, nvcc-dlink, ld-r", l); err != nil {
			return nil, err
		}
	}
	for _, l := range c.cats {
		if err := fromEarlier("cat", "input", "sources, objects, objects-no-rdc, fatbins, nvcc-dlink, ld-r, cat", l); err != nil {
			return nil, err
		}
	}
	for _, j := range c.junk {
		if err := produce(j.name, "junk"); err != nil {
			return nil, err
		}
	}
	for _, l := range c.arLibs {
		if err := fromEarlier("ar", "member", "sources, objects, objects-no-rdc, fatbins, nvcc-lib, junk", l); err != nil {
			return nil, err
		}
	}
	for s := range c.sourceArch {
		if !compiled[s] {
			return nil, fmt.Errorf("%s: source-arch names %q, which is not in sources, ptx-sources, objects, objects-no-rdc or fatbins", path, s)
		}
		if _, both := c.sourceFlags[s]; both {
			return nil, fmt.Errorf("%s: %q has both source-arch and source-flags", path, s)
		}
	}
	for s := range c.sourceTK {
		if !compiled[s] {
			return nil, fmt.Errorf("%s: source-toolkit names %q, which is not in sources, ptx-sources, objects or objects-no-rdc", path, s)
		}
	}
	for s := range c.sourceFlags {
		if !compiled[s] && !libNames[s] {
			return nil, fmt.Errorf("%s: source-flags names %q, which is neither compiled on its own nor an nvcc-lib archive", path, s)
		}
	}

	if !c.linkSet {
		if len(c.objects)+len(c.objectsNoRDC)+len(c.hostSources)+len(c.fatbins)+len(c.nvccLibs)+len(c.arLibs) > 0 {
			return nil, fmt.Errorf("%s: a case with more than `sources:` needs a `link:` line", path)
		}
		for _, s := range append(append([]string(nil), c.sources...), c.ptxSources...) {
			c.link = append(c.link, cubinName(s))
		}
	}
	if len(c.link) == 0 {
		return nil, fmt.Errorf("%s: nothing to link", path)
	}
	for _, in := range c.link {
		switch {
		case filepath.IsAbs(in) || strings.HasPrefix(in, "-L/"):
			return nil, fmt.Errorf("%s: link: %q: absolute paths would make the case depend on the machine", path, in)
		case strings.HasPrefix(in, "-L") && len(in) > 2, strings.HasPrefix(in, "-l") && len(in) > 2:
		case strings.HasPrefix(in, "-"):
			return nil, fmt.Errorf("%s: link: %q: only -L<dir> and -l<name> may appear among the inputs (other flags go to `nvlink:`)", path, in)
		}
	}
	return c, nil
}

func cubinName(src string) string { return strings.TrimSuffix(src, filepath.Ext(src)) + ".cubin" }
func objectName(src string) string {
	return strings.TrimSuffix(strings.TrimSuffix(src, ".cu"), ".cpp") + ".o"
}
func fatbinName(src string) string { return strings.TrimSuffix(src, ".cu") + ".fatbin" }

// sourceExt is the suffix the files of a compile list must have.
func sourceExt(key string) string {
	switch key {
	case "ptx-sources":
		return ".ptx"
	case "host-sources":
		return ".cpp"
	}
	return ".cu"
}

// toolEnv is the environment for nvcc and nvlink: the caller's, minus the
// variables that would silently add flags.
func toolEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "NVCC_PREPEND_FLAGS", "NVCC_APPEND_FLAGS", "NVCC_CCBIN":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "LC_ALL=C")
}

// defaultToolkit is the toolkit of tests/corpus/cases, and of a case
// without a `toolkits:` line.
const defaultToolkit = "11.8"

// knownToolkits are the toolkits a case may be built with.
var knownToolkits = []string{"11.8", "12.4", "12.5"}

// toolkit is where one toolkit's tools are and where what they build goes.
//
//   - 11.8: nvcc, nvlink, ptxas from PATH; generated files next to the
//     sources in tests/corpus/cases/<name>/, shared libraries in
//     tests/corpus/libs/; staged in /tmp/cudalink-corpus-build.
//   - 12.x: the tools of /opt/cuda-12.x/usr/bin (scripts/setup-cuda12.sh
//     unpacks them there); generated files in
//     tests/corpus/cuda-12.x/cases/<name>/ (the sources stay in
//     tests/corpus/cases/<name>/), libraries in tests/corpus/cuda-12.x/libs/;
//     staged in /tmp/cudalink-corpus-build-12.x.
type toolkit struct {
	version   string
	binDir    string // "" for PATH
	casesDir  string // where each case's generated files go, in <casesDir>/<name>
	libsDir   string // the shared libraries (libcudadevrt.a)
	stageRoot string
}

func toolkitLayout(casesDir, version string) (*toolkit, error) {
	if !slicesContains(knownToolkits, version) {
		return nil, fmt.Errorf("-cuda %s: unknown toolkit (known: %s)", version, strings.Join(knownToolkits, " "))
	}
	corpus := filepath.Dir(casesDir)
	if version == defaultToolkit {
		return &toolkit{version: version, casesDir: casesDir, libsDir: filepath.Join(corpus, "libs"), stageRoot: stageRoot}, nil
	}
	top := filepath.Join(corpus, "cuda-"+version)
	return &toolkit{
		version:   version,
		binDir:    "/opt/cuda-" + version + "/usr/bin",
		casesDir:  filepath.Join(top, "cases"),
		libsDir:   filepath.Join(top, "libs"),
		stageRoot: stageRoot + "-" + version,
	}, nil
}

// tool is the program to run for a tool name: its path in the toolkit's
// bin directory, or the name (looked up in PATH).
func (tk *toolkit) tool(name string) string {
	if tk.binDir == "" || name == "ar" {
		return name
	}
	return filepath.Join(tk.binDir, name)
}

// nvvmDir makes <stageRoot>/nvvm, the directory nvlink -dlto wants as
// -nvvmpath: lib64/libnvvm.so and libdevice/, linked to the toolkit's
// (<nvcc dir>/../nvvm, else Debian's /usr/lib/x86_64-linux-gnu/libnvvm.so
// and /usr/lib/nvidia-cuda-toolkit/libdevice, which nvcc's own
// -nvvmpath does not find).
func (tk *toolkit) nvvmDir() (string, error) {
	nvcc, err := exec.LookPath(tk.tool("nvcc"))
	if err != nil {
		return "", err
	}
	// Beside nvcc in nvvm/ (NVIDIA's layout), else at Debian's paths
	// under the toolkit's prefix (/usr for 11.8, /opt/cuda-<v>/usr).
	base := filepath.Join(filepath.Dir(nvcc), "..")
	lib := firstExisting(filepath.Join(base, "nvvm", "lib64", "libnvvm.so"), filepath.Join(base, "lib", "x86_64-linux-gnu", "libnvvm.so"))
	libdevice := firstExisting(filepath.Join(base, "nvvm", "libdevice"), filepath.Join(base, "lib", "nvidia-cuda-toolkit", "libdevice"))
	if lib == "" || libdevice == "" {
		return "", fmt.Errorf("the CUDA %s toolkit's libnvvm.so or libdevice was not found (nvvm: yes needs them)", tk.version)
	}
	// Cases are built in parallel: each makes the directory aside and
	// renames it into place; the first wins and the others use it.
	dir := filepath.Join(tk.stageRoot, "nvvm")
	if _, err := os.Stat(filepath.Join(dir, "lib64", "libnvvm.so")); err == nil {
		return dir, nil
	}
	tmp, err := os.MkdirTemp(tk.stageRoot, "nvvm-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	if err := os.Mkdir(filepath.Join(tmp, "lib64"), 0o755); err != nil {
		return "", err
	}
	if err := os.Symlink(lib, filepath.Join(tmp, "lib64", "libnvvm.so")); err != nil {
		return "", err
	}
	if err := os.Symlink(libdevice, filepath.Join(tmp, "libdevice")); err != nil {
		return "", err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, err2 := os.Stat(filepath.Join(dir, "lib64", "libnvvm.so")); err2 != nil {
			return "", err
		}
	}
	return dir, nil
}

// firstExisting returns the first path that exists, or "".
func firstExisting(paths ...string) string {
	for _, p := range paths {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

func (tk *toolkit) toolVersion() (string, error) {
	out, err := exec.Command(tk.tool("nvcc"), "--version").CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

func slicesContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// run executes name args in dir and returns the combined stdout/stderr (in
// the order written) and the exit status.
func run(dir string, name string, args ...string) (string, int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = toolEnv()
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	if err == nil {
		return out.String(), 0, nil
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.Exited() {
		return out.String(), ee.ExitCode(), nil
	}
	return out.String(), -1, fmt.Errorf("%s %s: %v", name, strings.Join(args, " "), err)
}

// stageRoot is where every case is built. nvcc derives the names of
// internal-linkage symbols (static functions and variables, anonymous
// namespaces: _INTERNAL_<hash>_4_a_cu_..., __nv_static_...) and the module
// id of a host object from a hash of the source file's absolute path, so
// building in the checkout would make the inputs depend on where the
// repository lives. Compiling in <stageRoot>/<case>/ keeps them identical on
// every machine.
//
// The link itself runs in <stageRoot>/cases/<case>/ (the compiled directory
// is moved there), next to <stageRoot>/libs/, a copy of tests/corpus/libs/:
// the layout of the repository, so that a `link:` line can name the shared
// libraries as ../../libs in the case directory and in the staged copy alike.
// nvlink's output does not depend on its working directory.
const stageRoot = "/tmp/cudalink-corpus-build"

// devrtPaths are where libcudadevrt.a is looked for, after the toolkit
// directories next to nvcc (11.8 only: a 12.x toolkit's must be its own).
var devrtPaths = []string{"/usr/lib/x86_64-linux-gnu/libcudadevrt.a", "/usr/local/cuda/lib64/libcudadevrt.a"}

// findDevrt returns the path of the toolkit's libcudadevrt.a.
func findDevrt(tk *toolkit) (string, error) {
	var cands []string
	if nv, err := exec.LookPath(tk.tool("nvcc")); err == nil {
		if real, err := filepath.EvalSymlinks(nv); err == nil {
			nv = real
		}
		top := filepath.Dir(filepath.Dir(nv))
		cands = append(cands,
			filepath.Join(top, "lib64", "libcudadevrt.a"),
			filepath.Join(top, "targets", "x86_64-linux", "lib", "libcudadevrt.a"),
			filepath.Join(top, "lib", "x86_64-linux-gnu", "libcudadevrt.a"))
	}
	if tk.binDir == "" {
		cands = append(cands, devrtPaths...)
	}
	for _, p := range cands {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p, nil
		}
	}
	return "", fmt.Errorf("libcudadevrt.a not found (looked in %s)", strings.Join(cands, ", "))
}

// prepareLibs maintains tests/corpus/libs (or the toolkit's libs), the
// libraries shared by several cases (today libcudadevrt.a, refreshed from the
// toolkit when a selected case says `devrt: yes`), and copies it to
// <stageRoot>/libs.
func prepareLibs(tk *toolkit, specs []*caseSpec) error {
	libs := tk.libsDir
	for _, c := range specs {
		if !c.devrt {
			continue
		}
		src, err := findDevrt(tk)
		if err != nil {
			return err
		}
		want, err := os.ReadFile(src)
		if err != nil {
			return err
		}
		dst := filepath.Join(libs, "libcudadevrt.a")
		if have, err := os.ReadFile(dst); err != nil || !bytes.Equal(have, want) {
			if err := os.MkdirAll(libs, 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(dst, want, 0o644); err != nil {
				return err
			}
			fmt.Printf("updated %s from %s\n", dst, src)
		}
		break
	}
	stageLibs := filepath.Join(tk.stageRoot, "libs")
	if err := os.RemoveAll(stageLibs); err != nil {
		return err
	}
	ents, err := os.ReadDir(libs)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := os.MkdirAll(stageLibs, 0o755); err != nil {
		return err
	}
	for _, e := range ents {
		if e.Type().IsRegular() {
			if err := copyFile(filepath.Join(libs, e.Name()), filepath.Join(stageLibs, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

// lockStage makes sure only one regen uses stageRoot at a time. It returns
// the function that releases the lock.
func lockStage(stageRoot string) (func(), error) {
	if err := os.MkdirAll(stageRoot, 0o755); err != nil {
		return nil, err
	}
	lock := filepath.Join(stageRoot, "regen.lock")
	for attempt := 0; attempt < 2; attempt++ {
		f, err := os.OpenFile(lock, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			fmt.Fprintf(f, "%d\n", os.Getpid())
			f.Close()
			return func() { os.Remove(lock) }, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, err
		}
		data, _ := os.ReadFile(lock)
		pid, perr := strconv.Atoi(strings.TrimSpace(string(data)))
		if perr == nil && pid > 0 {
			if p, err := os.FindProcess(pid); err == nil && p.Signal(syscall.Signal(0)) == nil {
				return nil, fmt.Errorf("%s is held by process %d (another regen running?)", lock, pid)
			}
		}
		os.Remove(lock) // stale lock left by a dead process
	}
	return nil, fmt.Errorf("cannot take %s", lock)
}

// copyFile copies src to dst (regular files only).
func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644)
}

// virtual says whether the case links for a virtual target: the last
// -arch of nvlink's command line (arch:, then any in nvlink:) is a
// compute_ one, since nvlink's last value wins.
func (c *caseSpec) virtual() bool {
	arch := c.arch
	for _, f := range c.nvlinkFlags {
		if v, ok := strings.CutPrefix(f, "-arch="); ok {
			arch = v
		} else if v, ok := strings.CutPrefix(f, "--arch="); ok {
			arch = v
		}
	}
	return strings.HasPrefix(arch, "compute_")
}

// archFlags returns the flags that select what nvcc generates for file (a
// .cu or an nvcc-lib archive): its source-flags, else -arch= its source-arch,
// else -arch= the case's arch.
func (c *caseSpec) archFlags(file string) []string {
	if f, ok := c.sourceFlags[file]; ok {
		return f
	}
	if a, ok := c.sourceArch[file]; ok {
		return []string{"-arch=" + a}
	}
	return []string{"-arch=" + c.arch}
}

// isJunk reports whether name is a `junk:` input.
func (c *caseSpec) isJunk(name string) bool {
	for _, j := range c.junk {
		if j.name == name {
			return true
		}
	}
	return false
}

// sourceToolkit is the toolkit that compiles file: its `source-toolkit:`,
// else the one the case is being built with (a mixed-toolkit link).
func (c *caseSpec) sourceToolkit(tk *toolkit, file string) *toolkit {
	v, ok := c.sourceTK[file]
	if !ok || v == tk.version {
		return tk
	}
	other, err := toolkitLayout(filepath.Dir(c.dir), v)
	if err != nil {
		return tk // parseCase checked the name
	}
	return other
}

// isGenerated reports whether a file of the case directory is made by regen.
func (c *caseSpec) isGenerated(name string) bool {
	if name == "expected.txt" || name == "expected.cubin" || name == regFile {
		return true
	}
	for _, j := range c.junk {
		if j.name == name {
			return true
		}
	}
	for _, l := range append(append([]libSpec(nil), c.nvccLibs...), c.arLibs...) {
		if l.name == name {
			return true
		}
	}
	for _, ext := range generatedExt {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}

// nvcc runs nvcc in dir and fails unless it succeeds.
func nvcc(tk *toolkit, dir string, args ...string) error {
	out, status, err := run(dir, tk.tool("nvcc"), args...)
	if err != nil {
		return err
	}
	if status != 0 {
		return fmt.Errorf("nvcc %s failed (exit %d):\n%s", strings.Join(args, " "), status, out)
	}
	return nil
}

// ptxas runs ptxas in dir and fails unless it succeeds.
func ptxas(tk *toolkit, dir string, args ...string) error {
	out, status, err := run(dir, tk.tool("ptxas"), args...)
	if err != nil {
		return err
	}
	if status != 0 {
		return fmt.Errorf("ptxas %s failed (exit %d):\n%s", strings.Join(args, " "), status, out)
	}
	return nil
}

// regen rebuilds one case: it stages the hand-written files in
// <stageRoot>/<case>, compiles there, moves the directory to
// <stageRoot>/cases/<case>, creates the junk inputs and archives and links
// there, and copies the generated files back into the case directory.
func regen(tk *toolkit, c *caseSpec) error {
	// Remove every generated file first, so that nothing stale survives
	// (e.g. a missing-input case must not find an old file).
	if err := os.MkdirAll(c.genDir, 0o755); err != nil {
		return err
	}
	if c.genDir != c.dir {
		gen, err := os.ReadDir(c.genDir)
		if err != nil {
			return err
		}
		for _, e := range gen {
			if c.isGenerated(e.Name()) {
				if err := os.Remove(filepath.Join(c.genDir, e.Name())); err != nil {
					return err
				}
			}
		}
	}
	ents, err := os.ReadDir(c.dir)
	if err != nil {
		return err
	}
	build := filepath.Join(tk.stageRoot, c.name)
	stage := filepath.Join(tk.stageRoot, "cases", c.name)
	for _, d := range []string{build, stage} {
		if err := os.RemoveAll(d); err != nil {
			return err
		}
		defer os.RemoveAll(d)
	}
	if err := os.MkdirAll(build, 0o755); err != nil {
		return err
	}
	for _, e := range ents {
		path := filepath.Join(c.dir, e.Name())
		if c.isGenerated(e.Name()) {
			if c.genDir == c.dir {
				if err := os.Remove(path); err != nil {
					return err
				}
			}
			continue
		}
		if e.Type().IsRegular() {
			if err := copyFile(path, filepath.Join(build, e.Name())); err != nil {
				return err
			}
		}
	}
	var outputs []string // generated files to copy back, in order

	// Compile: cubins, host objects, nvcc -lib archives.
	for _, step := range []struct {
		files []string
		mode  []string
		out   func(string) string
	}{
		{c.sources, []string{"-dc", "-cubin"}, cubinName},
		{c.objects, []string{"-dc"}, objectName},
		{c.objectsNoRDC, []string{"-c"}, objectName},
		{c.fatbins, []string{"-fatbin", "-rdc=true"}, fatbinName},
	} {
		for _, src := range step.files {
			if _, err := os.Stat(filepath.Join(build, src)); err != nil {
				return fmt.Errorf("source %s: %v", src, err)
			}
			args := append(append([]string(nil), step.mode...), c.archFlags(src)...)
			args = append(args, c.nvccFlags...)
			args = append(args, src, "-o", step.out(src))
			if err := nvcc(c.sourceToolkit(tk, src), build, args...); err != nil {
				return err
			}
			outputs = append(outputs, step.out(src))
		}
	}
	// Hand-written PTX (common and weak data, which nvcc never emits).
	for _, src := range c.ptxSources {
		if _, err := os.Stat(filepath.Join(build, src)); err != nil {
			return fmt.Errorf("ptx source %s: %v", src, err)
		}
		args := append([]string{"-c"}, c.archFlags(src)...)
		args = append(args, src, "-o", cubinName(src))
		if err := ptxas(c.sourceToolkit(tk, src), build, args...); err != nil {
			return err
		}
		outputs = append(outputs, cubinName(src))
	}
	// Plain host objects: what a host compiler alone makes (no device
	// code, no .nvHR* host-reference lists).
	for _, src := range c.hostSources {
		if _, err := os.Stat(filepath.Join(build, src)); err != nil {
			return fmt.Errorf("host source %s: %v", src, err)
		}
		args := []string{"-c", src, "-o", objectName(src)}
		out, status, err := run(build, "g++", args...)
		if err != nil {
			return err
		}
		if status != 0 {
			return fmt.Errorf("g++ %s failed (exit %d):\n%s", strings.Join(args, " "), status, out)
		}
		outputs = append(outputs, objectName(src))
	}
	for _, l := range c.nvccLibs {
		args := append([]string{"-rdc=true", "-lib"}, c.archFlags(l.name)...)
		args = append(args, c.nvccFlags...)
		args = append(args, l.members...)
		args = append(args, "-o", l.name)
		if err := nvcc(tk, build, args...); err != nil {
			return err
		}
		outputs = append(outputs, l.name)
	}
	for _, l := range c.nvccDlinks {
		args := append([]string{"-dlink"}, c.archFlags(l.name)...)
		args = append(args, c.nvccFlags...)
		args = append(args, l.members...)
		args = append(args, "-o", l.name)
		if err := nvcc(tk, build, args...); err != nil {
			return err
		}
		outputs = append(outputs, l.name)
	}
	// Host objects and nvcc -lib archives carry the names of nvcc's
	// temporary files, which contain its process id.
	for _, name := range outputs {
		if err := fixTempNames(filepath.Join(build, name)); err != nil {
			return err
		}
	}
	// ld -r of host objects (theirs fixed above): binutils' relocatable
	// link, deterministic.
	for _, l := range c.ldRs {
		args := append([]string{"-r"}, l.members...)
		args = append(args, "-o", l.name)
		out, status, err := run(build, "ld", args...)
		if err != nil {
			return err
		}
		if status != 0 {
			return fmt.Errorf("ld %s failed (exit %d):\n%s", strings.Join(args, " "), status, out)
		}
		outputs = append(outputs, l.name)
	}
	// cat: files generated above, back to back (fatbinaries as a tool
	// that concatenates them writes them).
	for _, l := range c.cats {
		var data []byte
		for _, m := range l.members {
			b, err := os.ReadFile(filepath.Join(build, m))
			if err != nil {
				return err
			}
			data = append(data, b...)
		}
		if err := os.WriteFile(filepath.Join(build, l.name), data, 0o644); err != nil {
			return err
		}
		outputs = append(outputs, l.name)
	}

	if err := os.MkdirAll(filepath.Dir(stage), 0o755); err != nil {
		return err
	}
	if err := os.Rename(build, stage); err != nil {
		return err
	}

	for _, j := range c.junk {
		data, err := makeJunk(stage, j.kind)
		if err != nil {
			return fmt.Errorf("junk %s %s: %v", j.name, j.kind, err)
		}
		if err := os.WriteFile(filepath.Join(stage, j.name), data, 0o644); err != nil {
			return err
		}
		outputs = append(outputs, j.name)
	}

	for _, l := range c.arLibs {
		// D: deterministic mode (zero dates, uids and gids, mode 644).
		flags := "rcsD"
		if l.thin {
			flags = "rcsDT"
		}
		args := append([]string{flags, l.name}, l.members...)
		out, status, err := run(stage, "ar", args...)
		if err != nil {
			return err
		}
		if status != 0 {
			return fmt.Errorf("ar %s failed (exit %d):\n%s", strings.Join(args, " "), status, out)
		}
		outputs = append(outputs, l.name)
	}
	for _, name := range outputs {
		if strings.HasSuffix(name, ".a") && !c.isJunk(name) { // a junk .a is no archive
			if err := normalizeArchive(filepath.Join(stage, name)); err != nil {
				return err
			}
		}
	}

	args := []string{"-arch=" + c.arch}
	if c.regLink {
		args = append(args, "--register-link-binaries="+regFile)
	}
	args = append(args, c.nvlinkFlags...)
	if c.nvvm {
		dir, err := tk.nvvmDir()
		if err != nil {
			return err
		}
		args = append(args, "-nvvmpath="+dir)
	}
	args = append(args, c.link...)
	args = append(args, "-o", "expected.cubin")
	out, status, err := run(stage, tk.tool("nvlink"), args...)
	if err != nil {
		return err
	}
	outPath := filepath.Join(stage, "expected.cubin")
	if status != 0 {
		// Leave no partial output behind.
		if err := os.Remove(outPath); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	} else {
		_, err := os.Stat(outPath)
		switch {
		case c.virtual() && c.nvvm && err == nil:
			// -dlto for a virtual target: nvlink writes the whole
			// program it compiled for sm_NN, as -arch=sm_NN does
			// (lto-virtual-target-whole-program-compute80), or with
			// -emit-ptx its PTX (lto-virtual-target-emit-ptx-compute80).
			outputs = append(outputs, "expected.cubin")
		case c.virtual():
			// A virtual target: nvlink links nothing and writes only
			// the --register-link-binaries file.
			if err == nil {
				return fmt.Errorf("nvlink wrote expected.cubin for a virtual target")
			}
		case err != nil:
			return fmt.Errorf("nvlink exited 0 but wrote no expected.cubin")
		default:
			outputs = append(outputs, "expected.cubin")
		}
		if c.regLink {
			if _, err := os.Stat(filepath.Join(stage, regFile)); err != nil {
				return fmt.Errorf("nvlink exited 0 but wrote no %s", regFile)
			}
			outputs = append(outputs, regFile)
		}
	}
	txt := "exit " + strconv.Itoa(status) + "\n" + out
	if err := os.WriteFile(filepath.Join(stage, "expected.txt"), []byte(txt), 0o644); err != nil {
		return err
	}
	outputs = append(outputs, "expected.txt")

	if c.genDir != c.dir {
		// The hand-written link inputs (.ptx files) go with what the
		// toolkit built, so that its directory holds every input.
		for _, in := range c.link {
			if strings.HasPrefix(in, "-") || strings.Contains(in, "/") || c.isGenerated(in) {
				continue
			}
			if st, err := os.Stat(filepath.Join(c.dir, in)); err == nil && st.Mode().IsRegular() {
				outputs = append(outputs, in)
			}
		}
	}
	for _, name := range outputs {
		if err := copyFile(filepath.Join(stage, name), filepath.Join(c.genDir, name)); err != nil {
			return err
		}
	}

	got := "ok"
	if status != 0 {
		got = "error"
	}
	if got != c.expect {
		return fmt.Errorf("case.txt says `expect: %s`, but nvlink %s exited %d:\n%s",
			c.expect, strings.Join(args, " "), status, out)
	}
	return nil
}

// tempName matches the names of nvcc's temporary files,
// tmpxft_<pid>_<counter>-<n>_<stem>...: host objects keep one as the name of
// their STT_FILE symbol (tmpxft_..._a.cudafe1.cpp), and `nvcc -lib` archives
// use them as member names (tmpxft_..._a.o).
var tempName = regexp.MustCompile(`tmpxft_[0-9a-f]{8}_[0-9a-f]{8}-`)

// fixTempNames replaces the process-id field of nvcc's temporary file names
// in a generated file by zeros (same length, so nothing else moves); without
// this, every build of a host object differs in those bytes.
func fixTempNames(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	fixed := tempName.ReplaceAllFunc(data, func(m []byte) []byte {
		return append([]byte("tmpxft_00000000"), m[len("tmpxft_00000000"):]...)
	})
	if bytes.Equal(fixed, data) {
		return nil
	}
	return os.WriteFile(path, fixed, 0o644)
}

// normalizeArchive gives every member header of an ar archive the values of
// GNU ar's deterministic mode (date 0, uid 0, gid 0, mode 644; all 0 for
// the symbol index), whatever ar
// built it: `nvcc -lib` runs `ar cr`, which is deterministic only where
// binutils was configured so (Debian's is).
func normalizeArchive(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	const magic = "!<arch>\n"
	thin := bytes.HasPrefix(data, []byte("!<thin>\n")) // members' contents stored outside
	if !bytes.HasPrefix(data, []byte(magic)) && !thin {
		return fmt.Errorf("%s: not an ar archive", path)
	}
	out := bytes.Clone(data)
	field := func(h []byte, off, width int, val string) {
		copy(h[off:off+width], fmt.Sprintf("%-*s", width, val))
	}
	for off := len(magic); off < len(out); {
		if off+60 > len(out) || string(out[off+58:off+60]) != "`\n" {
			return fmt.Errorf("%s: bad member header at offset %d", path, off)
		}
		h := out[off : off+60]
		size, err := strconv.Atoi(strings.TrimSpace(string(h[48:58])))
		if err != nil || size < 0 {
			return fmt.Errorf("%s: bad member size at offset %d", path, off)
		}
		name := string(h[:16])
		table := strings.HasPrefix(name, "// ") || strings.HasPrefix(name, "/ ") || strings.HasPrefix(name, "/SYM64/ ")
		switch {
		case strings.HasPrefix(name, "// "):
			// The long-name table: GNU ar leaves these fields blank.
		case strings.HasPrefix(name, "/ "), strings.HasPrefix(name, "/SYM64/ "):
			// The symbol index: all zero in deterministic mode.
			field(h, 16, 12, "0")
			field(h, 28, 6, "0")
			field(h, 34, 6, "0")
			field(h, 40, 8, "0")
		default:
			field(h, 16, 12, "0")  // date
			field(h, 28, 6, "0")   // uid
			field(h, 34, 6, "0")   // gid
			field(h, 40, 8, "644") // mode (octal)
		}
		if thin && !table {
			off += 60 // a thin member is its header alone
			continue
		}
		off += 60 + size + size%2
	}
	if bytes.Equal(out, data) {
		return nil
	}
	return os.WriteFile(path, out, 0o644)
}

// orphanBank2 returns a copy of an ELF64 cubin with sh_info set to 0 in
// every .nv.constant2.<function> section header: the functions'
// compiler-generated constants (jump tables, wide immediates) tied to no
// function, which no tool writes but nvlink still links (their symbols'
// bytes go to one module-wide bank 2, at each symbol's own offset, where
// overlapping bytes must be identical).
func orphanBank2(name string, data []byte) ([]byte, error) {
	return editBank2(name, data, "", func(out []byte, hdr uint64) error {
		binary.LittleEndian.PutUint32(out[hdr+0x2c:], 0) // sh_info
		return nil
	})
}

// fillBank2 returns a copy of an ELF64 cubin with the bytes of the
// .nv.constant2.<function> sections of the functions whose names start
// with prefix set to b: constants of a weak function's copy that differ
// from another file's copy of it, which no compiler writes (nvlink refuses
// such copies where it merges them).
func fillBank2(name string, data []byte, prefix string, b byte) ([]byte, error) {
	return editBank2(name, data, prefix, func(out []byte, hdr uint64) error {
		le := binary.LittleEndian
		off, size := le.Uint64(out[hdr+0x18:]), le.Uint64(out[hdr+0x20:])
		if off > uint64(len(out)) || size > uint64(len(out))-off {
			return fmt.Errorf("%s: a .nv.constant2 section runs past the end of the file", name)
		}
		for i := range out[off : off+size] {
			out[off+uint64(i)] = b
		}
		return nil
	})
}

// editBank2 returns a copy of an ELF64 cubin in which edit has changed
// each .nv.constant2.<function> section of a function whose name starts
// with prefix (hdr: where its header is in the copy), or an error if
// there is none.
func editBank2(name string, data []byte, prefix string, edit func(out []byte, hdr uint64) error) ([]byte, error) {
	if len(data) < 64 || string(data[:4]) != "\x7fELF" || data[4] != 2 || data[5] != 1 {
		return nil, fmt.Errorf("%s is not a little-endian ELF64 file", name)
	}
	le := binary.LittleEndian
	shoff, shentsize, shnum, shstrndx := le.Uint64(data[0x28:]), uint64(le.Uint16(data[0x3a:])), uint64(le.Uint16(data[0x3c:])), uint64(le.Uint16(data[0x3e:]))
	if shentsize < 64 || shstrndx >= shnum || shoff > uint64(len(data)) || shnum*shentsize > uint64(len(data))-shoff {
		return nil, fmt.Errorf("%s: bad section header table", name)
	}
	hdr := func(i uint64) []byte { return data[shoff+i*shentsize : shoff+i*shentsize+64] }
	strOff, strSize := le.Uint64(hdr(shstrndx)[0x18:]), le.Uint64(hdr(shstrndx)[0x20:])
	if strOff > uint64(len(data)) || strSize > uint64(len(data))-strOff {
		return nil, fmt.Errorf("%s: bad section name table", name)
	}
	names := data[strOff : strOff+strSize]
	out := bytes.Clone(data)
	n := 0
	for i := uint64(1); i < shnum; i++ {
		h := hdr(i)
		nameOff := uint64(le.Uint32(h))
		if nameOff >= uint64(len(names)) {
			return nil, fmt.Errorf("%s: section %d: bad name offset", name, i)
		}
		secName, _, _ := bytes.Cut(names[nameOff:], []byte{0})
		if le.Uint32(h[4:]) == 0x70000066 && bytes.HasPrefix(secName, []byte(".nv.constant2."+prefix)) {
			if err := edit(out, shoff+i*shentsize); err != nil {
				return nil, err
			}
			n++
		}
	}
	if n == 0 {
		return nil, fmt.Errorf("%s has no .nv.constant2.%s<function> section", name, prefix)
	}
	return out, nil
}

// makeJunk produces the bytes of a generated bad input.
func makeJunk(dir, kind string) ([]byte, error) {
	parts := strings.Split(kind, ":")
	switch parts[0] {
	case "empty":
		if len(parts) != 1 {
			break
		}
		return []byte{}, nil
	case "empty-archive":
		// what `ar rcs lib.a` writes with no member: the magic alone
		if len(parts) != 1 {
			break
		}
		return []byte("!<arch>\n"), nil
	case "text":
		text := []byte("This is a plain text file, not an ELF cubin.\nnvlink should refuse it.\n")
		switch len(parts) {
		case 1:
			return text, nil
		case 2:
			// text:<n>: its first n bytes (under 52, nvlink cannot open it).
			n, err := strconv.Atoi(parts[1])
			if err != nil || n < 1 || n > len(text) {
				return nil, fmt.Errorf("bad length %q: want 1 to %d", parts[1], len(text))
			}
			return text[:n], nil
		}
	case "garbage":
		if len(parts) != 2 {
			break
		}
		// garbage:<n>: n bytes of fixed pseudo-random data (xorshift), of
		// no format nvlink knows.
		n, err := strconv.Atoi(parts[1])
		if err != nil || n < 1 || n > 1<<20 {
			return nil, fmt.Errorf("bad length %q", parts[1])
		}
		out := make([]byte, n)
		x := uint64(0x9e3779b97f4a7c15)
		for i := range out {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			out[i] = byte(x >> 32)
		}
		return out, nil
	case "truncate":
		if len(parts) != 3 {
			break
		}
		data, err := os.ReadFile(filepath.Join(dir, parts[1]))
		if err != nil {
			return nil, err
		}
		n, err := strconv.Atoi(parts[2])
		if err != nil || n < 0 || n >= len(data) {
			return nil, fmt.Errorf("bad length %q for a %d-byte file", parts[2], len(data))
		}
		return data[:n], nil
	case "corrupt-shoff":
		if len(parts) != 2 {
			break
		}
		data, err := os.ReadFile(filepath.Join(dir, parts[1]))
		if err != nil {
			return nil, err
		}
		if len(data) < 64 || string(data[:4]) != "\x7fELF" || data[4] != 2 {
			return nil, fmt.Errorf("%s is not an ELF64 file", parts[1])
		}
		out := bytes.Clone(data)
		// e_shoff (offset 0x28 in an ELF64 header) := 4 KiB past the end of the file.
		binary.LittleEndian.PutUint64(out[0x28:], uint64(len(data))+0x1000)
		return out, nil
	case "machine":
		if len(parts) != 3 && len(parts) != 4 {
			break
		}
		// machine:<file>:<e_machine>[:<e_type>]: a copy of an ELF file
		// this case built (a host-sources object, say) with its header's
		// e_machine (and e_type) changed, e.g. 183 for an aarch64 object,
		// as no cross compiler need be installed.
		data, err := os.ReadFile(filepath.Join(dir, parts[1]))
		if err != nil {
			return nil, err
		}
		if len(data) < 64 || string(data[:4]) != "\x7fELF" {
			return nil, fmt.Errorf("%s is not an ELF file", parts[1])
		}
		out := bytes.Clone(data)
		for i, off := range []int{18, 16}[:len(parts)-2] {
			v, err := strconv.ParseUint(parts[2+i], 0, 16)
			if err != nil {
				return nil, fmt.Errorf("bad ELF header field %q", parts[2+i])
			}
			binary.LittleEndian.PutUint16(out[off:], uint16(v))
		}
		return out, nil
	case "copy":
		if len(parts) != 2 {
			break
		}
		// copy:<file>: the bytes of a file this case built before the
		// junk (an nvcc-lib archive, say) under another name.
		return os.ReadFile(filepath.Join(dir, parts[1]))
	case "orphan-bank2":
		if len(parts) != 2 {
			break
		}
		data, err := os.ReadFile(filepath.Join(dir, parts[1]))
		if err != nil {
			return nil, err
		}
		return orphanBank2(parts[1], data)
	case "fill-bank2":
		if len(parts) != 4 {
			break
		}
		// fill-bank2:<cubin>:<function>:<byte>: the bank-2 constants
		// of the functions named <function>... set to the byte (hex).
		data, err := os.ReadFile(filepath.Join(dir, parts[1]))
		if err != nil {
			return nil, err
		}
		b, err := strconv.ParseUint(parts[3], 16, 8)
		if err != nil {
			return nil, fmt.Errorf("bad byte %q", parts[3])
		}
		return fillBank2(parts[1], data, parts[2], byte(b))
	}
	return nil, fmt.Errorf("unknown junk kind %q", kind)
}
