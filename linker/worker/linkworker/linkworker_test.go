package linkworker

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cudalink/cudalink/linker/cli"
	"github.com/cudalink/cudalink/linker/worker"
	"github.com/cudalink/cudalink/linker/worker/internal/fakebazel"
	"github.com/cudalink/cudalink/linker/worker/objcache"
	"github.com/cudalink/cudalink/tests/difftest"
)

// corpus is the committed link-case corpus (tests/corpus/README.md).
const corpus = "../../../tests/corpus/cases"

const timeout = 20 * time.Second

// childEnv makes the test binary run Main (see TestMain).
const childEnv = "CUDALINK_LINKWORKER_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		os.Exit(Main(os.Args[1:]))
	}
	os.Exit(m.Run())
}

func loadCase(t testing.TB, name string) *difftest.Case {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join(corpus, name))
	if err != nil {
		t.Fatal(err)
	}
	c, err := difftest.LoadCase(dir)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// handle sends l one request with args and the digested inputs ins, as
// Bazel would, and fails the test on a non-zero exit.
func handle(t testing.TB, l *Linker, args []string, ins []fakebazel.Input) {
	t.Helper()
	var buf bytes.Buffer
	req := &worker.Request{Arguments: args}
	for _, in := range ins {
		req.Inputs = append(req.Inputs, worker.Input{Path: in.Path, Digest: in.Digest})
	}
	if code := l.Handle(context.Background(), req, &buf); code != 0 {
		t.Fatalf("exit %d: %s", code, buf.String())
	}
}

// digestInputs lists the files that exist among paths with their SHA-256,
// in hex as Bazel 4 sends it in proto.
func digestInputs(t testing.TB, paths []string) []fakebazel.Input {
	t.Helper()
	var ins []fakebazel.Input
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			continue // a missing input: Bazel would not list it
		}
		sum := sha256.Sum256(data)
		ins = append(ins, fakebazel.Input{Path: p, Digest: hex.EncodeToString(sum[:])})
	}
	return ins
}

// cliLink links as the command line does: exit status, everything printed,
// and the output file (nil when none was written).
func cliLink(args []string, out string) (int, string, []byte) {
	var stdout, stderr bytes.Buffer
	code := cli.Run(args, &stdout, &stderr)
	data, _ := os.ReadFile(out)
	return code, stdout.String() + stderr.String(), data
}

// client drives an in-process Server over pipes with the fakebazel codec.
type client struct {
	t        testing.TB
	protocol string
	in       *io.PipeWriter
	next     func() (fakebazel.Response, error)
	done     chan error
	mu       sync.Mutex // one request written at a time
}

func serve(t testing.TB, protocol string, l *Linker) *client {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &client{t: t, protocol: protocol, in: inW, next: fakebazel.NewReader(protocol, outR), done: make(chan error, 1)}
	srv := &worker.Server{Handler: l.Handle, Protocol: protocol}
	go func() {
		err := srv.Serve(inR, outW)
		outW.Close()
		c.done <- err
	}()
	t.Cleanup(func() { inW.Close() })
	return c
}

// do sends requests (all at once) and returns their responses by id.
func (c *client) do(reqs ...fakebazel.Request) map[int32]fakebazel.Response {
	c.t.Helper()
	go func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		for _, r := range reqs {
			c.in.Write(fakebazel.Encode(c.protocol, r))
		}
	}()
	got := map[int32]fakebazel.Response{}
	for range reqs {
		type result struct {
			r   fakebazel.Response
			err error
		}
		ch := make(chan result, 1)
		go func() { r, err := c.next(); ch <- result{r, err} }()
		select {
		case res := <-ch:
			if res.err != nil {
				c.t.Fatalf("reading a response: %v", res.err)
			}
			if _, dup := got[res.r.ID]; dup {
				c.t.Fatalf("two responses for request %d", res.r.ID)
			}
			got[res.r.ID] = res.r
		case <-time.After(timeout):
			c.t.Fatalf("no response within %v", timeout)
		}
	}
	return got
}

// close ends the input and checks that the worker stops cleanly with no
// response left over.
func (c *client) close() {
	c.t.Helper()
	c.in.Close()
	select {
	case err := <-c.done:
		if err != nil {
			c.t.Fatalf("Serve: %v", err)
		}
	case <-time.After(timeout):
		c.t.Fatal("Serve did not stop at the end of input")
	}
	if r, err := c.next(); err != io.EOF {
		c.t.Fatalf("after the last response: %v, %v; want the end of the stream", r, err)
	}
}

// TestMatchesCLI: every case of the corpus, linked through the worker (as
// concurrent multiplex requests, cold and then from a warm cache, and with
// no cache at all), gives the command line's exit status, messages and
// output bytes.
func TestMatchesCLI(t *testing.T) {
	cases, err := difftest.LoadCases(corpus)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	type want struct {
		code int
		text string
		out  []byte
	}
	wants := make([]want, len(cases))
	for i, c := range cases {
		out := filepath.Join(dir, fmt.Sprintf("cli-%d.cubin", i))
		wants[i].code, wants[i].text, wants[i].out = cliLink(c.Args(c.AbsInputs(), out), out)
	}

	run := func(t *testing.T, protocol string, l *Linker, round string) {
		cl := serve(t, protocol, l)
		var reqs []fakebazel.Request
		for i, c := range cases {
			out := filepath.Join(dir, fmt.Sprintf("%s-%s-%d.cubin", protocol, round, i))
			reqs = append(reqs, fakebazel.Request{ID: int32(i + 1), Args: c.Args(c.AbsInputs(), out), Inputs: digestInputs(t, c.AbsInputs())})
		}
		resps := cl.do(reqs...)
		for i, c := range cases {
			r := resps[int32(i+1)]
			data, _ := os.ReadFile(filepath.Join(dir, fmt.Sprintf("%s-%s-%d.cubin", protocol, round, i)))
			switch w := wants[i]; {
			case int(r.ExitCode) != w.code || r.Output != w.text:
				t.Errorf("%s: worker exit %d, output:\n%s\nCLI exit %d, output:\n%s", c.Name, r.ExitCode, r.Output, w.code, w.text)
			case !bytes.Equal(data, w.out):
				t.Errorf("%s: the worker's output file (%d bytes) differs from the CLI's (%d bytes)", c.Name, len(data), len(w.out))
			}
		}
		if round == "warm" {
			cl.do(reqs...) // and once more from the cache
		}
		cl.close()
	}
	for _, protocol := range []string{worker.Proto, worker.JSON} {
		t.Run(protocol, func(t *testing.T) {
			l := &Linker{Cache: objcache.New(64 << 20)}
			run(t, protocol, l, "cold")
			cold := l.Cache.Stats()
			run(t, protocol, l, "warm")
			warm := l.Cache.Stats()
			// Each file parsed in the first round is served twice more from
			// the cache (files that fail to parse are not kept). A file a
			// link names twice (by path and by -l) is a hit in the first
			// round already, and twice more after.
			if warm.Hits-cold.Hits != 2*(int64(cold.Entries)+cold.Hits) || warm.Entries != cold.Entries {
				t.Errorf("the later rounds were not served from the cache: %+v, then %+v", cold, warm)
			}
			t.Logf("cache after two rounds: %+v", warm)
		})
	}
	t.Run("nocache", func(t *testing.T) { run(t, worker.Proto, &Linker{}, "nocache") })
}

// copyFile writes src's contents to dst.
func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCacheFollowsDigest: the cache serves a file again while its digest is
// the same, and reads it again when the digest changes or is missing; the
// output always follows the digest Bazel sent.
func TestCacheFollowsDigest(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "x.cubin")
	one := filepath.Join(corpus, "single-file-kernel", "single-file-kernel.cubin")
	if _, err := os.Stat(one); err != nil {
		matches, _ := filepath.Glob(filepath.Join(corpus, "single-file-kernel", "*.cubin"))
		matches = slices.DeleteFunc(matches, func(s string) bool { return filepath.Base(s) == "expected.cubin" })
		one = matches[0]
	}
	two := loadCase(t, "static-shared-kernels").AbsInputs()[0]
	l := &Linker{Cache: objcache.New(64 << 20)}
	cl := serve(t, worker.Proto, l)
	defer cl.close()
	link := func(id int32, digest string) []byte {
		t.Helper()
		out := filepath.Join(dir, fmt.Sprintf("out-%d.cubin", id))
		var ins []fakebazel.Input
		if digest != "" {
			ins = []fakebazel.Input{{Path: in, Digest: digest}}
		}
		r := cl.do(fakebazel.Request{ID: id, Args: []string{"-arch=sm_80", in, "-o", out}, Inputs: ins})[id]
		if r.ExitCode != 0 {
			t.Fatalf("link %d: %v", id, r)
		}
		data, _ := os.ReadFile(out)
		return data
	}
	expect := func(src string) []byte {
		t.Helper()
		out := filepath.Join(dir, "cli.cubin")
		_, _, data := cliLink([]string{"-arch=sm_80", src, "-o", out}, out)
		return data
	}
	wantOne, wantTwo := expect(one), expect(two)
	if bytes.Equal(wantOne, wantTwo) {
		t.Fatal("the two inputs link to the same output")
	}
	stats := func() objcache.Stats { return l.Cache.Stats() }

	copyFile(t, one, in)
	if !bytes.Equal(link(1, "d1"), wantOne) || !bytes.Equal(link(2, "d1"), wantOne) {
		t.Error("links of the first contents differ from the CLI's")
	}
	if s := stats(); s.Misses != 1 || s.Hits != 1 {
		t.Errorf("after two links at one digest: %+v; want 1 miss, 1 hit", s)
	}

	copyFile(t, two, in) // the file changes, and so does its digest
	if !bytes.Equal(link(3, "d2"), wantTwo) {
		t.Error("after a digest change the link did not see the new contents")
	}
	if s := stats(); s.Invalidations != 1 || s.Misses != 2 {
		t.Errorf("after a digest change: %+v; want 1 invalidation, 2 misses", s)
	}

	// The digest is trusted: a file changed behind Bazel's back under the
	// same digest is not read again...
	copyFile(t, one, in)
	if !bytes.Equal(link(4, "d2"), wantTwo) {
		t.Error("same digest: the cached contents were not used")
	}
	// ...but with no digest it is read every time.
	if !bytes.Equal(link(5, ""), wantOne) {
		t.Error("no digest: the file was not read again")
	}
	copyFile(t, two, in)
	if !bytes.Equal(link(6, ""), wantTwo) {
		t.Error("no digest: the file was not read again")
	}
	if s := stats(); s.Uncached != 2 {
		t.Errorf("%+v; want 2 uncached loads", s)
	}
}

// TestCachePathSpelling: Bazel's input paths and the link's arguments may
// spell a file differently (relative, absolute, with ./); the digest is
// found all the same.
func TestCachePathSpelling(t *testing.T) {
	c := loadCase(t, "two-file-cross-calls")
	wd, _ := os.Getwd()
	var rel []string
	for _, p := range c.AbsInputs() {
		r, err := filepath.Rel(wd, p)
		if err != nil {
			t.Fatal(err)
		}
		rel = append(rel, "./"+r)
	}
	l := &Linker{Cache: objcache.New(64 << 20)}
	out := filepath.Join(t.TempDir(), "out.cubin")
	for range 2 {
		handle(t, l, c.Args(rel, out), digestInputs(t, c.AbsInputs()))
	}
	if s := l.Cache.Stats(); s.Hits != 2 || s.Misses != 2 || s.Uncached != 0 {
		t.Errorf("stats %+v; want 2 misses then 2 hits", s)
	}
}

// TestCacheEviction: with a bound smaller than the program, links still
// give the CLI's output, entries are evicted, and the cache stays under
// its bound.
func TestCacheEviction(t *testing.T) {
	c := loadCase(t, "many-files-24")
	const bound = 40 << 10 // a few of the 24 files
	l := &Linker{Cache: objcache.New(bound)}
	dir := t.TempDir()
	cliOut := filepath.Join(dir, "cli.cubin")
	_, _, want := cliLink(c.Args(c.AbsInputs(), cliOut), cliOut)
	ins := digestInputs(t, c.AbsInputs())
	for i := range 3 {
		out := filepath.Join(dir, fmt.Sprintf("w%d.cubin", i))
		handle(t, l, c.Args(c.AbsInputs(), out), ins)
		if got, _ := os.ReadFile(out); !bytes.Equal(got, want) {
			t.Errorf("link %d differs from the CLI's", i)
		}
		if s := l.Cache.Stats(); s.Bytes > bound {
			t.Errorf("the cache holds %d bytes, over its bound of %d", s.Bytes, bound)
		}
	}
	if s := l.Cache.Stats(); s.Evictions == 0 || s.Entries == 0 {
		t.Errorf("stats %+v; want evictions and some entries", s)
	}
}

// TestThinArchiveMembersFollowed: a thin archive's members are files of
// their own, which Bazel's digest of the archive does not cover, so a
// relink reads them again: after the member files change under unchanged
// archives, the worker's output follows them as the CLI's does. The cache
// keeps a mark for each thin archive (one entry, a hit on the relink), not
// its parse.
func TestThinArchiveMembersFollowed(t *testing.T) {
	c := loadCase(t, "thin-archives-sm75")
	dir := t.TempDir()
	for _, name := range []string{"k.o", "a.o", "b.o", "libt.a", "libu.a"} {
		copyFile(t, filepath.Join(c.Dir, name), filepath.Join(dir, name))
	}
	t.Chdir(dir) // members are named relative to the working directory
	args := func(out string) []string { return []string{"-arch=sm_75", "k.o", "libt.a", "libu.a", "-o", out} }
	ins := digestInputs(t, []string{"k.o", "libt.a", "libu.a"})
	l := &Linker{Cache: objcache.New(64 << 20)}
	link := func(i int) []byte {
		t.Helper()
		out := fmt.Sprintf("w%d.cubin", i)
		handle(t, l, args(out), ins)
		got, _ := os.ReadFile(out)
		cliOut := fmt.Sprintf("cli%d.cubin", i)
		if _, msgs, want := cliLink(args(cliOut), cliOut); want == nil || !bytes.Equal(got, want) {
			t.Fatalf("link %d differs from the CLI's (%s)", i, msgs)
		}
		return got
	}
	first := link(1)
	// The members swap contents: each archive now gives the other's code.
	a, b := filepath.Join(dir, "a.o"), filepath.Join(dir, "b.o")
	copyFile(t, filepath.Join(c.Dir, "b.o"), a)
	copyFile(t, filepath.Join(c.Dir, "a.o"), b)
	if bytes.Equal(link(2), first) {
		t.Error("the relink did not see the thin archives' members change")
	}
	if s := l.Cache.Stats(); s.Misses != 3 || s.Hits != 3 || s.Entries != 3 {
		t.Errorf("stats %+v; want 3 entries, missed once and hit once each", s)
	}
}

// TestCancelledLink: a request cancelled before its link loads its inputs
// stops without writing the output.
func TestCancelledLink(t *testing.T) {
	c := loadCase(t, "two-file-cross-calls")
	out := filepath.Join(t.TempDir(), "out.cubin")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, l := range []*Linker{{}, {Cache: objcache.New(1 << 20)}} {
		var buf bytes.Buffer
		code := l.Handle(ctx, &worker.Request{Arguments: c.Args(c.AbsInputs(), out)}, &buf)
		if code == 0 {
			t.Errorf("a cancelled link succeeded")
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("a cancelled link wrote its output")
		}
	}
}

// TestStartupArgs: the worker's other startup arguments come before each
// request's, as they come before the @flagfile's contents on a command
// line.
func TestStartupArgs(t *testing.T) {
	f, err := ParseFlags([]string{"--worker_protocol=json", "-arch=sm_80", "--persistent_worker", "--worker_cache_mb", "7", "--worker_verbose", "-w", "--worker_max_parallel=3"})
	if err != nil {
		t.Fatal(err)
	}
	if f.Protocol != "json" || f.CacheMB != 7 || !f.Verbose || f.MaxParallel != 3 || !slices.Equal(f.LinkArgs, []string{"-arch=sm_80", "-w"}) {
		t.Errorf("flags %+v", f)
	}
	c := loadCase(t, "two-file-cross-calls")
	out := filepath.Join(t.TempDir(), "out.cubin")
	var buf bytes.Buffer
	l := &Linker{Args: f.LinkArgs}
	req := &worker.Request{Arguments: append(c.AbsInputs(), "-o", out)}
	if code := l.Handle(context.Background(), req, &buf); code != 0 || buf.Len() != 0 {
		t.Errorf("exit %d, output %q", code, buf.String())
	}
	for _, bad := range [][]string{{"--worker_protocol=xml"}, {"--worker_cache_mb=-1"}, {"--worker_bogus=1"}, {"--worker_protocol"}, {"--worker_verbose=1"}} {
		if _, err := ParseFlags(bad); err == nil {
			t.Errorf("ParseFlags(%q) accepted", bad)
		}
	}
}

// TestSandboxDirRefused: a request for multiplex sandboxing is refused
// rather than linked from the wrong directory.
func TestSandboxDirRefused(t *testing.T) {
	var buf bytes.Buffer
	code := (&Linker{}).Handle(context.Background(), &worker.Request{SandboxDir: "sandbox/1", Arguments: []string{"--version"}}, &buf)
	if code == 0 || !strings.Contains(buf.String(), "sandbox") {
		t.Errorf("exit %d, output %q", code, buf.String())
	}
}

// TestProcess runs Main in a process of its own, as Bazel does, in both
// protocols: links, a failing link, --version (which prints to the
// response, not to stdout), then the end of input. Stdout holds nothing
// but responses, and the worker exits 0.
func TestProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	c := loadCase(t, "two-file-cross-calls")
	bad := loadCase(t, "error-undefined-device-function")
	for _, protocol := range []string{worker.Proto, worker.JSON} {
		t.Run(protocol, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			out := filepath.Join(dir, "out.cubin")
			var in []byte
			for _, r := range []fakebazel.Request{
				{Args: append(c.AbsInputs(), "-o", out), Inputs: digestInputs(t, c.AbsInputs())},
				{Args: append(c.AbsInputs(), "-o", out), Inputs: digestInputs(t, c.AbsInputs())},
				{Args: append(bad.AbsInputs(), "-o", filepath.Join(dir, "bad.cubin"))},
				{Args: []string{"--version"}},
			} {
				in = append(in, fakebazel.Encode(protocol, r)...)
			}
			cmd := exec.Command(os.Args[0], "-arch=sm_80", "--worker_protocol="+protocol, "--persistent_worker", "--worker_verbose")
			cmd.Env = []string{childEnv + "=1", "TMPDIR=" + dir}
			cmd.Stdin = bytes.NewReader(in)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := runWithTimeout(cmd); err != nil {
				t.Fatalf("%v; stderr:\n%s", err, stderr.Bytes())
			}
			rs, err := fakebazel.ReadAll(protocol, stdout.Bytes())
			if err != nil {
				t.Fatalf("stdout: %v", err)
			}
			if len(rs) != 4 || rs[0] != (fakebazel.Response{}) || rs[1] != (fakebazel.Response{}) ||
				rs[2].ExitCode == 0 || !strings.Contains(rs[2].Output, "cudalink: error: ") ||
				rs[3].ExitCode != 0 || !strings.HasPrefix(rs[3].Output, "cudalink: CUDA device linker") {
				t.Errorf("responses %v", rs)
			}
			want := loadOutput(t, c, dir)
			if got, _ := os.ReadFile(out); !bytes.Equal(got, want) {
				t.Error("the worker's output differs from the CLI's")
			}
			log := stderr.String()
			for _, s := range []string{"cudalink worker: pid ", "request 0: exit 0", "inputs: 2 cached, 0 read"} {
				if !strings.Contains(log, s) {
					t.Errorf("the worker log lacks %q:\n%s", s, log)
				}
			}
		})
	}
	t.Run("bad-stream", func(t *testing.T) {
		t.Parallel()
		cmd := exec.Command(os.Args[0], "--persistent_worker")
		cmd.Env = []string{childEnv + "=1"}
		cmd.Stdin = bytes.NewReader([]byte{5, 1, 2})
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := runWithTimeout(cmd)
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(stderr.String(), "bad request stream") {
			t.Errorf("truncated request: %v; stderr:\n%s", err, stderr.Bytes())
		}
	})
	t.Run("bad-flag", func(t *testing.T) {
		t.Parallel()
		cmd := exec.Command(os.Args[0], "--persistent_worker", "--worker_protocol=xml")
		cmd.Env = []string{childEnv + "=1"}
		if err := runWithTimeout(cmd); err == nil || cmd.ProcessState.ExitCode() != 2 {
			t.Errorf("bad startup flag: %v", err)
		}
	})
}

// loadOutput is the CLI's output for a case.
func loadOutput(t *testing.T, c *difftest.Case, dir string) []byte {
	out := filepath.Join(dir, "cli.cubin")
	code, text, data := cliLink(c.Args(c.AbsInputs(), out), out)
	if code != 0 {
		t.Fatalf("CLI: exit %d: %s", code, text)
	}
	return data
}

func runWithTimeout(cmd *exec.Cmd) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(timeout):
		cmd.Process.Kill()
		return fmt.Errorf("the worker did not exit within %v", timeout)
	}
}

// TestPTXCompiledOnce: a relink of PTX-only inputs through the worker
// takes ptxas's results from the cache (no new entry, two more hits for
// the two compiles) and gives the command line's bytes.
func TestPTXCompiledOnce(t *testing.T) {
	if _, err := exec.LookPath("ptxas"); err != nil {
		t.Skip("SKIP: ptxas (CUDA toolkit) not on PATH")
	}
	c := loadCase(t, "ptx-only-host-objects")
	dir := t.TempDir()
	l := &Linker{Cache: objcache.New(64 << 20)}
	cl := serve(t, worker.Proto, l)
	defer cl.close()
	want := filepath.Join(dir, "cli.cubin")
	if code, msgs, _ := cliLink(c.Args(c.AbsInputs(), want), want); code != 0 {
		t.Fatalf("command line: exit %d\n%s", code, msgs)
	}
	wantBytes, _ := os.ReadFile(want)
	for id := int32(1); id <= 2; id++ {
		out := filepath.Join(dir, fmt.Sprintf("out-%d.cubin", id))
		r := cl.do(fakebazel.Request{ID: id, Args: c.Args(c.AbsInputs(), out), Inputs: digestInputs(t, c.AbsInputs())})[id]
		if r.ExitCode != 0 {
			t.Fatalf("link %d: %v", id, r)
		}
		if got, _ := os.ReadFile(out); !bytes.Equal(got, wantBytes) {
			t.Errorf("link %d differs from the command line's output", id)
		}
	}
	// Two inputs and two compiles: four entries, each used twice.
	if s := l.Cache.Stats(); s.Entries != 4 || s.Misses != 4 || s.Hits != 4 {
		t.Errorf("stats %+v; want 4 entries, 4 misses, 4 hits", s)
	}
}

// TestCacheHeldMemory: what a warm worker holds between requests is its
// cache, and the heap the cache really holds (measured: the live heap with
// the cache, less the live heap once it is dropped) is within what the
// cache counts (objcache.Size), so --worker_cache_mb bounds it; with a
// bound smaller than the program, within the bound.
func TestCacheHeldMemory(t *testing.T) {
	c := loadCase(t, "many-files-24")
	dir := t.TempDir()
	ins := digestInputs(t, c.AbsInputs())
	live := func() int64 {
		var ms runtime.MemStats
		runtime.GC()
		runtime.GC() // the second collection frees what the first one's finalizers released
		runtime.ReadMemStats(&ms)
		return int64(ms.HeapAlloc)
	}
	for _, bound := range []int64{64 << 20, 60 << 10} {
		l := &Linker{Cache: objcache.New(bound)}
		for i := range 3 {
			out := filepath.Join(dir, fmt.Sprintf("w%d.cubin", i))
			handle(t, l, c.Args(c.AbsInputs(), out), ins)
		}
		withCache := live()
		s := l.Cache.Stats()
		l.Cache = nil
		held := withCache - live()
		t.Logf("bound %d: the cache counts %d bytes in %d entries, holds %d", bound, s.Bytes, s.Entries, held)
		if s.Entries == 0 {
			t.Errorf("bound %d: nothing cached", bound)
		}
		if held > s.Bytes || held > bound {
			t.Errorf("bound %d: the cache holds %d bytes of heap, more than it counts (%d) or its bound", bound, held, s.Bytes)
		}
		runtime.KeepAlive(l)
	}
}

// TestIdleRelease: the worker hands freed memory back only once no link
// has run for IdleRelease, and a link that begins before then cancels it.
func TestIdleRelease(t *testing.T) {
	const delay = 20 * time.Millisecond
	l := &Linker{IdleRelease: delay}
	releases := func() int {
		l.idleMu.Lock()
		defer l.idleMu.Unlock()
		return l.releases
	}
	waitFor := func(want int) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); releases() < want && time.Now().Before(deadline); {
			time.Sleep(delay / 4)
		}
		time.Sleep(3 * delay) // and no more than that
		if got := releases(); got != want {
			t.Fatalf("%d releases, want %d", got, want)
		}
	}
	l.begin()
	l.begin()
	l.end()
	waitFor(0) // one link still runs
	l.end()
	waitFor(1)
	l.begin()
	l.end()
	l.begin() // before the release: it is cancelled
	time.Sleep(3 * delay)
	if got := releases(); got != 1 {
		t.Fatalf("a link running: %d releases, want 1", got)
	}
	l.end()
	waitFor(2)

	// Through a real link: its end arms the release. (What the release
	// gives back is measured in docs/benchmarks.md; here other tests run
	// in the same process, so the heap's free pages say nothing.)
	c := loadCase(t, "many-files-24")
	l.Cache = objcache.New(64 << 20)
	out := filepath.Join(t.TempDir(), "out.cubin")
	var buf bytes.Buffer
	if code := l.Handle(context.Background(), &worker.Request{Arguments: c.Args(c.AbsInputs(), out)}, &buf); code != 0 {
		t.Fatalf("exit %d: %s", code, buf.String())
	}
	waitFor(3)
}

// TestCollectBetween: once the last running link ends, the worker starts
// the collector if links that allocate as much again would reach its goal
// (collectBetween), and not while a link still runs, when the goal is far
// or when the links allocated less than CollectFrom.
func TestCollectBetween(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	c := loadCase(t, "many-files-24")
	l := &Linker{CollectFrom: 1, Cache: objcache.New(64 << 20)}
	out := filepath.Join(t.TempDir(), "out.cubin")
	link := func() {
		t.Helper()
		var buf bytes.Buffer
		if code := l.Handle(context.Background(), &worker.Request{Arguments: c.Args(c.AbsInputs(), out)}, &buf); code != 0 {
			t.Fatalf("exit %d: %s", code, buf.String())
		}
	}
	collections := func() int {
		l.idleMu.Lock()
		defer l.idleMu.Unlock()
		return l.collections
	}
	link() // fills the cache
	runtime.GC()
	debug.SetGCPercent(1 << 20) // a goal far past what a link allocates
	start := collections()
	link()
	if got := collections() - start; got != 0 {
		t.Fatalf("goal far: %d collections, want 0", got)
	}
	debug.SetGCPercent(100)
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(1)) // a goal at the live heap
	link()
	if got := collections() - start; got != 1 {
		t.Fatalf("goal near: %d collections, want 1", got)
	}
	l.begin() // a link still runs when this one ends
	link()
	if got := collections() - start; got != 1 {
		t.Fatalf("a link running: %d collections, want 1", got)
	}
	l.end()
	if got := collections() - start; got != 2 {
		t.Fatalf("the last link ended: %d collections, want 2", got)
	}
	l.CollectFrom = 1 << 40 // more than a link allocates
	link()
	if got := collections() - start; got != 2 {
		t.Fatalf("a link allocating less than CollectFrom: %d collections, want 2", got)
	}
}
