package worker

// The harness drives a Server over pipes as Bazel would, with the encoder
// and decoder of package fakebazel, not the worker's own.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/cudalink/cudalink/linker/worker/internal/fakebazel"
)

// timeout bounds every wait of a test: a hang fails the test.
const timeout = 10 * time.Second

type (
	req  = fakebazel.Request
	resp = fakebazel.Response
)

// encode encodes a request in a protocol.
func encode(protocol string, r req) []byte { return fakebazel.Encode(protocol, r) }

// harness runs a Server in the test process over pipes.
type harness struct {
	t        *testing.T
	protocol string
	in       *io.PipeWriter
	resps    chan resp
	readErr  chan error // the response stream's end: nil for a clean EOF
	done     chan error // Serve's result
}

func start(t *testing.T, protocol string, srv *Server) *harness {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	h := &harness{t: t, protocol: protocol, in: inW,
		resps: make(chan resp, 1000), readErr: make(chan error, 1), done: make(chan error, 1)}
	srv.Protocol = protocol
	if srv.Log == nil {
		srv.Log = &testLog{t: t}
	}
	go func() {
		err := srv.Serve(inR, outW)
		outW.Close()
		inR.Close()
		h.done <- err
	}()
	go func() {
		next := fakebazel.NewReader(protocol, outR)
		for {
			r, err := next()
			if err != nil {
				if err == io.EOF {
					err = nil
				}
				h.readErr <- err
				close(h.resps)
				return
			}
			h.resps <- r
		}
	}()
	t.Cleanup(func() { inW.Close() })
	return h
}

// send writes requests, each in a write of its own.
func (h *harness) send(rs ...req) {
	h.t.Helper()
	for _, r := range rs {
		h.write(h.encode(r))
	}
}

func (h *harness) encode(r req) []byte { return encode(h.protocol, r) }

func (h *harness) write(b []byte) {
	h.t.Helper()
	done := make(chan error, 1)
	go func() { _, err := h.in.Write(b); done <- err }()
	select {
	case err := <-done:
		if err != nil {
			h.t.Fatalf("writing a request: %v", err)
		}
	case <-time.After(timeout):
		h.t.Fatalf("writing a request blocked for %v", timeout)
	}
}

// recv waits for the next response.
func (h *harness) recv() resp {
	h.t.Helper()
	select {
	case r, ok := <-h.resps:
		if !ok {
			h.t.Fatalf("the response stream ended (%v) while a response was expected", <-h.readErr)
		}
		return r
	case <-time.After(timeout):
		h.t.Fatalf("no response within %v", timeout)
	}
	panic("unreachable")
}

// recvN waits for n responses and returns them by id; an id seen twice
// fails the test.
func (h *harness) recvN(n int) map[int32]resp {
	h.t.Helper()
	got := map[int32]resp{}
	for range n {
		r := h.recv()
		if _, dup := got[r.ID]; dup {
			h.t.Fatalf("two responses for request %d", r.ID)
		}
		got[r.ID] = r
	}
	return got
}

// noResponse checks that no response arrives within d.
func (h *harness) noResponse(d time.Duration) {
	h.t.Helper()
	select {
	case r, ok := <-h.resps:
		if ok {
			h.t.Fatalf("unexpected response %v", r)
		}
	case <-time.After(d):
	}
}

// finish ends the input and checks that Serve returns without error, that
// the response stream ends on a frame boundary, and that no response is
// left unread.
func (h *harness) finish() {
	h.t.Helper()
	h.in.Close()
	select {
	case err := <-h.done:
		if err != nil {
			h.t.Fatalf("Serve: %v", err)
		}
	case <-time.After(timeout):
		h.t.Fatalf("Serve did not return within %v of the end of input", timeout)
	}
	for r := range h.resps {
		h.t.Errorf("unexpected response %v", r)
	}
	if err := <-h.readErr; err != nil {
		h.t.Fatalf("response stream: %v", err)
	}
}

// fail ends the test's input with raw bytes and checks that Serve returns
// a protocol error and the response stream is clean.
func (h *harness) fail(raw []byte) error {
	h.t.Helper()
	if raw != nil {
		go h.in.Write(raw)
	}
	var err error
	select {
	case err = <-h.done:
	case <-time.After(timeout):
		h.t.Fatalf("Serve did not return within %v of a bad request", timeout)
	}
	h.in.Close()
	if !errors.Is(err, ErrProtocol) {
		h.t.Fatalf("Serve returned %v; want a protocol error", err)
	}
	for r := range h.resps {
		h.t.Errorf("unexpected response %v", r)
	}
	if err := <-h.readErr; err != nil {
		h.t.Fatalf("response stream: %v", err)
	}
	return err
}

type testLog struct {
	t  *testing.T
	mu sync.Mutex
}

func (l *testLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.t.Logf("log: %s", strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}

// fd1 is file descriptor 1 itself, whatever it points at. (A package
// variable: an *os.File that is collected closes its descriptor.)
var fd1 = os.NewFile(1, "fd1")

// testHandler runs requests whose arguments are commands:
//
//	echo:TEXT    write TEXT to the output
//	exit:N       return N
//	sleep:DUR    sleep, or stop with exit 9 when cancelled
//	wait         report the start on started, then wait for cancellation (exit 9)
//	barrier      wait until barrierN requests have reached the barrier
//	panic:TEXT   panic
//	stray        print to stdout every way there is: fmt, fd 1, a child process
//	bytes:HEX    write raw bytes
//	inputs       write the inputs as path=digest;
//	id           write the request id
type testHandler struct {
	ran     atomic.Int32
	started chan int32

	mu       sync.Mutex
	barrierN int
	arrived  int
	release  chan struct{}
}

func newTestHandler() *testHandler {
	return &testHandler{started: make(chan int32, 1000), release: make(chan struct{})}
}

func (th *testHandler) handle(ctx context.Context, r *Request, out io.Writer) int {
	th.ran.Add(1)
	code := 0
	for _, a := range r.Arguments {
		cmd, val, _ := strings.Cut(a, ":")
		switch cmd {
		case "echo":
			io.WriteString(out, val)
		case "exit":
			code, _ = strconv.Atoi(val)
		case "sleep":
			d, _ := time.ParseDuration(val)
			select {
			case <-time.After(d):
			case <-ctx.Done():
				io.WriteString(out, "stopped")
				return 9
			}
		case "wait":
			th.started <- r.ID
			<-ctx.Done()
			io.WriteString(out, "stopped")
			return 9
		case "barrier":
			th.mu.Lock()
			th.arrived++
			if th.arrived == th.barrierN {
				close(th.release)
			}
			th.mu.Unlock()
			select {
			case <-th.release:
			case <-time.After(timeout):
				io.WriteString(out, "barrier timed out")
				return 8
			}
		case "panic":
			panic(val)
		case "stray":
			fmt.Println("stray println")
			syscall.Write(1, []byte("stray write\n"))
			// A child given file descriptor 1 as its stdout, as a child
			// started by C code would have it.
			c := exec.Command("sh", "-c", "echo stray child")
			c.Stdout = fd1
			c.Stderr = os.Stderr
			if err := c.Run(); err != nil {
				fmt.Fprintf(out, "child: %v", err)
			}
		case "bytes":
			var b []byte
			for i := 0; i+1 < len(val); i += 2 {
				v, _ := strconv.ParseUint(val[i:i+2], 16, 8)
				b = append(b, byte(v))
			}
			out.Write(b)
		case "inputs":
			for _, in := range r.Inputs {
				fmt.Fprintf(out, "%s=%s;", in.Path, in.Digest)
			}
		case "id":
			fmt.Fprint(out, r.ID)
		}
	}
	return code
}
