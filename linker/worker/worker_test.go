package worker

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/cudalink/cudalink/linker/worker/internal/fakebazel"
)

// childEnv makes the test binary a worker process (see TestMain), for the
// tests that need a process of their own: file descriptors and exit codes.
const childEnv = "CUDALINK_WORKER_TEST_CHILD"

func TestMain(m *testing.M) {
	if protocol := os.Getenv(childEnv); protocol != "" {
		os.Exit(childMain(protocol))
	}
	os.Exit(m.Run())
}

// childMain is a worker process as cudalink's is, serving testHandler.
func childMain(protocol string) int {
	out, err := IsolateStdout()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	srv := &Server{Handler: newTestHandler().handle, Protocol: protocol, Log: os.Stderr}
	if err := srv.Serve(os.Stdin, out); err != nil {
		fmt.Fprintf(os.Stderr, "worker: %v\n", err)
		return 1
	}
	return 0
}

var protocols = []string{Proto, JSON}

// TestSingleplex: requests without an id, one after another, each answered
// in turn with id 0, its output and its exit code; nothing more in the
// output than what the handler wrote.
func TestSingleplex(t *testing.T) {
	for _, p := range protocols {
		t.Run(p, func(t *testing.T) {
			h := start(t, p, &Server{Handler: newTestHandler().handle})
			for i := range 20 {
				h.send(req{Args: []string{fmt.Sprintf("echo:n%d", i), fmt.Sprintf("exit:%d", i%3)}})
				want := resp{Output: fmt.Sprintf("n%d", i), ExitCode: int32(i % 3)}
				if got := h.recv(); got != want {
					t.Fatalf("response %d = %v; want %v", i, got, want)
				}
			}
			h.send(req{Args: []string{"exit:0"}})
			if got := h.recv(); got != (resp{}) {
				t.Errorf("success answered %v; want exit 0 and empty output", got)
			}
			h.finish()
		})
	}
}

// TestProtoByteAtATime: a request that arrives a byte at a time is read
// whole.
func TestProtoByteAtATime(t *testing.T) {
	h := start(t, Proto, &Server{Handler: newTestHandler().handle})
	for _, b := range fakebazel.Proto(req{ID: 7, Args: []string{"echo:slow"}}) {
		h.write([]byte{b})
	}
	if got, want := h.recv(), (resp{ID: 7, Output: "slow"}); got != want {
		t.Errorf("got %v; want %v", got, want)
	}
	h.finish()
}

// TestProtoUnknownFields: fields this worker does not know (of every wire
// type), verbosity and sandbox_dir are read past.
func TestProtoUnknownFields(t *testing.T) {
	h := start(t, Proto, &Server{Handler: newTestHandler().handle})
	frame := fakebazel.Proto(req{ID: 3, Args: []string{"echo:a"}})
	n, k := protowire.ConsumeVarint(frame)
	body := frame[k : k+int(n)]
	body = protowire.AppendTag(body, 5, protowire.VarintType)
	body = protowire.AppendVarint(body, 10)
	body = protowire.AppendTag(body, 6, protowire.BytesType)
	body = protowire.AppendString(body, "")
	body = protowire.AppendTag(body, 99, protowire.VarintType)
	body = protowire.AppendVarint(body, 1<<40)
	body = protowire.AppendTag(body, 100, protowire.Fixed64Type)
	body = protowire.AppendFixed64(body, 1)
	body = protowire.AppendTag(body, 101, protowire.BytesType)
	body = protowire.AppendString(body, "future")
	body = protowire.AppendTag(body, 102, protowire.Fixed32Type)
	body = protowire.AppendFixed32(body, 1)
	body = protowire.AppendTag(body, 1, protowire.BytesType) // and a field after them
	body = protowire.AppendString(body, "echo:b")
	h.write(append(protowire.AppendVarint(nil, uint64(len(body))), body...))
	if got, want := h.recv(), (resp{ID: 3, Output: "ab"}); got != want {
		t.Errorf("got %v; want %v", got, want)
	}
	h.finish()
}

// TestJSONSeparators: JSON requests back to back in one write (Bazel 4),
// one per line (Bazel 5) and one per CRLF line (Bazel 5 on Windows).
func TestJSONSeparators(t *testing.T) {
	for name, sep := range map[string]string{"back-to-back": "", "newline": "\n", "crlf": "\r\n"} {
		t.Run(name, func(t *testing.T) {
			h := start(t, JSON, &Server{Handler: newTestHandler().handle})
			var all []byte
			for i := range 3 {
				all = append(all, fakebazel.JSON(req{Args: []string{fmt.Sprintf("echo:%d", i)}})+sep...)
			}
			h.write(all)
			for i := range 3 {
				if got, want := h.recv(), (resp{Output: fmt.Sprint(i)}); got != want {
					t.Errorf("response %d = %v; want %v", i, got, want)
				}
			}
			h.finish()
		})
	}
}

// TestJSONFields: escapes, missing fields, every field present at its
// default (as protojson's EmitUnpopulated writes), unknown fields, snake
// case names, an id given as a string, digests that are not base64 or are
// empty, and a request of more than 64 KiB.
func TestJSONFields(t *testing.T) {
	h := start(t, JSON, &Server{Handler: newTestHandler().handle})
	h.write([]byte(`{"arguments":["echo:--out\u003dfoo"]}`))
	if got, want := h.recv(), (resp{Output: "--out=foo"}); got != want {
		t.Errorf("escapes: got %v; want %v", got, want)
	}
	h.write([]byte(`{}`))
	if got := h.recv(); got != (resp{}) {
		t.Errorf("empty request: got %v", got)
	}
	h.write([]byte(`{"arguments":["id"],"inputs":[],"requestId":0,"cancel":false,"verbosity":0,"sandboxDir":"","foo":{"x":[1]}}`))
	if got, want := h.recv(), (resp{Output: "0"}); got != want {
		t.Errorf("defaults: got %v; want %v", got, want)
	}
	h.write([]byte(`{"arguments":["id"],"request_id":4}{"arguments":["id"],"requestId":"5"}`))
	if got := h.recvN(2); got[4].Output != "4" || got[5].Output != "5" {
		t.Errorf("request_id, string id: got %v", got)
	}
	digest := base64.StdEncoding.EncodeToString([]byte("e3b0c442"))
	h.write([]byte(`{"arguments":["inputs"],"inputs":[{"path":"a","digest":"` + digest + `"},{"path":"b","digest":"not base64!"},{"path":"c","digest":""},{"path":"d"}]}`))
	if got, want := h.recv(), (resp{Output: "a=" + digest + ";b=not base64!;c=;d=;"}); got != want {
		t.Errorf("digests: got %v; want %v", got, want)
	}
	long := strings.Repeat("x", 100<<10)
	h.send(req{Args: []string{"echo:" + long}})
	if got := h.recv(); got.Output != long {
		t.Errorf("long request: got %d bytes of output", len(got.Output))
	}
	h.finish()
}

// TestInputs: inputs reach the handler, digests as opaque text.
func TestInputs(t *testing.T) {
	h := start(t, Proto, &Server{Handler: newTestHandler().handle})
	h.send(req{Args: []string{"inputs"}, Inputs: []fakebazel.Input{{Path: "a.cubin", Digest: "abc123"}, {Path: "b.cubin"}, {Path: "/abs/c", Digest: "\x00\xff"}}})
	// The digest is bytes in proto; the handler prints it as it came, and
	// the output is made valid UTF-8.
	if got, want := h.recv(), (resp{Output: "a.cubin=abc123;b.cubin=;/abs/c=\x00\uFFFD;"}); got != want {
		t.Errorf("got %v; want %v", got, want)
	}
	h.finish()
}

// TestMultiplexOutOfOrder: requests sent together finish in another order;
// each is answered once, with its own id and output.
func TestMultiplexOutOfOrder(t *testing.T) {
	for _, p := range protocols {
		t.Run(p, func(t *testing.T) {
			h := start(t, p, &Server{Handler: newTestHandler().handle, MaxParallel: 8})
			var all []byte
			for id := int32(1); id <= 8; id++ {
				// Later requests are quicker: they finish first.
				all = append(all, h.encode(req{ID: id, Args: []string{fmt.Sprintf("sleep:%dms", (9-id)*30), "id"}})...)
			}
			h.write(all) // back to back, in one write
			var order []int32
			seen := map[int32]bool{}
			for range 8 {
				r := h.recv()
				if seen[r.ID] {
					t.Fatalf("two responses for %d", r.ID)
				}
				seen[r.ID] = true
				if r.Output != fmt.Sprint(r.ID) || r.ExitCode != 0 {
					t.Errorf("request %d answered %v", r.ID, r)
				}
				order = append(order, r.ID)
			}
			if slices.IsSorted(order) {
				t.Errorf("responses came in the order sent (%v): the requests did not run at once", order)
			}
			h.finish()
		})
	}
}

// TestMultiplexConcurrent: four requests that each wait for all four to
// have started all finish, so they ran at the same time.
func TestMultiplexConcurrent(t *testing.T) {
	th := newTestHandler()
	th.barrierN = 4
	h := start(t, Proto, &Server{Handler: th.handle, MaxParallel: 4})
	for id := int32(1); id <= 4; id++ {
		h.send(req{ID: id, Args: []string{"barrier", "id"}})
	}
	for id, r := range h.recvN(4) {
		if r.ExitCode != 0 || r.Output != fmt.Sprint(id) {
			t.Errorf("request %d answered %v", id, r)
		}
	}
	h.finish()
}

// TestIDReuse: Bazel starts ids again at 1 for every build.
func TestIDReuse(t *testing.T) {
	h := start(t, Proto, &Server{Handler: newTestHandler().handle})
	for build := range 2 {
		for id := int32(1); id <= 3; id++ {
			h.send(req{ID: id, Args: []string{fmt.Sprintf("echo:%d/%d", build, id)}})
		}
		for id, r := range h.recvN(3) {
			if want := fmt.Sprintf("%d/%d", build, id); r.Output != want {
				t.Errorf("build %d request %d answered %q; want %q", build, id, r.Output, want)
			}
		}
	}
	h.finish()
}

// TestStress: many requests in flight at once; each is answered exactly
// once and the frames never interleave (the reader would fail).
func TestStress(t *testing.T) {
	for _, p := range protocols {
		t.Run(p, func(t *testing.T) {
			h := start(t, p, &Server{Handler: newTestHandler().handle, MaxParallel: 16})
			const n = 200
			go func() {
				for id := int32(1); id <= n; id++ {
					h.in.Write(h.encode(req{ID: id, Args: []string{fmt.Sprintf("sleep:%dus", id%7*100), "echo:" + strings.Repeat("x", int(id)*50)}}))
				}
			}()
			for id, r := range h.recvN(n) {
				if len(r.Output) != int(id)*50 {
					t.Errorf("request %d: %d bytes of output; want %d", id, len(r.Output), id*50)
				}
			}
			h.finish()
		})
	}
}

// TestCancelBeforeStart: a request waiting for a free slot is answered
// was_cancelled without running.
func TestCancelBeforeStart(t *testing.T) {
	th := newTestHandler()
	h := start(t, Proto, &Server{Handler: th.handle, MaxParallel: 1})
	h.send(req{ID: 1, Args: []string{"wait"}})
	<-th.started
	h.send(req{ID: 2, Args: []string{"echo:ran"}}, req{ID: 2, Cancel: true})
	if got, want := h.recv(), (resp{ID: 2, Cancelled: true}); got != want {
		t.Errorf("got %v; want %v", got, want)
	}
	if n := th.ran.Load(); n != 1 {
		t.Errorf("%d requests ran; want 1 (the cancelled one must not run)", n)
	}
	h.send(req{ID: 1, Cancel: true})
	if got, want := h.recv(), (resp{ID: 1, Cancelled: true}); got != want {
		t.Errorf("got %v; want %v", got, want)
	}
	h.finish()
}

// TestCancelDuring: a running request is told to stop; its one response
// says was_cancelled, with no output and exit code 0, whatever the handler
// returned. In singleplex (id 0) too.
func TestCancelDuring(t *testing.T) {
	for _, p := range protocols {
		for _, id := range []int32{0, 5} {
			t.Run(fmt.Sprintf("%s/id%d", p, id), func(t *testing.T) {
				th := newTestHandler()
				h := start(t, p, &Server{Handler: th.handle})
				h.send(req{ID: id, Args: []string{"echo:partial", "wait"}})
				<-th.started
				h.send(req{ID: id, Cancel: true})
				if got, want := h.recv(), (resp{ID: id, Cancelled: true}); got != want {
					t.Errorf("got %v; want %v", got, want)
				}
				h.noResponse(50 * time.Millisecond)
				h.finish()
			})
		}
	}
}

// TestCancelAfter: a cancel for a request already answered, or for an id
// never seen, gets no response and changes nothing.
func TestCancelAfter(t *testing.T) {
	h := start(t, Proto, &Server{Handler: newTestHandler().handle})
	h.send(req{ID: 1, Args: []string{"echo:done"}})
	if got, want := h.recv(), (resp{ID: 1, Output: "done"}); got != want {
		t.Errorf("got %v; want %v", got, want)
	}
	h.send(req{ID: 1, Cancel: true}, req{ID: 42, Cancel: true})
	h.noResponse(50 * time.Millisecond)
	h.send(req{ID: 1, Args: []string{"echo:again"}})
	if got, want := h.recv(), (resp{ID: 1, Output: "again"}); got != want {
		t.Errorf("got %v; want %v", got, want)
	}
	h.finish()
}

// TestCancelRace: a cancel sent right behind its request, many times over:
// every request gets exactly one response, cancelled or not.
func TestCancelRace(t *testing.T) {
	h := start(t, Proto, &Server{Handler: newTestHandler().handle, MaxParallel: 4})
	const n = 300
	go func() {
		for id := int32(1); id <= n; id++ {
			h.in.Write(append(fakebazel.Proto(req{ID: id, Args: []string{"sleep:100us", "echo:x"}}), fakebazel.Proto(req{ID: id, Cancel: true})...))
		}
	}()
	cancelled := 0
	for id, r := range h.recvN(n) {
		switch {
		case r.Cancelled:
			cancelled++
			if r.Output != "" || r.ExitCode != 0 {
				t.Errorf("cancelled request %d answered %v", id, r)
			}
		case r.Output != "x":
			t.Errorf("request %d answered %v", id, r)
		}
	}
	t.Logf("%d of %d cancelled in time", cancelled, n)
	h.finish()
}

// TestWasCancelledOnlyAfterCancel: requests that stop because the worker
// stops are not reported as cancelled; was_cancelled is never sent for a
// request whose cancel was not received (Bazel fails the build then).
func TestWasCancelledOnlyAfterCancel(t *testing.T) {
	h := start(t, Proto, &Server{Handler: newTestHandler().handle})
	h.send(req{ID: 1, Args: []string{"sleep:10ms", "exit:2"}}, req{ID: 2, Args: []string{"exit:0"}})
	for id, r := range h.recvN(2) {
		if r.Cancelled {
			t.Errorf("request %d answered was_cancelled without a cancel", id)
		}
	}
	h.finish()
}

// TestFailureThenSuccess: a failing request is answered with its exit code
// and messages; the next request is unaffected.
func TestFailureThenSuccess(t *testing.T) {
	h := start(t, Proto, &Server{Handler: newTestHandler().handle})
	h.send(req{Args: []string{"echo:error: it broke\n", "exit:1"}}, req{Args: []string{"exit:0"}})
	if got, want := h.recv(), (resp{ExitCode: 1, Output: "error: it broke\n"}); got != want {
		t.Errorf("got %v; want %v", got, want)
	}
	if got := h.recv(); got != (resp{}) {
		t.Errorf("got %v after a failure; want success", got)
	}
	h.finish()
}

// TestPanic: a panic in one request becomes that request's error response,
// exit code 3 (an internal error, as linker/cli answers a panic of the
// link), output so far kept; the others, and the worker, go on.
func TestPanic(t *testing.T) {
	h := start(t, Proto, &Server{Handler: newTestHandler().handle})
	h.send(req{ID: 1, Args: []string{"echo:before\n", "panic:boom"}}, req{ID: 2, Args: []string{"echo:fine"}})
	got := h.recvN(2)
	if r := got[1]; r.ExitCode != 3 || !strings.HasPrefix(r.Output, "before\ninternal error: panic while serving the request: boom\n") || !strings.Contains(r.Output, "goroutine") {
		t.Errorf("panicking request answered %v", r)
	}
	if r := got[2]; r != (resp{ID: 2, Output: "fine"}) {
		t.Errorf("other request answered %v", r)
	}
	h.finish()
}

// TestOutputUTF8: output that is not UTF-8 is made so (Bazel kills a proto
// worker otherwise).
func TestOutputUTF8(t *testing.T) {
	for _, p := range protocols {
		t.Run(p, func(t *testing.T) {
			h := start(t, p, &Server{Handler: newTestHandler().handle})
			h.send(req{Args: []string{"bytes:61ff62c3", "exit:1"}})
			if got, want := h.recv(), (resp{ExitCode: 1, Output: "a\uFFFDb\uFFFD"}); got != want {
				t.Errorf("got %v; want %v", got, want)
			}
			h.finish()
		})
	}
}

// TestOutputCut: output over MaxOutput is cut at a character boundary,
// with a note.
func TestOutputCut(t *testing.T) {
	h := start(t, Proto, &Server{Handler: newTestHandler().handle, MaxOutput: 10})
	h.send(req{Args: []string{"echo:123456789é0123"}}) // é straddles byte 10
	if got, want := h.recv(), (resp{Output: "123456789\n[output cut: 6 more bytes]\n"}); got != want {
		t.Errorf("got %v; want %v", got, want)
	}
	h.finish()
}

// TestEndOfInput: the end of input while idle ends Serve at once; with
// requests in flight, they are answered first.
func TestEndOfInput(t *testing.T) {
	h := start(t, Proto, &Server{Handler: newTestHandler().handle})
	h.finish()

	h = start(t, JSON, &Server{Handler: newTestHandler().handle})
	h.send(req{ID: 1, Args: []string{"sleep:50ms", "echo:a"}}, req{ID: 2, Args: []string{"sleep:20ms", "echo:b"}})
	h.in.Close()
	got := h.recvN(2)
	if got[1].Output != "a" || got[2].Output != "b" {
		t.Errorf("in-flight requests answered %v", got)
	}
	h.finish()
}

// TestMalformed: a request that cannot be read or decoded ends Serve with
// a protocol error and no response, since its id is unknown; responses to
// earlier requests have gone out whole.
func TestMalformed(t *testing.T) {
	tests := []struct {
		name, protocol string
		raw            []byte
	}{
		{"truncated frame", Proto, fakebazel.Proto(req{Args: []string{"echo:x"}})[:5]},
		{"truncated length", Proto, []byte{0x80}},
		{"garbage body", Proto, []byte{3, 0xff, 0xff, 0xff}},
		{"wrong wire type", Proto, []byte{2, 0x0b, 0x00}}, // field 1 as a group start
		{"invalid utf-8 argument", Proto, []byte{3, 0x0a, 1, 0xff}},
		{"huge length", Proto, protowire.AppendVarint(nil, 1<<40)},
		{"json syntax", JSON, []byte(`{"arguments":["a"]]}`)},
		{"json truncated", JSON, []byte(`{"arguments":["a"`)},
		{"json not an object", JSON, []byte(`["a"]`)},
		{"json wrong type", JSON, []byte(`{"arguments":"a"}`)},
		{"json bad id", JSON, []byte(`{"requestId":1.5}`)},
		{"json null", JSON, []byte(`null `)},
		{"stray text", JSON, []byte(`hello`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := start(t, tt.protocol, &Server{Handler: newTestHandler().handle})
			h.send(req{ID: 1, Args: []string{"echo:ok"}})
			if got := h.recv(); got.Output != "ok" {
				t.Fatalf("got %v", got)
			}
			raw := tt.raw
			if strings.HasPrefix(tt.name, "truncated") || strings.HasPrefix(tt.name, "json truncated") {
				h.write(raw)
				h.in.Close() // then the end of input
				raw = nil
			}
			t.Log(h.fail(raw))
		})
	}
}

// TestMalformedWhileBusy: after a bad request, the requests in flight
// are answered if they finish within the drain timeout; one that does not
// is cancelled and left unanswered, and Serve returns. The timeout is far
// above request 2's 20 ms so that a busy machine cannot make it miss
// (request 1 never finishes: the test takes the whole timeout).
func TestMalformedWhileBusy(t *testing.T) {
	th := newTestHandler()
	h := start(t, Proto, &Server{Handler: th.handle, DrainTimeout: 2 * time.Second})
	h.send(req{ID: 1, Args: []string{"wait"}}, req{ID: 2, Args: []string{"sleep:20ms", "echo:finished"}})
	<-th.started
	h.write([]byte{3, 0xff, 0xff, 0xff})
	if got, want := h.recv(), (resp{ID: 2, Output: "finished"}); got != want {
		t.Errorf("got %v; want %v", got, want)
	}
	h.fail(nil)
}

// TestUnknownProtocol: Serve refuses a protocol it does not know.
func TestUnknownProtocol(t *testing.T) {
	srv := &Server{Handler: newTestHandler().handle, Protocol: "xml"}
	if err := srv.Serve(strings.NewReader(""), &bytes.Buffer{}); err == nil {
		t.Error("Serve accepted protocol xml")
	}
}

// runChild runs the test binary as a worker process on the given input and
// returns its stdout, stderr and exit code.
func runChild(t *testing.T, protocol string, input []byte) (stdout, stderr []byte, code int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = []string{childEnv + "=" + protocol, "PATH=" + os.Getenv("PATH"), "TMPDIR=" + t.TempDir()}
	cmd.Stdin = bytes.NewReader(input)
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(timeout):
		cmd.Process.Kill()
		t.Fatalf("the worker process did not exit within %v; stderr:\n%s", timeout, errs.Bytes())
	}
	return out.Bytes(), errs.Bytes(), cmd.ProcessState.ExitCode()
}

// parseAll decodes a whole response stream strictly.
func parseAll(t *testing.T, protocol string, stdout []byte) []resp {
	t.Helper()
	rs, err := fakebazel.ReadAll(protocol, stdout)
	if err != nil {
		t.Fatalf("stdout: %v: %q", err, stdout)
	}
	return rs
}

// TestProcessStdoutIsolated: whatever a request prints to stdout, through
// fmt, the file descriptor or a child process, lands on stderr; stdout
// holds the responses and nothing else.
func TestProcessStdoutIsolated(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	for _, p := range protocols {
		t.Run(p, func(t *testing.T) {
			t.Parallel()
			var in []byte
			for i := range 3 {
				in = append(in, encode(p, req{Args: []string{"stray", fmt.Sprintf("echo:%d", i)}})...)
			}
			stdout, stderr, code := runChild(t, p, in)
			if code != 0 {
				t.Fatalf("exit code %d; stderr:\n%s", code, stderr)
			}
			rs := parseAll(t, p, stdout)
			if len(rs) != 3 || rs[0].Output != "0" || rs[2].Output != "2" {
				t.Errorf("responses %v", rs)
			}
			for _, s := range []string{"stray println", "stray write", "stray child"} {
				if n := strings.Count(string(stderr), s); n != 3 {
					t.Errorf("stderr has %q %d times; want 3:\n%s", s, n, stderr)
				}
			}
		})
	}
}

// TestProcessExit: the worker process exits 0 at the end of input and
// non-zero, saying why on stderr, after a request it cannot read.
func TestProcessExit(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	stdout, stderr, code := runChild(t, Proto, nil)
	if code != 0 || len(stdout) != 0 {
		t.Errorf("idle worker at end of input: exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	in := append(fakebazel.Proto(req{Args: []string{"echo:ok"}}), 3, 0xff, 0xff, 0xff)
	stdout, stderr, code = runChild(t, Proto, in)
	if code == 0 || !strings.Contains(string(stderr), "bad request stream") {
		t.Errorf("bad frame: exit %d, stderr %s", code, stderr)
	}
	if rs := parseAll(t, Proto, stdout); len(rs) != 1 || rs[0].Output != "ok" {
		t.Errorf("responses before the bad frame: %v", rs)
	}
	stdout, stderr, code = runChild(t, JSON, []byte(`{"arguments":["echo:ok"]} {"arguments":`))
	if code == 0 || !strings.Contains(string(stderr), "bad request stream") {
		t.Errorf("truncated JSON: exit %d, stderr %s", code, stderr)
	}
	if rs := parseAll(t, JSON, stdout); len(rs) != 1 || rs[0].Output != "ok" {
		t.Errorf("responses before the bad frame: %v", rs)
	}
}
