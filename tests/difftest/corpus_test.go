package difftest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/cudalink/cudalink/linker"
	"github.com/cudalink/cudalink/linker/cli"
	"github.com/cudalink/cudalink/tests/normalize"
)

// corpusDir is the corpus, relative to this package's directory (the
// working directory of `go test`).
const corpusDir = "../corpus/cases"

func loadCorpus(t *testing.T) []*Case {
	t.Helper()
	if _, err := os.Stat(corpusDir); os.IsNotExist(err) {
		t.Skipf("SKIP: no corpus at %s (generate it with go run ./tests/corpus/regen)", corpusDir)
	}
	cases, err := LoadCases(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Skipf("SKIP: the corpus at %s has no cases", corpusDir)
	}
	return cases
}

// link runs cudalink in-process and returns its exit status and streams.
// A panic in the linker is turned into a test failure: linker/cli reports
// it with exit status 3 and an "internal error" line (a panic that got
// past it would be caught here, with the stack).
func link(t *testing.T, args []string) (status int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	func() {
		defer func() {
			if r := recover(); r != nil {
				status = -1
				fmt.Fprintf(&errb, "\nPANIC: %v\n%s", r, debug.Stack())
			}
		}()
		// As cmd/cudalink reads them: a small link's cubins into one
		// buffer (linker.WithLastLinkReads).
		status = cli.RunContext(linker.WithLastLinkReads(context.Background()), args, &out, &errb, nil)
	}()
	if status == -1 || status == 3 {
		t.Errorf("cudalink %s panicked:%s", strings.Join(args, " "), errb.String())
	}
	return status, out.String(), errb.String()
}

// validators are the toolkit programs that must accept cudalink's output:
// cuobjdump -elf and nvdisasm.
type validators struct{ cuobjdump, nvdisasm string }

// toolkitTools finds the validators for a toolkit's cases: for 11.8 those
// on PATH, for a CUDA 12 version those in /opt/cuda-<version>/usr/bin (where
// scripts/setup-cuda12.sh unpacks it: an 11.8 cuobjdump does not know every
// 12.x output). It returns nil when they are missing.
func toolkitTools(toolkit string) *validators {
	var v validators
	for _, p := range []*string{&v.cuobjdump, &v.nvdisasm} {
		name := "cuobjdump"
		if p == &v.nvdisasm {
			name = "nvdisasm"
		}
		if toolkit != DefaultToolkit {
			name = filepath.Join("/opt/cuda-"+toolkit, "usr", "bin", name)
		}
		path, err := exec.LookPath(name)
		if err != nil {
			return nil
		}
		*p = path
	}
	return &v
}

// otherToolkits are the CUDA versions besides 11.8 that the corpus may hold
// cases for (tests/corpus/cuda-<version>).
var otherToolkits = []string{"12.4", "12.5"}

// dirState lists a directory's entries with size and modification time, to
// detect files the linker creates, changes or leaves behind.
func dirState(t *testing.T, dir string) map[string]string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, e := range ents {
		fi, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		m[e.Name()] = fmt.Sprintf("%d %s", fi.Size(), fi.ModTime())
	}
	return m
}

func sortedKeys(m map[string]string) []string {
	var k []string
	for n := range m {
		k = append(k, n)
	}
	sort.Strings(k)
	return k
}

// loadEveryToolkit is loadCorpus's cases followed by those of every other
// toolkit (named cuda-<version>/<name>), for the tests that check one behaviour
// across releases.
func loadEveryToolkit(t *testing.T) []*Case {
	t.Helper()
	cases := loadCorpus(t)
	for _, tk := range otherToolkits {
		more, err := LoadToolkitCases(corpusDir, tk)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, more...)
	}
	return cases
}

// TestCorpus links every case of the corpus with cudalink and compares the
// outcome with nvlink's (expected.cubin, expected.txt): the CUDA 11.8 cases
// as TestCorpus/<name>, those of another toolkit as
// TestCorpus/cuda-<version>/<name>, with a summary for each toolkit.
func TestCorpus(t *testing.T) {
	runCorpus(t, loadCorpus(t), DefaultToolkit)
	for _, tk := range otherToolkits {
		cases, err := LoadToolkitCases(corpusDir, tk)
		if err != nil {
			t.Fatal(err)
		}
		if len(cases) == 0 {
			continue
		}
		t.Run("cuda-"+tk, func(t *testing.T) { runCorpus(t, cases, tk) })
	}
}

// runCorpus runs one toolkit's cases as subtests and logs their summary.
// Each case links in its directory, as nvlink was run for it, one case
// after another; cuobjdump and nvdisasm (nvdisasm 0.1 to 1.4 s a file)
// then read the outputs in parallel, when every case of the toolkit is
// linked (validate), but for nvlink's bytes that validatedFile lists as
// read by the same programs (listedValid).
func runCorpus(t *testing.T, cases []*Case, toolkit string) {
	tools := toolkitTools(toolkit)
	switch {
	case tools == nil:
		t.Logf("SKIP: CUDA %s's cuobjdump/nvdisasm not installed; their checks skipped (the comparison with nvlink's output still runs)", toolkit)
	case testing.Short():
		tools = nil
		t.Log("SKIP: -short: cuobjdump/nvdisasm checks skipped (the comparison with nvlink's output still runs)")
	}
	var okCases, okMatch, identical, errCases, errMatch, diffCases, diffMatch, listed int
	var mismatched []string
	for _, c := range cases {
		passed := t.Run(c.Name, func(t *testing.T) {
			switch {
			case c.Differs:
				diffCases++
				out := runDiffers(t, c)
				if !t.Failed() {
					diffMatch++
				}
				validate(t, tools, out)
			case c.Expect == "ok":
				okCases++
				same, ident, out := runOK(t, c)
				if same {
					okMatch++
				}
				if ident {
					identical++
				}
				if listedValid(t, tools, toolkit, out, ident) {
					listed++
					return
				}
				validate(t, tools, out)
				if ident && !t.Failed() {
					recordValidated(t, tools, toolkit, c.Name, out)
				}
			case c.Expect == "error":
				errCases++
				runError(t, c)
				if !t.Failed() {
					errMatch++
				}
			}
		})
		if !passed {
			mismatched = append(mismatched, c.Name)
		}
	}
	t.Logf("CUDA %s cases: %d; ok cases with the same normal form as nvlink: %d of %d; error cases passing: %d of %d",
		toolkit, len(cases), okMatch, okCases, errMatch, errCases)
	t.Logf("CUDA %s byte-identical: %d of %d", toolkit, identical, okCases)
	if tools != nil {
		t.Logf("CUDA %s outputs not read again by cuobjdump/nvdisasm, nvlink's bytes that %s lists as read: %d", toolkit, validatedFile, listed)
	}
	if diffCases > 0 {
		t.Logf("deliberate differences (cudalink: differs) passing: %d of %d", diffMatch, diffCases)
	}
	if len(mismatched) > 0 {
		t.Logf("failing cases (%d): %s", len(mismatched), strings.Join(mismatched, " "))
	}
}

// runOK checks a case nvlink links successfully. It reports whether the
// output has nvlink's normal form and whether it is byte-identical, and
// returns the output's path for the validators ("" if there is none to
// read).
func runOK(t *testing.T, c *Case) (same, identical bool, out string) {
	before := dirState(t, c.Dir)
	tmp := t.TempDir()
	out = filepath.Join(tmp, "out.cubin")
	args := cudalinkArgs(t, c, c.Inputs, out)
	status, _, stderr := linkIn(t, c.Dir, args)
	defer checkUnchanged(t, c.Dir, before)

	if status != 0 {
		t.Fatalf("cudalink %s: exit status %d, nvlink's 0; stderr:\n%s", strings.Join(args, " "), status, stderr)
	}
	checkMessages(t, c, stderr)
	if c.Virtual() && !exists(filepath.Join(c.Dir, "expected.cubin")) {
		// Nothing is linked: the .reg.c is the whole output. (With
		// -dlto nvlink may link a whole program for a virtual target.)
		checkRegFile(t, c, RegFile(out))
		if files, want := sortedKeys(dirState(t, tmp)), []string{filepath.Base(RegFile(out))}; !slices.Equal(files, want) {
			t.Errorf("output directory holds %v, want %v", files, want)
		}
		ok := !t.Failed()
		return ok, ok, ""
	}
	wantFiles := []string{"out.cubin"}
	if c.RegisterLinkBinaries {
		wantFiles = append(wantFiles, filepath.Base(RegFile(out)))
		checkRegFile(t, c, RegFile(out))
	}
	if files := sortedKeys(dirState(t, tmp)); !slices.Equal(files, wantFiles) {
		t.Errorf("output directory holds %v, want %v", files, wantFiles)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("exit status 0 but no output: %v", err)
	}
	want, err := os.ReadFile(filepath.Join(c.Dir, "expected.cubin"))
	if err != nil {
		t.Fatal(err)
	}
	identical = bytes.Equal(got, want)
	if isPTX(want) {
		// -dlto -emit-ptx: the output is libnvvm's PTX, text with no
		// normal form; only nvlink's bytes will do.
		if !identical {
			t.Errorf("cudalink's PTX differs from nvlink's (%d vs %d bytes); first difference at byte %d",
				len(got), len(want), firstDiff(got, want))
		}
		return identical, identical, ""
	}
	wantN, err := normalize.Normalize(want)
	if err != nil {
		t.Fatalf("expected.cubin: %v", err)
	}
	gotN, err := normalize.Normalize(got)
	if err != nil {
		t.Errorf("cudalink's output: %v", err)
	} else if d := normalize.Diff(wantN, gotN); d != "" {
		t.Errorf("cudalink's output differs from nvlink's (- nvlink, + cudalink):\n%s", d)
	} else {
		same = true
	}
	if !identical && same {
		// The target is nvlink's bytes, not only its normal form: a
		// layout difference the normal form forgives is still a defect.
		t.Errorf("same normal form as nvlink's output, but not byte-identical (%d vs %d bytes); first difference at byte %d",
			len(got), len(want), firstDiff(got, want))
	}
	return same, identical, out
}

// isPTX says whether an expected output is PTX text (-dlto -emit-ptx
// with IR) rather than a cubin.
func isPTX(data []byte) bool {
	return !bytes.HasPrefix(data, []byte("\x7fELF")) && bytes.Contains(data, []byte("\n.version "))
}

// firstDiff is the offset of the first byte where a and b differ.
func firstDiff(a, b []byte) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// checkRegFile requires the --register-link-binaries file cudalink wrote to
// be nvlink's (expected.reg.c) byte for byte.
func checkRegFile(t *testing.T, c *Case, path string) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("--register-link-binaries: %v", err)
		return
	}
	want, err := os.ReadFile(filepath.Join(c.Dir, "expected.reg.c"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("--register-link-binaries file differs from nvlink's:\n--- nvlink\n%s--- cudalink\n%s", want, got)
	}
}

// runDiffers checks a case where cudalink deliberately does not do what
// nvlink does (`cudalink: differs`): nvlink ignores archives of cubins,
// cudalink links their members. Whatever nvlink did, cudalink must succeed
// and its output must define every kernel of the archived cubins. It
// returns the output's path for the validators.
func runDiffers(t *testing.T, c *Case) (out string) {
	want, err := c.ArchivedKernels()
	if err != nil {
		t.Fatal(err)
	}
	if len(want) == 0 {
		t.Fatal("`cudalink: differs`, but no archive among the inputs holds a cubin with a kernel")
	}
	before := dirState(t, c.Dir)
	tmp := t.TempDir()
	out = filepath.Join(tmp, "out.cubin")
	args := cudalinkArgs(t, c, c.Inputs, out)
	status, _, stderr := linkIn(t, c.Dir, args)
	defer checkUnchanged(t, c.Dir, before)

	if status != 0 {
		t.Fatalf("cudalink %s: exit status %d, want 0 (it links archived cubins on purpose; nvlink exits %d); stderr:\n%s",
			strings.Join(args, " "), status, c.ExitStatus, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("exit status 0 but no output: %v", err)
	}
	f, err := NewCubin(data)
	if err != nil {
		t.Fatalf("cudalink's output: %v", err)
	}
	syms, err := f.Symbols()
	if err != nil {
		t.Fatalf("cudalink's output: %v", err)
	}
	have := map[string]bool{}
	for _, s := range syms {
		if isKernel(s) {
			have[s.Name] = true
		}
	}
	for _, k := range want {
		if !have[k] {
			t.Errorf("kernel %s of an archived cubin is not a kernel of cudalink's output", k)
		}
	}
	return out
}

// validated holds the outputs (the validators and the SHA-256 of the bytes)
// cuobjdump and nvdisasm have read in this process: the same bytes are not
// read again by the same programs (TestCorpusPTXCompiler makes the bytes
// TestCorpus made).
var validated sync.Map

// validate has cuobjdump -elf and nvdisasm read the output at path (none
// when tools is nil or path ""). It ends t's sequential part: t goes on in
// parallel with its siblings once their parent has run them all.
func validate(t *testing.T, tools *validators, path string) {
	t.Helper()
	if tools == nil || path == "" {
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	key := fmt.Sprintf("%s %s %x", tools.cuobjdump, tools.nvdisasm, sha256.Sum256(data))
	if _, ok := validated.Load(key); ok {
		return
	}
	t.Parallel()
	checkTools(t, tools, path, "cudalink's output")
	if !t.Failed() {
		validated.Store(key, true)
	}
}

// linkIn is link run in dir, the directory nvlink was run in (InDir).
func linkIn(t *testing.T, dir string, args []string) (status int, stdout, stderr string) {
	t.Helper()
	if err := InDir(dir, func() { status, stdout, stderr = link(t, args) }); err != nil {
		t.Fatal(err)
	}
	return status, stdout, stderr
}

// checkTools requires cuobjdump -elf and nvdisasm to accept a cubin (run
// concurrently: they dominate the test's time); whose says whose output it
// is in a failure.
func checkTools(t *testing.T, tools *validators, cubin, whose string) {
	t.Helper()
	cmds := [][]string{{tools.cuobjdump, "-elf", cubin}, {tools.nvdisasm, cubin}}
	errs := make([]string, len(cmds))
	var wg sync.WaitGroup
	for i, cmd := range cmds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var stderr bytes.Buffer
			x := exec.Command(cmd[0], cmd[1:]...)
			x.Stdout = io.Discard
			x.Stderr = &stderr
			if err := x.Run(); err != nil {
				errs[i] = fmt.Sprintf("%s on %s: %v\n%s", strings.Join(cmd, " "), whose, err, stderr.String())
			}
		}()
	}
	wg.Wait()
	for _, e := range errs {
		if e != "" {
			t.Error(e)
		}
	}
}

// runError checks a case nvlink rejects.
func runError(t *testing.T, c *Case) {
	t.Chdir(c.Dir)
	before := dirState(t, c.Dir)
	tmp := t.TempDir()
	args := cudalinkArgs(t, c, c.Inputs, filepath.Join(tmp, "out.cubin"))
	status, _, stderr := link(t, args)
	defer checkUnchanged(t, c.Dir, before)

	if status == 0 {
		t.Errorf("cudalink %s: exit status 0, nvlink fails with %d:\n%s", strings.Join(args, " "), c.ExitStatus, c.Messages)
	} else if status != c.ExitStatus {
		t.Errorf("exit status %d, nvlink's %d (255 for undefined references, 1 otherwise)", status, c.ExitStatus)
	}
	if files := sortedKeys(dirState(t, tmp)); len(files) != 0 {
		t.Errorf("failed link left files in the output directory: %v", files)
	}
	if strings.TrimSpace(stderr) == "" {
		t.Errorf("failed link printed nothing on stderr; nvlink says:\n%s", c.Messages)
		return
	}
	checkMessages(t, c, stderr)
}

// ownWarnings are the starts of cudalink's own warnings, where nvlink says
// nothing (docs/errors.md): inputs nvlink skips without a word (files of
// no known kind, whole-program objects), -l libraries it does not find,
// a folded __constant__ variable whose offset the code cannot hold, and a
// -kernels-used name that matches no kernel.
var ownWarnings = []string{
	"cudalink: warning: ignoring input ",
	"cudalink: warning: library -l",
	"cudalink: warning: __constant__ variable past bank 3's 64 KiB",
	"cudalink: warning: -kernels-used=",
}

// checkMessages requires cudalink's stderr to mention every quoted token
// (file, symbol and arch names) of nvlink's messages, every input libnvvm's
// log names in them (LogFiles), its redefinition warnings word for word
// (RedefinitionWarnings), and the sizes of its
// limit errors, and to be empty when nvlink printed nothing, but for
// cudalink's own warnings (ownWarnings).
func checkMessages(t *testing.T, c *Case, stderr string) {
	t.Helper()
	if strings.TrimSpace(c.Messages) == "" {
		own := false // the line continues one of cudalink's own warnings (">>> in file")
		for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
			if own && strings.HasPrefix(line, ">>> ") {
				continue
			}
			own = slices.ContainsFunc(ownWarnings, func(w string) bool { return strings.HasPrefix(line, w) })
			if line != "" && !own {
				t.Errorf("cudalink printed messages where nvlink printed none:\n%s", stderr)
				break
			}
		}
		return
	}
	if want, got := PtxasLines(c.Messages), PtxasLines(stderr); want == 0 && got > 0 {
		t.Errorf("cudalink printed %d lines of ptxas's where nvlink's ptxas said nothing (nvlink stopped before it compiled the PTX?):\n%s", got, stderr)
	}
	var missing []string
	for _, tok := range append(QuotedTokens(c.Messages), LogFiles(c.Messages)...) {
		if !strings.Contains(stderr, tok) {
			missing = append(missing, tok)
		}
	}
	if len(missing) > 0 {
		t.Errorf("cudalink's messages do not mention %q\ncudalink says:\n%s\nnvlink says:\n%s", missing, stderr, c.Messages)
	}
	if want, got := UndefinedOrder(c.Messages), UndefinedOrder(stderr); len(want) > 1 && !slices.Equal(got, want) {
		t.Errorf("cudalink reports the undefined symbols in the order %q, nvlink in the order %q", got, want)
	}
	if want, got := Duplicates(c.Messages), Duplicates(stderr); len(want) > 0 && !slices.Equal(got, want) {
		t.Errorf("cudalink reports the duplicate definitions %q, nvlink %q", got, want)
	}
	if want, got := StackSizeWarnings(c.Messages), StackSizeWarnings(stderr); !slices.Equal(got, want) {
		t.Errorf("cudalink warns that the stack size cannot be statically determined for %q, nvlink for %q", got, want)
	}
	if want, got := RedefinitionWarnings(c.Messages), RedefinitionWarnings(stderr); !slices.Equal(got, want) {
		t.Errorf("cudalink warns of redefined options %q, nvlink of %q", got, want)
	}
	if want, got := DiagnosticOrder(c.Messages), DiagnosticOrder(stderr); len(want) > 1 && !slices.Equal(got, want) {
		t.Errorf("cudalink's warnings and errors come in the order %q, nvlink's in the order %q", got, want)
	}
	if want, got := ReadOrder(c.Messages), ReadOrder(stderr); len(want) > 1 && !slices.Equal(got, want) {
		t.Errorf("cudalink says what it reads in the order %q, nvlink in the order %q", got, want)
	}
	if want, got := EWPWarnings(c.Messages), EWPWarnings(stderr); !slices.Equal(got, want) {
		t.Errorf("cudalink warns of inputs linked next to an -ewp image for %q, nvlink for %q", got, want)
	}
	if want, got := Refusals(c.Messages), Refusals(stderr); !slices.Equal(got, want) {
		t.Errorf("cudalink refuses the inputs %q as it reads them, nvlink %q", got, want)
	}
	if want, got := LimitSizes(c.Messages), LimitSizes(stderr); !slices.Equal(got, want) {
		t.Errorf("cudalink's limit errors give the sizes %q, nvlink's %q", got, want)
	}
}

// checkUnchanged fails the test if the linker created, changed or removed
// files in the case directory (its working directory).
func checkUnchanged(t *testing.T, dir string, before map[string]string) {
	t.Helper()
	after := dirState(t, dir)
	for _, n := range sortedKeys(after) {
		if b, ok := before[n]; !ok {
			t.Errorf("the link created %s in the case directory", n)
			os.Remove(filepath.Join(dir, n)) // keep the corpus clean
		} else if b != after[n] {
			t.Errorf("the link modified %s in the case directory", n)
		}
	}
	for _, n := range sortedKeys(before) {
		if _, ok := after[n]; !ok {
			t.Errorf("the link removed %s from the case directory", n)
		}
	}
}

// TestDeterminism links the largest multi-file cases with GOMAXPROCS 1, 2,
// 4 and 8, and from another working directory with absolute input paths:
// every output must be byte-identical.
func TestDeterminism(t *testing.T) {
	cases := loadCorpus(t)
	var multi []*Case
	for _, c := range cases {
		if c.Expect == "ok" && len(c.Inputs) > 1 && !c.LTO() && !c.Virtual() {
			multi = append(multi, c)
		}
	}
	sort.SliceStable(multi, func(i, j int) bool { return multi[i].InputBytes() > multi[j].InputBytes() })
	if len(multi) > 4 {
		multi = multi[:4]
	}
	if len(multi) == 0 {
		t.Skip("SKIP: no multi-file ok case in the corpus")
	}
	for _, c := range multi {
		t.Run(c.Name, func(t *testing.T) {
			var ref []byte
			var refDesc string
			try := func(desc, wd string, inputs []string, procs int) {
				t.Helper()
				prev := runtime.GOMAXPROCS(procs)
				defer runtime.GOMAXPROCS(prev)
				t.Chdir(wd)
				out := filepath.Join(t.TempDir(), "out.cubin")
				args := cudalinkArgs(t, c, inputs, out)
				status, _, stderr := link(t, args)
				if status != 0 {
					t.Fatalf("%s: cudalink %s: exit status %d:\n%s", desc, strings.Join(args, " "), status, stderr)
				}
				got, err := os.ReadFile(out)
				if err != nil {
					t.Fatalf("%s: %v", desc, err)
				}
				if ref == nil {
					ref, refDesc = got, desc
					return
				}
				if !bytes.Equal(got, ref) {
					detail := ""
					if a, err1 := normalize.Normalize(ref); err1 == nil {
						if b, err2 := normalize.Normalize(got); err2 == nil {
							detail = normalize.Diff(a, b)
						}
					}
					t.Errorf("output with %s differs from output with %s (%d vs %d bytes)\n%s", desc, refDesc, len(got), len(ref), detail)
				}
			}
			for _, procs := range []int{1, 2, 4, 8} {
				try(fmt.Sprintf("GOMAXPROCS=%d, relative inputs from the case directory", procs), c.Dir, c.Inputs, procs)
			}
			try("absolute inputs from another directory", t.TempDir(), c.AbsInputs(), runtime.GOMAXPROCS(0))
		})
	}
}

func TestQuotedTokens(t *testing.T) {
	msgs := "nvlink error   : Undefined reference to '_Z3foov' in 'a.cubin'\n" +
		"nvlink error   : Binary format for key='0', ident='' is not recognized\n" +
		"nvlink fatal   : Input file 'a.cubin' arch does not match target 'sm_80'\n" +
		"nvlink error   : Size doesn't match for 'wdata' in 'w4.cubin', first specified in 'w1.cubin'\n"
	got := strings.Join(QuotedTokens(msgs), " ")
	if want := "_Z3foov a.cubin sm_80 w1.cubin w4.cubin wdata"; got != want {
		t.Errorf("QuotedTokens = %q, want %q", got, want)
	}
}

func TestEWPWarningsAndRefusals(t *testing.T) {
	nv := "nvlink warning : 'a.cubin': -ewp compiled objects should only link with libcudadevrt\n" +
		"nvlink warning : 'lib.a:b.o': -ewp compiled objects should only link with libcudadevrt\n" +
		"nvlink fatal   : Input file 'c.cubin' arch does not match target 'sm_80'\n" +
		"nvlink fatal   : Could not open input file ''\n" +
		"nvlink fatal   : Input file 'lib.a:e.o' newer than toolkit (124 vs 118)\n" +
		"nvlink fatal   : Input file 'f.o' must be recompiled with toolkit >= Cuda 12.0\n" +
		"nvlink fatal   : linking with -ewp objects requires using current toolkit\n"
	cl := "cudalink: warning: 'a.cubin': -ewp compiled objects should only link with libcudadevrt\n" +
		"cudalink: error: input is compiled for sm_86, which does not match the target architecture sm_80\n" +
		">>> in c.cubin\n" +
		"cudalink: error: input is compiled for sm_75, which does not match the target architecture sm_80 (target: sm_80)\n" +
		">>> in lib.a(d.o)\n" +
		"cudalink: error: cannot open input file: the name is empty\n>>> in ''\n" +
		"cudalink: error: input file newer than toolkit (124 vs 118): link it with CUDA 12.4 or later, or drop --cuda-version\n>>> in lib.a:e.o\n" +
		"cudalink: error: input must be recompiled with toolkit >= Cuda 12.0 (it was written by CUDA 11.8; nvlink 12.4 refuses sm_90 code of older releases)\n>>> in f.o\n" +
		"cudalink: error: linking with -ewp objects requires using current toolkit: this -ewp image was written by CUDA 11.8, and nvlink 12.4 links only its own release's; rebuild it with CUDA 12.4\n>>> in g.o\n"
	if got, want := strings.Join(EWPWarnings(nv), " "), "a.cubin lib.a:b.o"; got != want {
		t.Errorf("EWPWarnings(nvlink) = %q, want %q", got, want)
	}
	if got, want := strings.Join(EWPWarnings(cl), " "), "a.cubin"; got != want {
		t.Errorf("EWPWarnings(cudalink) = %q, want %q", got, want)
	}
	if got, want := strings.Join(Refusals(nv), ","), "arch c.cubin,open ,newer lib.a:e.o,recompile f.o,ewp"; got != want {
		t.Errorf("Refusals(nvlink) = %q, want %q", got, want)
	}
	if got, want := strings.Join(Refusals(cl), ","), "arch c.cubin,arch lib.a:d.o,open ,newer lib.a:e.o,recompile f.o,ewp"; got != want {
		t.Errorf("Refusals(cudalink) = %q, want %q", got, want)
	}
}

func TestLogFiles(t *testing.T) {
	msgs := "nvlink info    : IR version 1.9 incompatible with current version 2.0\n" +
		"k.o: error: incompatible IR detected. Possible mix of compiler/IR from different releases.NVVM_ERROR_IR_VERSION_MISMATCH\n" +
		"nvlink fatal   : elfLink JIT compile failed\n" +
		"nvlink error   : Undefined reference to '_Z3foov' in 'a.cubin'\n"
	if got, want := strings.Join(LogFiles(msgs), " "), "k.o"; got != want {
		t.Errorf("LogFiles = %q, want %q", got, want)
	}
}

// TestArchivedKernels pins the helper the `cudalink: differs` cases rely on:
// it must find the kernels of the cubin inside libcubins.a, through a path
// and through -L/-l.
func TestArchivedKernels(t *testing.T) {
	for name, want := range map[string]string{
		"archive-of-cubins-unreferenced": "_Z10lib_kernelPi _Z11lib_kernel2Pf",
		"archive-of-cubins-l-option":     "_Z10lib_kernelPi",
		"nvcc-lib-archive-positional":    "", // host objects, no cubin members
	} {
		dir := filepath.Join(corpusDir, name)
		if _, err := os.Stat(dir); err != nil {
			t.Skipf("SKIP: no case %s in the corpus", name)
		}
		c, err := LoadCase(dir)
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.ArchivedKernels()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%s: ArchivedKernels = %q, want %q", name, got, want)
		}
	}
}

// cudalinkArgs is c.Args for cudalink. A case that compiles PTX (`ptxas:
// yes`) needs the toolkit's ptxas: without it on PATH the test is skipped
// loudly, or fails when the toolkit is otherwise installed (nvlink or nvcc
// on PATH), since the case could and should run. A CUDA 12 case gets its
// own toolkit's ptxas with --ptxas (/opt/cuda-<version>/usr/bin, where
// scripts/setup-cuda12.sh unpacks it; 11.8's ptxas refuses 12.x PTX), as
// nvlink 12.x uses its built-in one. Every other case gets a --ptxas that
// cannot run, so a case that compiles PTX without saying so fails rather
// than depending on the machine. Under TestCorpusPTXCompiler, a case of
// the toolkit under test that compiles PTX gets that toolkit's PTX compiler
// too (--ptx-compiler), which then compiles instead of ptxas.
func cudalinkArgs(t *testing.T, c *Case, inputs []string, out string) []string {
	t.Helper()
	args := c.Args(inputs, out)
	if c.CUDAVersion {
		args = append([]string{"--cuda-version=" + c.Toolkit}, args...)
	}
	if !c.Ptxas {
		return append([]string{"--ptxas=/nonexistent/ptxas-not-declared-in-case.txt"}, args...)
	}
	ptxas := "ptxas"
	if c.Toolkit != "" && c.Toolkit != DefaultToolkit {
		ptxas = filepath.Join("/opt/cuda-"+c.Toolkit, "usr", "bin", "ptxas")
	}
	path, err := exec.LookPath(ptxas)
	if err != nil {
		for _, tool := range []string{"nvlink", "nvcc"} {
			if p, err := exec.LookPath(tool); err == nil {
				t.Fatalf("case %s compiles PTX and %s is missing, but the CUDA toolkit is installed (%s): install it (scripts/setup.sh)", c.Name, ptxas, p)
			}
		}
		t.Skipf("SKIP: case %s compiles PTX, and %s (CUDA toolkit) is missing", c.Name, ptxas)
	}
	args = append([]string{"--ptxas=" + path}, args...)
	if c.NVVM {
		dir := nvvmDir(t, c, path)
		args = append(args[:2:2], append([]string{"-nvvmpath=" + dir}, args[2:]...)...)
	}
	if tk := c.Toolkit; ptxCompilerLib != "" && (tk == ptxCompilerToolkit || tk == "" && ptxCompilerToolkit == DefaultToolkit) {
		args = append([]string{"--ptx-compiler=" + ptxCompilerLib}, args...)
	}
	return args
}

// nvvmDir makes the -nvvmpath directory of an LTO case (`nvvm: yes`), as
// regen made nvlink's: lib64/libnvvm.so and libdevice linked to the
// toolkit's (beside its ptxas in ../nvvm, or at Debian's paths, under
// /opt/cuda-<version> for CUDA 12), and for CUDA 12 lib64/libnvJitLink.so.12.
// With the toolkit installed (its ptxas found) and no libnvvm, the case
// fails.
func nvvmDir(t *testing.T, c *Case, ptxas string) string {
	t.Helper()
	base := []string{filepath.Join(filepath.Dir(ptxas), "..", "nvvm")}
	prefix := ""
	if c.Toolkit != "" && c.Toolkit != DefaultToolkit {
		prefix = "/opt/cuda-" + c.Toolkit
	}
	find := func(rel, debian string) string {
		for _, b := range base {
			if p := filepath.Join(b, rel); exists(p) {
				return p
			}
		}
		if exists(debian) {
			return debian
		}
		return ""
	}
	lib := find("lib64/libnvvm.so", prefix+"/usr/lib/x86_64-linux-gnu/libnvvm.so")
	libdevice := find("libdevice", prefix+"/usr/lib/nvidia-cuda-toolkit/libdevice")
	if lib == "" || libdevice == "" {
		t.Fatalf("case %s links with -dlto, and the CUDA toolkit (%s) has no libnvvm.so or libdevice: install the toolkit's libnvvm", c.Name, ptxas)
	}
	// One directory per toolkit for the whole run: each library path
	// gets a helper process of its own, kept for the process's life.
	nvvmDirs.Lock()
	defer nvvmDirs.Unlock()
	if dir := nvvmDirs.m[ptxas]; dir != "" {
		return dir
	}
	dir, err := os.MkdirTemp(nvvmRoot, "nvvm-")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "lib64"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(lib, filepath.Join(dir, "lib64", "libnvvm.so")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(libdevice, filepath.Join(dir, "libdevice")); err != nil {
		t.Fatal(err)
	}
	// CUDA 12's IR is read by its libnvJitLink, which cudalink looks for
	// in the nvvm directory's lib64/ too.
	if prefix != "" {
		jit := find("../lib64/libnvJitLink.so.12", prefix+"/usr/lib/x86_64-linux-gnu/libnvJitLink.so.12")
		if jit == "" {
			t.Fatalf("case %s links CUDA %s -dlto objects, and the toolkit (%s) has no libnvJitLink.so.12: run scripts/setup-cuda12.sh %s", c.Name, c.Toolkit, ptxas, c.Toolkit)
		}
		if err := os.Symlink(jit, filepath.Join(dir, "lib64", "libnvJitLink.so.12")); err != nil {
			t.Fatal(err)
		}
	}
	nvvmDirs.m[ptxas] = dir
	return dir
}

// nvvmDirs are the -nvvmpath directories made so far, by the ptxas of
// their toolkit, in nvvmRoot (TestMain makes and removes it).
var (
	nvvmDirs struct {
		sync.Mutex
		m map[string]string
	}
	nvvmRoot string
)

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// TestNoOwnWarningWithoutDeviceCode: cudalink's own warning for an nvcc -c
// object ("holds no relocatable device code") is for objects named on the
// command line with device code compiled without -rdc; an nvcc -c object of
// a file without device code (images without a function) is linked without
// a word, as nvlink links it, and so is an archive's whole-program member
// (a library as NVIDIA ships them: libcublas_static.a holds hundreds). The
// cases of every toolkit.
func TestNoOwnWarningWithoutDeviceCode(t *testing.T) {
	ran := 0
	for _, c := range loadEveryToolkit(t) {
		if !strings.HasPrefix(c.Name, "host-object-no-rdc-without-device-code-") &&
			!strings.HasPrefix(c.Name, "archive-whole-program-member-silent-") {
			continue
		}
		ran++
		t.Run(c.Toolkit+"/"+c.Name, func(t *testing.T) {
			t.Chdir(c.Dir)
			args := cudalinkArgs(t, c, c.Inputs, t.TempDir()+"/out.cubin")
			status, _, stderr := link(t, args)
			if status != 0 || stderr != "" || strings.TrimSpace(c.Messages) != "" {
				t.Errorf("cudalink %s: exit status %d, messages:\n%s\nnvlink's:\n%s", strings.Join(args, " "), status, stderr, c.Messages)
			}
		})
	}
	if ran == 0 {
		t.Fatal("no host-object-no-rdc-without-device-code-* or archive-whole-program-member-silent-* case in the corpus")
	}
}

// TestOwnWarningForWholeProgramCode: an nvcc -c object whose whole-program
// fatbinary holds device code is ignored with cudalink's own warning
// (nvlink says nothing), which tells the user to compile it with -rdc.
func TestOwnWarningForWholeProgramCode(t *testing.T) {
	runNamedCase(t, "whole-program-object-ignored", func(t *testing.T, args []string) {
		status, _, stderr := link(t, args)
		want := ": it holds no relocatable device code (compile it with nvcc -dc or -rdc=true)"
		if status != 0 || strings.Count(stderr, want) != 1 {
			t.Errorf("cudalink %s: exit status %d, messages:\n%s\nwant one warning ending %q", strings.Join(args, " "), status, stderr, want)
		}
	})
}

// TestOwnWarningForCubinNamedAsHost: a relocatable cubin under a name
// nvlink takes for a host object's (a.obj, and a.o before CUDA 12) gets
// cudalink's own warning, which tells the user to name it .cubin (nvlink
// says nothing, and links none of its device code), and so does a partial
// link's output named so.
func TestOwnWarningForCubinNamedAsHost(t *testing.T) {
	check := func(t *testing.T, args []string, named, notNamed []string) {
		t.Helper()
		status, _, stderr := link(t, args)
		if status != 0 {
			t.Fatalf("cudalink %s: exit status %d\n%s", strings.Join(args, " "), status, stderr)
		}
		for _, n := range named {
			if strings.Count(stderr, n) != 1 {
				t.Errorf("cudalink %s: want one warning with %q, got:\n%s", strings.Join(args, " "), n, stderr)
			}
		}
		for _, n := range notNamed {
			if strings.Contains(stderr, n) {
				t.Errorf("cudalink %s: want no warning with %q, got:\n%s", strings.Join(args, " "), n, stderr)
			}
		}
	}
	const input = "cudalink: warning: ignoring input %s as a cubin: "
	partial := func(t *testing.T, out string) []string {
		return []string{"-r", "-arch=sm_80", "-o", filepath.Join(t.TempDir(), out), "k.o"}
	}
	runNamedCase(t, "cubin-named-o-not-linked", func(t *testing.T, args []string) {
		check(t, args, []string{fmt.Sprintf(input, "extra.o") + "nvlink 11.8 takes"}, nil)
		check(t, partial(t, "part.o"), []string{"part.o is not named .cubin: nvlink 11.8 takes"}, nil)
		check(t, partial(t, "part.cubin"), nil, []string{"part.cubin"})
	})
	runNamedCase(t, "cuda12-cubin-named-o-linked-sm80", func(t *testing.T, args []string) {
		check(t, args, []string{fmt.Sprintf(input, "other.obj") + "nvlink takes"}, []string{fmt.Sprintf(input, "extra.o")})
		check(t, partial(t, "part.obj"), []string{"part.obj is not named .cubin: nvlink takes"}, nil)
		check(t, partial(t, "part.o"), nil, []string{"is not named .cubin"})
	})
}

// runNamedCase runs f, in the case's directory, on every toolkit's case of
// that name, with cudalink's command line for it; a corpus without the case
// fails the test.
func runNamedCase(t *testing.T, name string, f func(t *testing.T, args []string)) {
	runToolkitCase(t, "", name, f)
}

// runToolkitCase is runNamedCase for the case of one toolkit ("" for
// every toolkit's).
func runToolkitCase(t *testing.T, toolkit, name string, f func(t *testing.T, args []string)) {
	ran := 0
	for _, c := range loadEveryToolkit(t) {
		if c.Name != name || toolkit != "" && c.Toolkit != toolkit {
			continue
		}
		ran++
		t.Run(c.Toolkit+"/"+c.Name, func(t *testing.T) {
			t.Chdir(c.Dir)
			f(t, cudalinkArgs(t, c, c.Inputs, t.TempDir()+"/out.cubin"))
		})
	}
	if ran == 0 {
		t.Fatalf("no %s case in the corpus", name)
	}
}

// TestOwnWarningForKernelsUsedMatchingNothing: a -kernels-used name that no
// kernel's mangled name contains gets cudalink's own warning, once, naming
// it (nvlink 11.8, 12.4 and 12.5 say nothing), and saying so when no name
// matches, the output then keeping no kernel; the output and exit status
// stay nvlink's: -w silences the warning, -Werror leaves it a warning.
func TestOwnWarningForKernelsUsedMatchingNothing(t *testing.T) {
	runNamedCase(t, "kernels-used-no-match", func(t *testing.T, args []string) {
		want, err := os.ReadFile("expected.cubin")
		if err != nil {
			t.Fatal(err)
		}
		i := slices.Index(args, "-kernels-used=nonexistent")
		if i < 0 {
			t.Fatalf("the case's link has no -kernels-used=nonexistent: %q", args)
		}
		const warning = "cudalink: warning: -kernels-used=nonexistent matches no kernel of the inputs (no kernel's mangled name contains it)"
		const none = "; as no -kernels-used name matches, the output keeps no kernel but those device code launches\n"
		for _, tc := range []struct {
			extra []string
			want  string
		}{
			{nil, warning + none},
			{[]string{"-Werror"}, warning + none},
			{[]string{"-w"}, ""},
			{[]string{"-kernels-used=k_main"}, warning + "\n"},
		} {
			a := slices.Concat(args[:i+1], tc.extra, args[i+1:])
			out := a[slices.Index(a, "-o")+1]
			status, _, stderr := link(t, a)
			if status != 0 || stderr != tc.want {
				t.Errorf("cudalink %s: exit status %d, messages:\n%s\nwant exit status 0 and:\n%s", strings.Join(a, " "), status, stderr, tc.want)
			}
			if got, err := os.ReadFile(out); tc.extra == nil && (err != nil || !bytes.Equal(got, want)) {
				t.Errorf("cudalink %s: the output is not nvlink's (err %v)", strings.Join(a, " "), err)
			}
		}
	})
}

// TestDuplicateFromOneFileGivenTwice: a file given twice on the command
// line (by one name or by two paths to it) defines each of its symbols
// twice, which nvlink 11.8, 12.4 and 12.5 report as "Multiple definition
// of 'f' in 'b.cubin', first defined in 'b.cubin'" (exit status 1);
// cudalink's "first defined in" line says it is one file given twice. Two
// files that define one symbol (error-duplicate-device-function) get no
// such note.
func TestDuplicateFromOneFileGivenTwice(t *testing.T) {
	const note = " (the same file, given twice on the command line: give each input once)"
	runNamedCase(t, "call-chain-three-files", func(t *testing.T, args []string) {
		i := slices.Index(args, "b.cubin")
		if i < 0 {
			t.Fatalf("the case's link has no b.cubin: %q", args)
		}
		for _, again := range []string{"b.cubin", "./b.cubin"} {
			a := slices.Concat(args[:i+1], []string{again}, args[i+1:])
			out := a[slices.Index(a, "-o")+1]
			status, _, stderr := link(t, a)
			want := "\n>>> in " + again + "\n>>> first defined in b.cubin" + note + "\n"
			if status != 1 || !strings.Contains(stderr, want) {
				t.Errorf("cudalink %s: exit status %d, messages:\n%s\nwant exit status 1 and %q", strings.Join(a, " "), status, stderr, want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("cudalink %s wrote %s", strings.Join(a, " "), out)
			}
		}
	})
	runNamedCase(t, "error-duplicate-device-function", func(t *testing.T, args []string) {
		status, _, stderr := link(t, args)
		if status != 1 || !strings.Contains(stderr, "first defined in") || strings.Contains(stderr, note) {
			t.Errorf("cudalink %s: exit status %d, messages:\n%s\nwant exit status 1 and no note of a file given twice", strings.Join(args, " "), status, stderr)
		}
	})
}

// TestOlderPtxasHint: PTX of CUDA 12.4 objects (or libnvvm's of their IR)
// compiled by CUDA 11.8's
// ptxas (the system's, first on PATH, as on a machine where 12.4 was
// added beside it) fails, where nvlink 12.4 compiles it with its built-in
// ptxas; the error names the ptxas, its release and the inputs', and says
// to pass the 12.4 toolkit's. With the 12.4 ptxas the link is nvlink's
// (the corpus test).
func TestOlderPtxasHint(t *testing.T) {
	const old = "/usr/bin/ptxas"
	if out, err := exec.Command(old, "--version").Output(); err != nil || !strings.Contains(string(out), "release 11.8") {
		t.Skipf("no CUDA 11.8 ptxas at %s (%v)", old, err)
	}
	const hint = "its messages are above; ptxas " + old + " is CUDA 11.8's, older than the inputs (CUDA 12.4), whose nvlink compiles with its own release's ptxas: pass --ptxas=<that toolkit>/bin/ptxas\n>>> in "
	// A compute_80-only object, and the PTX libnvvm makes of -dlto objects.
	want := map[string]string{"cuda12-ptx-xptxas-comma-list-sm80": hint + "tile.o", "cuda12-lto-devrt-whole-program": hint + "lto.cubin"}
	ran := 0
	for _, c := range loadEveryToolkit(t) {
		if want[c.Name] == "" || c.Toolkit != "12.4" {
			continue
		}
		ran++
		t.Run(c.Name, func(t *testing.T) {
			t.Chdir(c.Dir)
			args := append(cudalinkArgs(t, c, c.Inputs, t.TempDir()+"/out.cubin"), "--ptxas="+old) // the last --ptxas is used
			status, _, stderr := link(t, args)
			if status != 1 || !strings.Contains(stderr, want[c.Name]) {
				t.Errorf("cudalink %s: exit status %d, messages:\n%s\nwant exit status 1 and %q", strings.Join(args, " "), status, stderr, want[c.Name])
			}
		})
	}
	if ran != len(want) {
		t.Fatalf("%d of the CUDA 12.4 cases %v in the corpus", ran, slices.Collect(maps.Keys(want)))
	}
}

// TestArchSpecificRefusedBeforePTX: -arch=sm_90a over CUDA 11.8 objects
// whose sm_80 SASS cannot serve it, so that their compute_80 PTX would be
// compiled: nvlink 11.8 refuses the value before it reads anything ("Value
// 'sm_90a' is not defined for option 'arch'", exit status 1), and so does
// cudalink, before any ptxas runs (11.8's ptxas refused the target with
// "Value 'sm_90a' is not defined for option 'gpu-name'", and the error
// blamed the compile). No output is written.
func TestArchSpecificRefusedBeforePTX(t *testing.T) {
	runToolkitCase(t, DefaultToolkit, "bank2-kernel-sections-order-launched-kernel-sm80", func(t *testing.T, args []string) {
		i := slices.Index(args, "-arch=sm_80")
		if i < 0 {
			t.Fatalf("the case's link has no -arch=sm_80: %q", args)
		}
		args[i] = "-arch=sm_90a"
		// A ptxas that runs (the case declares none), 11.8's.
		args = withPtxas(args, "/usr/bin/ptxas")
		out := args[slices.Index(args, "-o")+1]
		status, _, stderr := link(t, args)
		const want = "cudalink: error: value 'sm_90a' is not defined for option 'arch' by nvlink 11.8, the release this link reproduces"
		if status != 1 || !strings.HasPrefix(stderr, want) || strings.Contains(stderr, "ptxas") {
			t.Errorf("cudalink %s: exit status %d, messages:\n%s\nwant exit status 1 and only %q", strings.Join(args, " "), status, stderr, want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("cudalink %s wrote %s", strings.Join(args, " "), out)
		}
	})
}

// TestNewerPtxasWarning: CUDA 11.8 objects whose PTX is compiled by 12.4's
// ptxas (first on PATH, or --ptxas) link without error, but the code and
// the link are CUDA 12.4's (e_version 124, 12.4's SASS), not what nvlink
// 11.8 writes: cudalink says so, in a warning of its own (nvlink has its
// ptxas built in). With 11.8's ptxas the corpus test requires no such
// line.
func TestNewerPtxasWarning(t *testing.T) {
	const newer = "/opt/cuda-12.4/usr/bin/ptxas"
	if _, err := os.Stat(newer); err != nil {
		t.Skipf("no CUDA 12.4 ptxas: %v", err)
	}
	runToolkitCase(t, DefaultToolkit, "ptx-mixed-with-sass", func(t *testing.T, args []string) {
		args = withPtxas(args, newer)
		status, _, stderr := link(t, args)
		want := "cudalink: warning: ptxas " + newer + " is CUDA 12.4's, newer than the inputs (CUDA 11.8): the code it compiled is CUDA 12.4's, and the link is what nvlink 12.4 makes of it, not nvlink 11.8's; for that, pass --ptxas=<that toolkit>/bin/ptxas of CUDA 11.8\n"
		if status != 0 || stderr != want {
			t.Errorf("cudalink %s: exit status %d, messages:\n%s\nwant exit status 0 and:\n%s", strings.Join(args, " "), status, stderr, want)
		}
		// -w silences it, as cudalink's other warnings of its own.
		if status, _, stderr := link(t, append(args, "-w")); status != 0 || stderr != "" {
			t.Errorf("cudalink %s -w: exit status %d, messages:\n%s", strings.Join(args, " "), status, stderr)
		}
	})
}

// TestNewerPtxasWarningLTO: CUDA 11.8 -dlto objects whose program
// 11.8's libnvvm compiles to PTX, and 12.4's ptxas (first on PATH, or
// --ptxas) compiles: the link is CUDA 12.4's too (e_version 124), where
// nvlink 11.8 compiles with its own ptxas. cudalink gives the PTX pass's
// warning, once, for the cubin it links (lto-cross-file-inlining) and for
// the whole program it writes (lto-devrt-whole-program); -w silences it.
func TestNewerPtxasWarningLTO(t *testing.T) {
	const newer = "/opt/cuda-12.4/usr/bin/ptxas"
	if _, err := os.Stat(newer); err != nil {
		t.Skipf("no CUDA 12.4 ptxas: %v", err)
	}
	want := "cudalink: warning: ptxas " + newer + " is CUDA 12.4's, newer than the inputs (CUDA 11.8): the code it compiled is CUDA 12.4's, and the link is what nvlink 12.4 makes of it, not nvlink 11.8's; for that, pass --ptxas=<that toolkit>/bin/ptxas of CUDA 11.8\n"
	for _, name := range []string{"lto-cross-file-inlining", "lto-devrt-whole-program"} {
		runToolkitCase(t, DefaultToolkit, name, func(t *testing.T, args []string) {
			args = withPtxas(args, newer)
			status, _, stderr := link(t, args)
			if status != 0 || strings.Count(stderr, want) != 1 {
				t.Errorf("cudalink %s: exit status %d, messages:\n%s\nwant exit status 0 and once:\n%s", strings.Join(args, " "), status, stderr, want)
			}
			if status, _, stderr := link(t, append(args, "-w")); status != 0 || strings.Contains(stderr, "warning") {
				t.Errorf("cudalink %s -w: exit status %d, messages:\n%s", strings.Join(args, " "), status, stderr)
			}
		})
	}
}

// TestNoReportAfterFatalPastNonFatal: with -v, nvlink 11.8, 12.4 and 12.5
// print undefined references, then the relocation past bank 3's end
// ("Internal error", exit status 1), and no resource report, which they
// print after non-fatal errors alone (measured). cudalink printed the
// report and stopped with 255.
func TestNoReportAfterFatalPastNonFatal(t *testing.T) {
	runNamedCase(t, "error-undefined-then-relocation-past-bank-end-sm80", func(t *testing.T, args []string) {
		args = append(args, "-v")
		status, _, stderr := link(t, args)
		if status != 1 || !strings.Contains(stderr, "past the end of the __constant__ bank") || strings.Contains(stderr, "Function properties") {
			t.Errorf("cudalink %s: exit status %d, messages:\n%s\nwant exit status 1, the relocation past the bank's end, and no -v report", strings.Join(args, " "), status, stderr)
		}
	})
}

// withPtxas is args with --ptxas=ptxas in place of the --ptxas that
// cudalinkArgs gave.
func withPtxas(args []string, ptxas string) []string {
	return append(slices.DeleteFunc(args, func(a string) bool { return strings.HasPrefix(a, "--ptxas=") }), "--ptxas="+ptxas)
}

// TestBank3RebuildRefusals: where nvlink 12.x crashes rebuilding a bank 3
// past 64 KiB for pruned kernels, cudalink refuses the link (exit status
// 1, no output) naming the variable and its file. The corpus case links
// with -kernels-used=ka; with ka,kst kept code keeps a static __constant__
// variable (nvlink 12.4 and 12.5: SIGFPE, exit 136), with ka2 the pointer
// cp, which only ka reads, is left out though a relocation patches it
// (SIGSEGV, 139).
func TestBank3RebuildRefusals(t *testing.T) {
	runNamedCase(t, "cuda12-constant-bank3-rebuild-kernels-used-sm80", func(t *testing.T, args []string) {
		for _, tc := range []struct{ kernels, want string }{
			{"-kernels-used=ka,kst", "error: static __constant__ variable kept in a bank 3 that nvlink 12.x rebuilds past 64 KiB (0x100ac bytes) for pruned kernels, which it cannot do (nvlink crashes: SIGFPE): __nv_static_"},
			{"-kernels-used=ka2", "error: __constant__ variable that holds an address and that no kept code uses, left out of a bank 3 that nvlink 12.x rebuilds past 64 KiB (0x100ac bytes) for pruned kernels, which it cannot do (nvlink crashes: SIGSEGV): cp\n>>> in a.cubin:(.nv.constant3)"},
		} {
			a := slices.Clone(args)
			i := slices.Index(a, "-kernels-used=ka")
			if i < 0 {
				t.Fatalf("the case's link has no -kernels-used=ka: %q", args)
			}
			a[i] = tc.kernels
			out := a[slices.Index(a, "-o")+1]
			status, _, stderr := link(t, a)
			if status != 1 || !strings.Contains(stderr, tc.want) {
				t.Errorf("cudalink %s: exit status %d, messages:\n%s\nwant exit status 1 and %q", strings.Join(a, " "), status, stderr, tc.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("cudalink %s wrote %s", strings.Join(a, " "), out)
			}
		}
	})
}

// TestOwnWarningForFoldedConstantPastBank3: a folded __constant__ variable
// that kept code reads past bank 3's 64 KiB links with nvlink's bytes (the
// corpus test) and one warning of cudalink's own naming the variable, the
// file and the section of the code that reads it; -w silences it.
func TestOwnWarningForFoldedConstantPastBank3(t *testing.T) {
	runNamedCase(t, "constant-bank3-folded-variable-past-64k-kernels-used-sm80", func(t *testing.T, args []string) {
		status, _, stderr := link(t, args)
		if status != 0 || strings.Count(stderr, "warning: __constant__ variable past bank 3's 64 KiB") != 1 ||
			!strings.Contains(stderr, ": weights\n>>> in c.cubin:(.text._Z2kcPx)") {
			t.Errorf("cudalink %s: exit status %d, messages:\n%s\nwant one warning naming weights in c.cubin:(.text._Z2kcPx)", strings.Join(args, " "), status, stderr)
		}
		status, _, stderr = link(t, append([]string{"-w"}, args...))
		if status != 0 || stderr != "" {
			t.Errorf("cudalink -w %s: exit status %d, messages:\n%s\nwant none", strings.Join(args, " "), status, stderr)
		}
	})
}
