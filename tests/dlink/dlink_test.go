// Package dlink is the end-to-end test of cudalink as a drop-in nvlink for
// `nvcc -dlink`: it builds a small multi-file CUDA program with `nvcc -dc`,
// captures the command sequence of `nvcc -dlink --dryrun` and replays it
//
//	A  as nvcc runs it (nvlink, fatbinary, gcc link.stub),
//	B  with cudalink in place of nvlink (same arguments),
//	C  with cudalink in place of nvlink, given --embedded-fatbin=<the file
//	   fatbinary would write>, and the fatbinary step skipped,
//
// and also runs the real `nvcc -dlink` with a wrapper named nvlink first on
// PATH (D). Each variant's host executable is linked with the g++ command
// `nvcc -nodlink --dryrun` prints, and the device images `cuobjdump -xelf`
// extracts from B, C and D must normalize equal to A's; the intermediate
// .reg.c and .fatbin.c of B and C must be byte-identical to A's.
//
// It runs with each CUDA toolkit cudalink reproduces that is installed:
// 11.8 from PATH (nvcc, nvlink, fatbinary, cuobjdump), 12.4 and 12.5 from
// /opt/cuda-<v>/usr/bin (scripts/setup-cuda12.sh); g++ is needed too. A
// toolkit that is missing is skipped with a SKIP message. With 12.x, every
// intermediate and final file of B and C must be byte-identical to A's.
// cudalink is this test binary re-executed (TestMain runs cli.Run as
// cmd/cudalink does), or the binary named by $CUDALINK.
package dlink

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cudalink/cudalink/linker/cli"
	"github.com/cudalink/cudalink/tests/normalize"
)

// selfEnv makes the test binary act as cudalink (see TestMain).
const selfEnv = "CUDALINK_DLINK_TEST_AS_CUDALINK"

func TestMain(m *testing.M) {
	if os.Getenv(selfEnv) == "1" {
		os.Exit(cli.Run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// The program: cross-file device calls (a -> b -> c), a kernel launched from
// host code, __device__ variables defined in one file and used in another
// (one of them also read from host code), a __constant__ with an
// initializer, printf (an extern the driver resolves), a device function no
// kernel calls and a kernel host code never launches.
var sources = map[string]string{
	"a.cu": `#include <cstdio>
extern __device__ int scale(int x);
extern __device__ int g_hits;

__global__ void apply(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = scale(i);
    atomicAdd(&g_hits, 1);
  }
  if (i == 0) printf("apply n=%d\n", n);
}

int main() {
  const int n = 64;
  int *d = nullptr;
  if (cudaMalloc(&d, n * sizeof(int)) != cudaSuccess) {
    printf("no device\n");
    return 0;
  }
  apply<<<1, n>>>(d, n);
  int hits = 0;
  cudaMemcpyFromSymbol(&hits, g_hits, sizeof(hits));
  printf("%s hits=%d\n", cudaGetErrorString(cudaDeviceSynchronize()), hits);
  return 0;
}
`,
	"b.cu": `extern __device__ int offset(int x);
__device__ int g_hits;
__constant__ int c_factor = 3;

__device__ int scale(int x) { return c_factor * offset(x); }
__device__ int never_called(int x) { return x * x + c_factor; }
`,
	"c.cu": `__device__ int g_bias = 7;

__device__ int offset(int x) { return x + g_bias; }
__global__ void not_launched(int *p) { *p = offset(*p); }
`,
}

var objects = []string{"a.o", "b.o", "c.o"}

// A program build: the toolkit, the nvcc -gencode options and the
// architectures.
type build struct {
	tk    toolkit
	name  string
	flags []string
	// archs are the sm_NN nvcc links, in its order: its sm_ targets.
	// None when every target is compute_NN (virtual): nvcc then runs one
	// nvlink --arch=compute_NN with no -o, which only writes the .reg.c,
	// and fatbinary with no image; the driver JIT-links the objects' PTX.
	archs []string
}

// A toolkit is a CUDA release and where its tools are.
type toolkit struct {
	version string // "11.8"
	// bin holds nvcc and cuobjdump; "" for PATH. nvcc's --dryrun sets the
	// PATH under which nvlink and fatbinary run.
	bin string
}

// tool is the command that runs a tool of the toolkit.
func (tk toolkit) tool(name string) string {
	if tk.bin == "" {
		return name
	}
	return filepath.Join(tk.bin, name)
}

// virtualBuilds have compute_NN targets (PTX only), as
// -gencode arch=compute_NN,code=compute_NN and CMake's NN-virtual give:
// alone, nvcc -dlink runs nvlink for the first as a virtual target; beside
// an sm_ target, it runs none for them.
var virtualBuilds = []build{
	{name: "compute_80", flags: []string{"-gencode", "arch=compute_80,code=compute_80"}},
	{name: "compute_80+compute_90", flags: []string{
		"-gencode", "arch=compute_80,code=compute_80",
		"-gencode", "arch=compute_90,code=compute_90",
	}},
	{name: "sm_80+compute_90", flags: []string{
		"-gencode", "arch=compute_80,code=sm_80",
		"-gencode", "arch=compute_90,code=compute_90",
	}, archs: []string{"sm_80"}},
}

func TestNvccDlinkDropIn(t *testing.T) {
	toolkits := []struct {
		tk     toolkit
		builds []build
	}{
		{toolkit{version: "11.8"}, slices.Concat([]build{
			{name: "sm_80", flags: []string{"-arch=sm_80"}, archs: []string{"sm_80"}},
			{name: "sm_80+sm_86", flags: []string{
				"-gencode", "arch=compute_80,code=sm_80",
				"-gencode", "arch=compute_86,code=sm_86",
			}, archs: []string{"sm_80", "sm_86"}},
			// nvcc keeps the -gencode order (no sorting): nvlink runs
			// and fatbinary's images come newest first here.
			{name: "sm_86+sm_80", flags: []string{
				"-gencode", "arch=compute_86,code=sm_86",
				"-gencode", "arch=compute_80,code=sm_80",
			}, archs: []string{"sm_86", "sm_80"}},
		}, virtualBuilds)},
	}
	for _, v := range []string{"12.4", "12.5"} {
		// sm_90 code of 12.x has the unified tables (__UFT, __UDT); with
		// sm_80 beside it, fatbinary packs two images. For the
		// arch-specific sm_90a nvcc runs nvlink --arch=sm_90 and has
		// fatbinary mark the image (sm=90a).
		toolkits = append(toolkits, struct {
			tk     toolkit
			builds []build
		}{toolkit{version: v, bin: "/opt/cuda-" + v + "/usr/bin"}, slices.Concat([]build{
			{name: "sm_90", flags: []string{"-arch=sm_90"}, archs: []string{"sm_90"}},
			{name: "sm_80+sm_90", flags: []string{
				"-gencode", "arch=compute_80,code=sm_80",
				"-gencode", "arch=compute_90,code=sm_90",
			}, archs: []string{"sm_80", "sm_90"}},
			{name: "sm_90+sm_80", flags: []string{
				"-gencode", "arch=compute_90,code=sm_90",
				"-gencode", "arch=compute_80,code=sm_80",
			}, archs: []string{"sm_90", "sm_80"}},
			{name: "sm_90+sm_90a", flags: []string{
				"-gencode", "arch=compute_90,code=sm_90",
				"-gencode", "arch=compute_90a,code=sm_90a",
			}, archs: []string{"sm_90", "sm_90a"}},
		}, virtualBuilds)})
	}
	for _, tb := range toolkits {
		t.Run("cuda-"+tb.tk.version, func(t *testing.T) {
			checkToolkit(t, tb.tk)
			for _, b := range tb.builds {
				b.tk = tb.tk
				t.Run(b.name, func(t *testing.T) {
					t.Parallel()
					testBuild(t, b)
				})
			}
		})
	}
}

// checkToolkit skips the toolkit's builds, loudly, without the tools they
// need or when nvcc is another release.
func checkToolkit(t *testing.T, tk toolkit) {
	t.Helper()
	tools := []string{"nvcc", "cuobjdump"}
	if tk.bin == "" {
		tools = append(tools, "nvlink", "fatbinary")
	} else {
		for _, tool := range []string{"nvlink", "fatbinary"} {
			if _, err := os.Stat(tk.tool(tool)); err != nil {
				t.Skipf("SKIP: no CUDA %s toolkit (%v): scripts/setup-cuda12.sh %s installs it", tk.version, err, tk.version)
			}
		}
	}
	for _, tool := range tools {
		if _, err := exec.LookPath(tk.tool(tool)); err != nil {
			t.Skipf("SKIP: %s not found: the nvcc -dlink drop-in test needs the CUDA %s toolkit (nvcc, nvlink, fatbinary, cuobjdump) and g++", tk.tool(tool), tk.version)
		}
	}
	if _, err := exec.LookPath("g++"); err != nil {
		t.Skipf("SKIP: g++ is not on PATH: the nvcc -dlink drop-in test needs it")
	}
	out, err := exec.Command(tk.tool("nvcc"), "--version").CombinedOutput()
	if err != nil {
		t.Skipf("SKIP: nvcc --version failed: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "release "+tk.version+",") {
		t.Skipf("SKIP: %s is not CUDA %s:\n%s", tk.tool("nvcc"), tk.version, out)
	}
}

// A step is one command of an nvcc --dryrun sequence.
type step struct {
	line string   // the command as nvcc prints it (shell syntax)
	args []string // its words, unquoted
}

// A dryrun is what nvcc --dryrun printed: environment assignments and the
// commands, in order.
type dryrun struct {
	env   []string
	steps []step
}

// parseDryrun reads the "#$ " lines of nvcc --dryrun's stderr.
func parseDryrun(out string) (*dryrun, error) {
	assign := regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)
	d := &dryrun{}
	for line := range strings.Lines(out) {
		line = strings.TrimRight(line, "\r\n")
		cmd, ok := strings.CutPrefix(line, "#$ ")
		if !ok {
			continue
		}
		if assign.MatchString(cmd) {
			d.env = append(d.env, cmd)
			continue
		}
		args, err := shellWords(cmd)
		if err != nil {
			return nil, fmt.Errorf("%q: %v", cmd, err)
		}
		if len(args) == 0 {
			continue
		}
		d.steps = append(d.steps, step{line: strings.TrimSpace(cmd), args: args})
	}
	if len(d.steps) == 0 {
		return nil, fmt.Errorf("no commands in nvcc --dryrun output:\n%s", out)
	}
	return d, nil
}

// shellWords splits a command line as sh does for the quoting nvcc uses:
// blanks, '...', "..." with backslash escapes, and backslashes outside
// quotes.
func shellWords(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unterminated '")
			}
			w.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`\n", s[i+1]) >= 0 {
					i++
				}
				w.WriteByte(s[i])
			}
			if i == len(s) {
				return nil, fmt.Errorf("unterminated \"")
			}
			inWord = true
		case c == '\\' && i+1 < len(s):
			i++
			w.WriteByte(s[i])
			inWord = true
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}

// shellLine quotes words for sh.
func shellLine(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		if w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=,./:+") == "" {
			q[i] = w
		} else {
			q[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
		}
	}
	return strings.Join(q, " ")
}

// result is what one command did.
type result struct {
	out string // stdout and stderr
	err error
}

// run runs a command line with sh in dir.
func run(t *testing.T, dir string, env []string, line string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", line)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	return result{string(out), err}
}

// mustRun runs a command line and fails the test if it fails.
func mustRun(t *testing.T, dir string, env []string, line string) string {
	t.Helper()
	r := run(t, dir, env, line)
	if r.err != nil {
		t.Fatalf("in %s: %s: %v\n%s", dir, line, r.err, r.out)
	}
	return r.out
}

// withEnv is os.Environ with assignments ("NAME=value") applied.
func withEnv(assignments ...string) []string {
	env := os.Environ()
	for _, a := range assignments {
		name, _, _ := strings.Cut(a, "=")
		env = slices.DeleteFunc(env, func(e string) bool { return strings.HasPrefix(e, name+"=") })
		env = append(env, a)
	}
	return env
}

// A variant is one replay of the dlink sequence, in its own directory.
type variant struct {
	name string
	dir  string
	exe  string
	// nvlink's (A) or cudalink's (B, C) output for each link step.
	linkOutput []string
}

func testBuild(t *testing.T, b build) {
	start := time.Now()
	root := t.TempDir()
	src := filepath.Join(root, "src")
	must(t, os.MkdirAll(src, 0o755))
	for name, text := range sources {
		must(t, os.WriteFile(filepath.Join(src, name), []byte(text), 0o644))
	}
	cudalink := cudalinkCommand(t, root)

	// nvcc -dc, once: every variant links the same objects.
	baseEnv := withEnv("TMPDIR=" + mkdir(t, root, "tmp-dc"))
	mustRun(t, src, baseEnv, shellLine(slices.Concat([]string{b.tk.tool("nvcc"), "-dc"}, b.flags, []string{"a.cu", "b.cu", "c.cu"})))
	var objs []string
	for _, o := range objects {
		objs = append(objs, filepath.Join(src, o))
	}
	t.Logf("nvcc -dc %s: %s", strings.Join(b.flags, " "), time.Since(start).Round(time.Millisecond))

	// The dlink sequence and the host link command, captured once. The
	// commands' temporary files are under dryTmp; each variant gets them in
	// its own directory.
	dryTmp := mkdir(t, root, "tmp-dryrun")
	dryEnv := withEnv("TMPDIR=" + dryTmp)
	dl := dryrunOf(t, src, dryEnv, slices.Concat([]string{b.tk.tool("nvcc"), "-dlink"}, b.flags, objs, []string{"-o", "dl.o", "--dryrun"}))
	hl := dryrunOf(t, src, dryEnv, slices.Concat([]string{b.tk.tool("nvcc")}, b.flags, []string{"-nodlink"}, objs, []string{"dl.o", "-o", "exe", "--dryrun"}))
	for _, s := range dl.steps {
		t.Logf("dlink step: %s", s.line)
	}
	if len(hl.steps) != 1 || !isTool(hl.steps[0], "g++") {
		t.Fatalf("nvcc -nodlink --dryrun: want one g++ command, got %d commands: %v", len(hl.steps), hl.steps)
	}
	t.Logf("host link: %s", hl.steps[0].line)
	checkSequence(t, dl, b)

	newVariant := func(name string) *variant {
		v := &variant{name: name, dir: mkdir(t, root, name)}
		v.exe = filepath.Join(v.dir, "exe")
		return v
	}
	// relocate moves a dryrun command's temporary files into dir.
	relocate := func(s step, dir string) step {
		line := strings.ReplaceAll(s.line, dryTmp+"/", dir+"/")
		args, err := shellWords(line)
		must(t, err)
		return step{line, args}
	}
	env := withEnv(slices.Concat([]string{"TMPDIR=" + dryTmp}, dl.env)...)

	// replay runs the dlink sequence in v.dir: edit maps each command to
	// the line to run ("" skips it), then the host link.
	replay := func(v *variant, edit func(s step) string) {
		t0 := time.Now()
		for _, s := range dl.steps {
			s = relocate(s, v.dir)
			line := edit(s)
			if line == "" {
				t.Logf("%s: skipped: %s", v.name, s.line)
				continue
			}
			r := run(t, v.dir, env, line)
			if isTool(s, "nvlink") {
				r = retryUnsupported(t, v, env, line, r)
				v.linkOutput = append(v.linkOutput, r.out)
			}
			if r.err != nil {
				t.Fatalf("%s: %s: %v\n%s", v.name, line, r.err, r.out)
			}
		}
		mustRun(t, v.dir, env, relocate(hl.steps[0], v.dir).line)
		t.Logf("%s: dlink and host link: %s", v.name, time.Since(t0).Round(time.Millisecond))
	}
	// rm: nvcc removes the .fatbin that fatbinary -link never writes and
	// does not mind; sh's rm would.
	rmForce := func(s step) string {
		return shellLine(slices.Concat([]string{"rm", "-f"}, s.args[1:]))
	}

	// A: as nvcc runs it.
	a := newVariant("A-nvlink")
	replay(a, func(s step) string {
		if isTool(s, "rm") {
			return rmForce(s)
		}
		return s.line
	})

	// B: cudalink in place of nvlink.
	bv := newVariant("B-cudalink")
	replay(bv, func(s step) string {
		switch {
		case isTool(s, "rm"):
			return rmForce(s)
		case isTool(s, "nvlink"):
			return shellLine(slices.Concat([]string{cudalink}, s.args[1:]))
		}
		return s.line
	})

	// C: one cudalink for every nvlink step, writing fatbinary's
	// --embedded-fatbin file itself; no fatbinary.
	c := newVariant("C-cudalink-no-fatbinary")
	cline := cudalinkForFatbinary(t, dl, func(s step) step { return relocate(s, c.dir) }, cudalink, nvccTargets(t, b.flags))
	first := true
	replay(c, func(s step) string {
		switch {
		case isTool(s, "rm"):
			return rmForce(s)
		case isTool(s, "fatbinary"):
			return ""
		case isTool(s, "nvlink"):
			if !first {
				return ""
			}
			first = false
			return cline
		}
		return s.line
	})

	variants := []*variant{a, bv, c}
	for _, v := range variants {
		if _, err := os.Stat(v.exe); err != nil {
			t.Fatalf("%s: no executable: %v", v.name, err)
		}
	}

	// cudalink prints what nvlink prints (nothing, for these links).
	for i, out := range bv.linkOutput {
		if out != a.linkOutput[i] {
			t.Errorf("%s: link step %d printed %q, nvlink printed %q", bv.name, i+1, out, a.linkOutput[i])
		}
	}
	if got, want := strings.Join(c.linkOutput, ""), strings.Join(a.linkOutput, ""); got != want {
		t.Errorf("%s: cudalink printed %q, nvlink printed %q", c.name, got, want)
	}

	// The intermediate files nvcc compiles link.stub with.
	regC := argValue(dl.steps, "nvlink", "--register-link-binaries=")
	fatbinC := argValue(dl.steps, "fatbinary", "--embedded-fatbin=")
	for _, f := range []string{regC, fatbinC} {
		want := readFile(t, filepath.Join(a.dir, filepath.Base(f)))
		for _, v := range variants[1:] {
			got := readFile(t, filepath.Join(v.dir, filepath.Base(f)))
			if !bytes.Equal(got, want) {
				t.Errorf("%s: %s differs from nvlink/fatbinary's (%d vs %d bytes)\n%s", v.name, filepath.Base(f), len(got), len(want),
					firstDifference(string(want), string(got)))
			} else {
				t.Logf("%s: %s byte-identical (%d bytes)", v.name, filepath.Base(f), len(got))
			}
		}
	}
	// The linked cubins of B (C writes its own names: NAME.sm_NN.cubin).
	for _, s := range dl.steps {
		if isTool(s, "nvlink") && !isVirtualLink(t, s) {
			out := filepath.Base(argAfter(t, s, "-o"))
			requireIdentical(t, "B: "+out, readFile(t, filepath.Join(a.dir, out)), readFile(t, filepath.Join(bv.dir, out)))
		}
	}

	// D: the real nvcc -dlink, with a wrapper named nvlink first on PATH
	// (12.x: first on the PATH of a copy of its nvcc.profile, see
	// profiledNvcc).
	d := newVariant("D-nvcc-with-nvlink-on-PATH")
	if wrapperOnPath(t, d, b, objs, cudalink, hl, env, relocate) {
		variants = append(variants, d)
	}

	// The device images in the executables.
	images := map[string]map[string][]byte{}
	for _, v := range variants {
		images[v.name] = deviceImages(t, b.tk, v, len(b.archs))
	}
	// The executables run (without a GPU they say so); their output must
	// be A's.
	wantRun := runExe(t, a)
	for _, v := range variants[1:] {
		requireIdentical(t, v.name+": dl.o", readFile(t, filepath.Join(a.dir, "dl.o")), readFile(t, filepath.Join(v.dir, "dl.o")))
		requireIdentical(t, v.name+": exe", readFile(t, a.exe), readFile(t, v.exe))
		if got := runExe(t, v); got != wantRun {
			t.Errorf("%s: ./exe printed %q, A's printed %q", v.name, got, wantRun)
		}
	}
	wantImgs := images[a.name]
	var names []string
	for n := range wantImgs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, v := range variants[1:] {
		got := images[v.name]
		if len(got) != len(wantImgs) {
			t.Errorf("%s: %d device images, nvlink's executable has %d", v.name, len(got), len(wantImgs))
		}
		for _, n := range names {
			g, ok := got[n]
			if !ok {
				t.Errorf("%s: no device image %s", v.name, n)
				continue
			}
			w := wantImgs[n]
			nw, err := normalize.Normalize(w)
			if err != nil {
				t.Fatalf("%s: normalize %s: %v", a.name, n, err)
			}
			ng, err := normalize.Normalize(g)
			if err != nil {
				t.Errorf("%s: normalize %s: %v", v.name, n, err)
				continue
			}
			if nw != ng {
				t.Errorf("%s: device image %s differs from nvlink's (normalized; - nvlink, + cudalink):\n%s", v.name, n, normalize.Diff(nw, ng))
			} else {
				t.Logf("%s: device image %s normalizes equal to nvlink's", v.name, n)
			}
			requireIdentical(t, v.name+": device image "+n, w, g)
		}
	}
	t.Logf("total %s", time.Since(start).Round(time.Millisecond))
}

// checkSequence checks the dlink sequence has the shape the variants rely
// on: one nvlink per architecture, then one fatbinary that packs their
// outputs in that order, then gcc on link.stub.
func checkSequence(t *testing.T, d *dryrun, b build) {
	t.Helper()
	var links, fatbins int
	for _, s := range d.steps {
		switch {
		case isTool(s, "nvlink"):
			links++
		case isTool(s, "fatbinary"):
			fatbins++
		}
	}
	want := max(len(b.archs), 1) // a virtual link when there is no sm_ target
	if links != want || fatbins != 1 {
		t.Fatalf("nvcc -dlink --dryrun: want %d nvlink and 1 fatbinary command, got %d and %d", want, links, fatbins)
	}
	for _, s := range d.steps {
		if isTool(s, "nvlink") && isVirtualLink(t, s) != (len(b.archs) == 0) {
			t.Fatalf("nvcc -dlink --dryrun: nvlink --arch=%s for sm_ targets %q", argPrefixed(t, s, "--arch="), b.archs)
		}
	}
}

// isVirtualLink says whether an nvlink command links a virtual target
// (--arch=compute_NN), which writes no cubin: it must have no -o then.
func isVirtualLink(t *testing.T, s step) bool {
	t.Helper()
	if !strings.HasPrefix(argPrefixed(t, s, "--arch="), "compute_") {
		return false
	}
	if slices.Contains(s.args, "-o") {
		t.Fatalf("a virtual link with -o: %s", s.line)
	}
	return true
}

// cudalinkForFatbinary is variant C's command: the first nvlink command with
// the targets of fatbinary's images (sm=NN, sm=90a) as its --arch values
// (the nvlink commands must be the same but for --arch and -o), then the
// rest of nvcc's targets (compute_NN, for which nvcc runs no nvlink beside
// an sm_ target and cudalink links nothing), and --embedded-fatbin, after
// checking that fatbinary packs exactly those cubins, as ELF, in that
// order. An image's target is the nvlink command's --arch but for sm_90a,
// which nvcc links with --arch=sm_90.
func cudalinkForFatbinary(t *testing.T, d *dryrun, relocate func(step) step, cudalink string, targets []string) string {
	t.Helper()
	var links []step
	var fb step
	for _, s := range d.steps {
		switch {
		case isTool(s, "nvlink"):
			links = append(links, relocate(s))
		case isTool(s, "fatbinary"):
			fb = relocate(s)
		}
	}
	// fatbinary's images: --image3=kind=elf,sm=80,file=X.
	var images []string
	for _, a := range fb.args[1:] {
		if v, ok := strings.CutPrefix(a, "--image3="); ok {
			images = append(images, v)
		}
	}
	if len(links) == 1 && isVirtualLink(t, links[0]) {
		if len(images) != 0 {
			t.Fatalf("fatbinary packs %d images after a virtual link: %s", len(images), fb.line)
		}
		// A virtual target: the .reg.c and a fatbinary with no image.
		return cudalinkLine(cudalink, links[0].args[1:], nil, targets, fb)
	}
	if len(images) != len(links) {
		t.Fatalf("fatbinary packs %d images, there are %d nvlink commands: %s", len(images), len(links), fb.line)
	}
	strip := func(s step) []string { // without --arch= and -o's value
		var out []string
		for i := 0; i < len(s.args); i++ {
			switch {
			case strings.HasPrefix(s.args[i], "--arch="):
			case s.args[i] == "-o":
				i++
			default:
				out = append(out, s.args[i])
			}
		}
		return out
	}
	var archs []string
	for i, s := range links {
		arch := strings.TrimPrefix(argPrefixed(t, s, "--arch="), "sm_")
		want := fmt.Sprintf("kind=elf,sm=%s,file=%s", arch, argAfter(t, s, "-o"))
		if arch == "90" && images[i] == fmt.Sprintf("kind=elf,sm=90a,file=%s", argAfter(t, s, "-o")) {
			arch, want = "90a", images[i]
		}
		if images[i] != want {
			t.Fatalf("fatbinary image %d is %q, want %q", i+1, images[i], want)
		}
		if i > 0 && !slices.Equal(strip(s), strip(links[0])) {
			t.Fatalf("nvlink commands differ beyond --arch and -o:\n%s\n%s", links[0].line, s.line)
		}
		archs = append(archs, "--arch=sm_"+arch)
	}
	args := slices.DeleteFunc(slices.Clone(links[0].args[1:]), func(a string) bool { return strings.HasPrefix(a, "--arch=") })
	return cudalinkLine(cudalink, slices.Concat(archs[:1], args), archs[1:], targets, fb)
}

// cudalinkLine is an nvlink command's arguments with more --arch= values
// after its own (extra, then each of targets not given yet) and fatbinary
// fb's --embedded-fatbin, run by cudalink.
func cudalinkLine(cudalink string, nvlinkArgs, extra, targets []string, fb step) string {
	args := slices.Clone(nvlinkArgs)
	at := slices.IndexFunc(args, func(a string) bool { return strings.HasPrefix(a, "--arch=") }) + 1
	for _, target := range targets {
		if a := "--arch=" + target; !slices.Contains(args, a) && !slices.Contains(extra, a) {
			extra = append(extra, a)
		}
	}
	args = slices.Insert(args, at, extra...)
	for _, a := range fb.args {
		if strings.HasPrefix(a, "--embedded-fatbin=") {
			args = append(args, a)
		}
	}
	return shellLine(slices.Concat([]string{cudalink}, args))
}

// nvccTargets are the code targets of nvcc's architecture flags, in
// order: -arch=sm_NN is sm_NN and compute_NN, -arch=compute_NN itself,
// -gencode arch=...,code=X (or code=[X,Y]) X (and Y).
func nvccTargets(t *testing.T, flags []string) []string {
	t.Helper()
	var targets []string
	for i, f := range flags {
		switch {
		case strings.HasPrefix(f, "-arch=sm_"):
			sm := strings.TrimPrefix(f, "-arch=sm_")
			targets = append(targets, "sm_"+sm, "compute_"+sm)
		case strings.HasPrefix(f, "-arch=compute_"):
			targets = append(targets, strings.TrimPrefix(f, "-arch="))
		case f == "-gencode" && i+1 < len(flags):
			_, code, ok := strings.Cut(flags[i+1], "code=")
			if !ok {
				t.Fatalf("-gencode %s: no code=", flags[i+1])
			}
			targets = append(targets, strings.Split(strings.Trim(code, "[]"), ",")...)
		}
	}
	return targets
}

// wrapperOnPath is variant D: the real `nvcc -dlink` with a directory
// holding a script named nvlink (which logs its arguments and runs cudalink)
// first on PATH, then the host link, under hostEnv as the other variants'
// (the dryrun's PATH, which picks the g++ nvcc runs). A build of several
// architectures runs `nvcc -t 2`, which runs their nvlink commands in
// parallel (and no longer prints them under --dryrun, so A to C cannot
// replay it). It reports whether D produced an executable.
func wrapperOnPath(t *testing.T, d *variant, b build, objs []string, cudalink string, hl *dryrun, hostEnv []string, relocate func(step, string) step) bool {
	t.Helper()
	bin := mkdir(t, d.dir, "bin")
	log := filepath.Join(d.dir, "nvlink.log")
	script := "#!/bin/sh\nprintf '%s\\n' \"$*\" >> " + shellLine([]string{log}) + "\nexec " + shellLine([]string{cudalink}) + " \"$@\"\n"
	must(t, os.WriteFile(filepath.Join(bin, "nvlink"), []byte(script), 0o755))
	env := withEnv("PATH="+bin+":"+os.Getenv("PATH"), "TMPDIR="+mkdir(t, d.dir, "tmp"))
	nvcc := b.tk.tool("nvcc")
	if b.tk.bin != "" {
		nvcc = profiledNvcc(t, b.tk, d.dir, bin)
	}
	cmd := []string{nvcc, "-dlink"}
	if len(b.archs) > 1 {
		cmd = append(cmd, "-t", "2")
	}
	r := run(t, d.dir, env, shellLine(slices.Concat(cmd, b.flags, objs, []string{"-o", "dl.o"})))
	calls, _ := os.ReadFile(log)
	if len(calls) == 0 {
		t.Errorf("%s: nvcc -dlink did not run the nvlink on PATH (%s)", d.name, bin)
	} else if n, want := bytes.Count(calls, []byte("\n")), max(len(b.archs), 1); n != want {
		t.Errorf("%s: nvcc ran %s/nvlink %d time(s), want %d (one per architecture):\n%s", d.name, bin, n, want, calls)
	} else {
		t.Logf("%s: nvcc ran %s/nvlink %d time(s)", d.name, bin, n)
	}
	if r.err != nil {
		t.Errorf("%s: nvcc -dlink with cudalink as nvlink failed: %v\n%s", d.name, r.err, r.out)
		return false
	}
	mustRun(t, d.dir, hostEnv, relocate(hl.steps[0], d.dir).line)
	return true
}

// profiledNvcc returns an nvcc of tk that runs the nvlink in wrapperBin.
// 12.x's nvcc.profile puts the toolkit's own bin, where its nvlink is,
// before the PATH nvcc is given, so a wrapper first on PATH is not run.
// nvcc reads the nvcc.profile (and crt/) beside the file it was run as, a
// hard link too: dir/nvcc-bin gets a hard link (else a copy) of the
// toolkit's nvcc, its crt/ linked, and the profile with wrapperBin first on
// its PATH. The toolkit's nvcc is the one beside its nvcc.profile: the
// tool itself, or, when it is Debian's script (/opt/cuda-<v>/usr/bin/nvcc),
// lib/nvidia-cuda-toolkit/bin/nvcc.
func profiledNvcc(t *testing.T, tk toolkit, dir, wrapperBin string) string {
	t.Helper()
	var real string
	for _, c := range []string{tk.tool("nvcc"), filepath.Join(tk.bin, "..", "lib", "nvidia-cuda-toolkit", "bin", "nvcc")} {
		if _, err := os.Stat(filepath.Join(filepath.Dir(c), "nvcc.profile")); err == nil {
			real = c
			break
		}
	}
	if real == "" {
		t.Fatalf("D: no nvcc.profile beside %s or Debian's lib/nvidia-cuda-toolkit/bin/nvcc", tk.tool("nvcc"))
	}
	realDir := filepath.Dir(real)
	profile := strings.ReplaceAll(string(readFile(t, filepath.Join(realDir, "nvcc.profile"))), "$(_HERE_)", realDir)
	var text strings.Builder
	found := false
	for line := range strings.Lines(profile) {
		if rest, ok := strings.CutPrefix(line, "PATH"); ok && !found {
			if rest, ok = strings.CutPrefix(strings.TrimLeft(rest, " \t"), "+="); ok {
				line, found = "PATH += "+wrapperBin+":"+strings.TrimLeft(rest, " \t"), true
			}
		}
		text.WriteString(line)
	}
	if !found {
		t.Fatalf("D: %s has no PATH += line to put %s first on", filepath.Join(realDir, "nvcc.profile"), wrapperBin)
	}
	bin := mkdir(t, dir, "nvcc-bin")
	nvcc := filepath.Join(bin, "nvcc")
	if err := os.Link(real, nvcc); err != nil {
		must(t, os.WriteFile(nvcc, readFile(t, real), 0o755))
	}
	must(t, os.Symlink(filepath.Join(realDir, "crt"), filepath.Join(bin, "crt")))
	must(t, os.WriteFile(filepath.Join(bin, "nvcc.profile"), []byte(text.String()), 0o644))
	return nvcc
}

// retryUnsupported handles cudalink refusing an option nvcc passes ("option
// 'X' is not supported yet"): that is an error, reported; the link is then
// run again without the option, so that the rest of the test still checks
// what it can.
func retryUnsupported(t *testing.T, v *variant, env []string, line string, r result) result {
	t.Helper()
	m := regexp.MustCompile(`option '(-[^']+)' is not supported yet`).FindStringSubmatch(r.out)
	if r.err == nil || m == nil {
		return r
	}
	args, err := shellWords(line)
	must(t, err)
	if !slices.Contains(args, m[1]) {
		return r
	}
	t.Errorf("%s: cudalink refuses an option nvcc -dlink passes to nvlink: %s: %v\n%s", v.name, line, r.err, strings.TrimSpace(r.out))
	args = slices.DeleteFunc(args, func(a string) bool { return a == m[1] })
	line = shellLine(args)
	t.Logf("%s: retrying without %s to check the rest: %s", v.name, m[1], line)
	return run(t, v.dir, env, line)
}

// deviceImages checks `cuobjdump -elf exe` and returns the ELF images
// `cuobjdump -xelf all exe` extracts, by file name.
func deviceImages(t *testing.T, tk toolkit, v *variant, archs int) map[string][]byte {
	t.Helper()
	out := mustRun(t, v.dir, os.Environ(), shellLine([]string{tk.tool("cuobjdump"), "-elf", "exe"}))
	if n := strings.Count(out, "Fatbin elf code:"); n != archs {
		t.Errorf("%s: cuobjdump -elf exe shows %d ELF images, want %d", v.name, n, archs)
	}
	if archs > 0 && !strings.Contains(out, "type=2,") { // ET_EXEC
		t.Errorf("%s: cuobjdump -elf exe shows no executable device ELF:\n%.2000s", v.name, out)
	}
	x := mkdir(t, v.dir, "xelf")
	mustRun(t, x, os.Environ(), shellLine([]string{tk.tool("cuobjdump"), "-xelf", "all", "../exe"}))
	ents, err := os.ReadDir(x)
	must(t, err)
	imgs := map[string][]byte{}
	for _, e := range ents {
		imgs[e.Name()] = readFile(t, filepath.Join(x, e.Name()))
	}
	if len(imgs) != archs {
		t.Errorf("%s: cuobjdump -xelf all extracted %d files, want %d", v.name, len(imgs), archs)
	}
	return imgs
}

// runExe runs v's executable and returns its output and exit status.
func runExe(t *testing.T, v *variant) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, v.exe)
	cmd.Dir = v.dir
	out, err := cmd.CombinedOutput()
	res := string(out)
	if err != nil {
		res += "(" + err.Error() + ")"
	}
	t.Logf("%s: ./exe: %q", v.name, res)
	return res
}

// firstDifference shows the first line where two texts differ.
func firstDifference(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) && i < len(g); i++ {
		if w[i] != g[i] {
			return fmt.Sprintf("first difference at line %d:\n-%s\n+%s", i+1, w[i], g[i])
		}
	}
	return fmt.Sprintf("one is a prefix of the other (%d vs %d lines)", len(w), len(g))
}

// cudalinkCommand is the path of the cudalink to run: $CUDALINK, or a
// script re-executing this test binary as cudalink.
func cudalinkCommand(t *testing.T, root string) string {
	t.Helper()
	if p := os.Getenv("CUDALINK"); p != "" {
		abs, err := filepath.Abs(p)
		must(t, err)
		return abs
	}
	self, err := os.Executable()
	must(t, err)
	path := filepath.Join(mkdir(t, root, "bin"), "cudalink")
	script := "#!/bin/sh\n" + selfEnv + "=1\nexport " + selfEnv + "\nexec " + shellLine([]string{self}) + " \"$@\"\n"
	must(t, os.WriteFile(path, []byte(script), 0o755))
	return path
}

func dryrunOf(t *testing.T, dir string, env []string, args []string) *dryrun {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Dir, cmd.Env = dir, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s%s", shellLine(args), err, stdout.String(), stderr.String())
	}
	if !strings.Contains(stderr.String(), "#$ ") {
		t.Fatalf("%s: no \"#$ \" lines on stderr (stdout: %q)", shellLine(args), stdout.String())
	}
	d, err := parseDryrun(stderr.String())
	if err != nil {
		t.Fatalf("%s: %v", shellLine(args), err)
	}
	return d
}

func isTool(s step, name string) bool { return s.args[0] == name }

// argValue is the value of the first argument starting with prefix in the
// first command of tool.
func argValue(steps []step, tool, prefix string) string {
	for _, s := range steps {
		if isTool(s, tool) {
			for _, a := range s.args {
				if v, ok := strings.CutPrefix(a, prefix); ok {
					return v
				}
			}
		}
	}
	return ""
}

func argPrefixed(t *testing.T, s step, prefix string) string {
	t.Helper()
	for _, a := range s.args {
		if v, ok := strings.CutPrefix(a, prefix); ok {
			return v
		}
	}
	t.Fatalf("no %s... in %s", prefix, s.line)
	return ""
}

func argAfter(t *testing.T, s step, opt string) string {
	t.Helper()
	i := slices.Index(s.args, opt)
	if i < 0 || i+1 == len(s.args) {
		t.Fatalf("no %s <value> in %s", opt, s.line)
	}
	return s.args[i+1]
}

// requireIdentical fails the test unless got has want's bytes.
func requireIdentical(t *testing.T, what string, want, got []byte) {
	t.Helper()
	if bytes.Equal(want, got) {
		t.Logf("%s: byte-identical to A's (%d bytes)", what, len(got))
	} else {
		t.Errorf("%s: NOT byte-identical to A's (%d vs %d bytes)", what, len(got), len(want))
	}
}

func mkdir(t *testing.T, parent, name string) string {
	t.Helper()
	d := filepath.Join(parent, name)
	must(t, os.MkdirAll(d, 0o755))
	return d
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	must(t, err)
	return b
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
