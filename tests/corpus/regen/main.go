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
// For each case directory cases/<name> it reads case.txt, compiles every
// source with `nvcc -dc -cubin`, creates the requested junk inputs, runs
// `nvlink -arch=<arch> <flags> <inputs> -o expected.cubin` in the (staged) case
// directory and writes expected.txt (`exit N` followed by nvlink's combined
// stderr and stdout). See tests/corpus/README.md for the case.txt format.
//
// Everything is built in /tmp/cudalink-corpus-build/<name> (see stageRoot), so
// the output does not depend on where the repository is checked out.
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
	"runtime"
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
	kind string // empty | text | truncate:<cubin>:<n> | corrupt-shoff:<cubin>
}

// caseSpec is a parsed case.txt.
type caseSpec struct {
	name        string
	dir         string
	comment     string
	arch        string
	sources     []string
	sourceArch  map[string]string
	nvccFlags   []string
	link        []string
	linkSet     bool
	nvlinkFlags []string
	junk        []junkSpec
	expect      string
}

func main() {
	jobs := flag.Int("j", runtime.NumCPU(), "number of cases built in parallel")
	list := flag.Bool("list", false, "list the cases and exit")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: go run ./tests/corpus/regen [-j N] [-list] [case...]\n")
		flag.PrintDefaults()
	}
	flag.Parse()

	casesDir, err := findCasesDir()
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
		specs = append(specs, c)
	}
	if *list {
		for _, c := range specs {
			fmt.Printf("%-40s %-6s %-5s %s\n", c.name, c.arch, c.expect, c.comment)
		}
		return
	}

	for _, tool := range []string{"nvcc", "nvlink"} {
		if _, err := exec.LookPath(tool); err != nil {
			fmt.Fprintf(os.Stderr, "regen: %s not found in PATH; the CUDA 11.8 toolkit is needed to regenerate the corpus. Skipping (nothing changed).\n", tool)
			return
		}
	}
	if v, err := toolVersion(); err == nil && !strings.Contains(v, "release 11.8") {
		fmt.Fprintf(os.Stderr, "regen: warning: the corpus records CUDA 11.8 behaviour, but nvcc says:\n%s\n", v)
	}

	if *jobs < 1 {
		*jobs = 1
	}
	unlock, err := lockStage()
	if err != nil {
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
			results[i] = regen(c)
		}()
	}
	wg.Wait()
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
	fmt.Printf("regenerated %d cases in %s\n", len(specs), casesDir)
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
	c := &caseSpec{name: filepath.Base(dir), dir: dir, sourceArch: map[string]string{}}
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
		case "source-arch", "junk":
		default:
			if seen[key] {
				return nil, bad("given twice")
			}
		}
		seen[key] = true
		switch key {
		case "arch":
			if len(fields) != 1 || !strings.HasPrefix(val, "sm_") {
				return nil, bad("want one sm_XX value")
			}
			c.arch = val
		case "sources":
			c.sources = fields
		case "source-arch":
			if len(fields) != 2 || !strings.HasPrefix(fields[1], "sm_") {
				return nil, bad("want `<source.cu> sm_XX`")
			}
			c.sourceArch[fields[0]] = fields[1]
		case "nvcc":
			c.nvccFlags = fields
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
	srcSet := map[string]bool{}
	for _, s := range c.sources {
		if !strings.HasSuffix(s, ".cu") {
			return nil, fmt.Errorf("%s: source %q does not end in .cu", path, s)
		}
		if srcSet[s] {
			return nil, fmt.Errorf("%s: source %q listed twice", path, s)
		}
		srcSet[s] = true
	}
	for s := range c.sourceArch {
		if !srcSet[s] {
			return nil, fmt.Errorf("%s: source-arch names %q, which is not in sources", path, s)
		}
	}
	if !c.linkSet {
		for _, s := range c.sources {
			c.link = append(c.link, cubinName(s))
		}
	}
	if len(c.link) == 0 {
		return nil, fmt.Errorf("%s: nothing to link", path)
	}
	return c, nil
}

func cubinName(src string) string { return strings.TrimSuffix(src, ".cu") + ".cubin" }

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

func toolVersion() (string, error) {
	out, err := exec.Command("nvcc", "--version").CombinedOutput()
	return strings.TrimSpace(string(out)), err
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
// namespaces: _INTERNAL_<hash>_4_a_cu_..., __nv_static_...) from a hash of the
// source file's absolute path, so building in the checkout would make the
// cubins depend on where the repository lives. Building in
// <stageRoot>/<case>/ keeps them identical on every machine.
const stageRoot = "/tmp/cudalink-corpus-build"

// lockStage makes sure only one regen uses stageRoot at a time. It returns
// the function that releases the lock.
func lockStage() (func(), error) {
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

// regen rebuilds one case: it stages the hand-written files in
// <stageRoot>/<case>, compiles, creates the junk inputs and links there, and
// copies the generated files back into the case directory.
func regen(c *caseSpec) error {
	generated := map[string]bool{"expected.txt": true}
	for _, j := range c.junk {
		generated[j.name] = true
	}
	isGenerated := func(name string) bool { return generated[name] || strings.HasSuffix(name, ".cubin") }

	// Remove every generated file first, so that nothing stale survives
	// (e.g. a missing-input case must not find an old file).
	ents, err := os.ReadDir(c.dir)
	if err != nil {
		return err
	}
	stage := filepath.Join(stageRoot, c.name)
	if err := os.RemoveAll(stage); err != nil {
		return err
	}
	if err := os.MkdirAll(stage, 0o755); err != nil {
		return err
	}
	defer os.RemoveAll(stage)
	for _, e := range ents {
		path := filepath.Join(c.dir, e.Name())
		if isGenerated(e.Name()) {
			if err := os.Remove(path); err != nil {
				return err
			}
			continue
		}
		if e.Type().IsRegular() {
			if err := copyFile(path, filepath.Join(stage, e.Name())); err != nil {
				return err
			}
		}
	}
	var outputs []string // generated files to copy back, in order

	for _, src := range c.sources {
		if _, err := os.Stat(filepath.Join(stage, src)); err != nil {
			return fmt.Errorf("source %s: %v", src, err)
		}
		arch := c.arch
		if a, ok := c.sourceArch[src]; ok {
			arch = a
		}
		args := []string{"-dc", "-cubin", "-arch=" + arch}
		args = append(args, c.nvccFlags...)
		args = append(args, src, "-o", cubinName(src))
		out, status, err := run(stage, "nvcc", args...)
		if err != nil {
			return err
		}
		if status != 0 {
			return fmt.Errorf("nvcc %s failed (exit %d):\n%s", strings.Join(args, " "), status, out)
		}
		outputs = append(outputs, cubinName(src))
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

	args := []string{"-arch=" + c.arch}
	args = append(args, c.nvlinkFlags...)
	args = append(args, c.link...)
	args = append(args, "-o", "expected.cubin")
	out, status, err := run(stage, "nvlink", args...)
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
		if _, err := os.Stat(outPath); err != nil {
			return fmt.Errorf("nvlink exited 0 but wrote no expected.cubin")
		}
		outputs = append(outputs, "expected.cubin")
	}
	txt := "exit " + strconv.Itoa(status) + "\n" + out
	if err := os.WriteFile(filepath.Join(stage, "expected.txt"), []byte(txt), 0o644); err != nil {
		return err
	}
	outputs = append(outputs, "expected.txt")

	for _, name := range outputs {
		if err := copyFile(filepath.Join(stage, name), filepath.Join(c.dir, name)); err != nil {
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

// makeJunk produces the bytes of a generated bad input.
func makeJunk(dir, kind string) ([]byte, error) {
	parts := strings.Split(kind, ":")
	switch parts[0] {
	case "empty":
		if len(parts) != 1 {
			break
		}
		return []byte{}, nil
	case "text":
		if len(parts) != 1 {
			break
		}
		return []byte("This is a plain text file, not an ELF cubin.\nnvlink should refuse it.\n"), nil
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
	}
	return nil, fmt.Errorf("unknown junk kind %q", kind)
}
