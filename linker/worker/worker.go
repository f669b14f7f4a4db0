// Package worker speaks Bazel's persistent-worker protocol on a pair of
// streams: it reads work requests, hands each to a Handler with the request's
// arguments and a writer for what the user should see, and sends exactly one
// response per request. It knows nothing about what the work is.
//
// Both of Bazel's encodings are spoken: "proto" (each WorkRequest and
// WorkResponse preceded by its length as a varint) and "json" (one JSON object
// per message, with or without newlines between them: Bazel 4 writes them
// back to back). Requests run concurrently, each in its own goroutine, so the
// same loop serves singleplex and multiplex workers; the responses go out in
// the order the work finishes, each in a single write.
//
// docs/worker.md describes the protocol as Bazel drives it and how cudalink
// serves it.
package worker

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Protocols the worker speaks.
const (
	Proto = "proto"
	JSON  = "json"
)

// Request is one unit of work.
type Request struct {
	// ID is Bazel's request_id: 0 from a singleplex worker, otherwise
	// unique among the requests in flight (Bazel reuses ids across builds).
	ID int32
	// Arguments are the request's arguments, Bazel's @flagfiles expanded.
	Arguments []string
	// Inputs are the action's input files with their digests.
	Inputs []Input
	// Verbosity is Bazel's verbosity; 10 and up under --worker_verbose
	// (Bazel 5 and later; always 0 from Bazel 4).
	Verbosity int32
	// SandboxDir is the directory relative paths are relative to under
	// multiplex sandboxing (Bazel 6 and later); "" otherwise.
	SandboxDir string
}

// Input is one input file of a request.
type Input struct {
	// Path is relative to the worker's working directory, or absolute.
	Path string
	// Digest is opaque: it changes when the contents do, and it is empty
	// when Bazel sent none. Bazel 4 sends the hex SHA-256 of the file, as
	// text in proto and as base64 of that text in JSON; other senders send
	// other things, so it is only ever compared for equality.
	Digest string
}

// Handler does the work of one request. It writes what the user should see
// (warnings, errors) to out, which is the request's own, and returns the
// exit code: 0 for success. ctx is cancelled when Bazel cancels the request
// or the worker stops; the handler should then return soon, and must not
// touch its outputs after it returned. A panic becomes an error response.
type Handler func(ctx context.Context, req *Request, out io.Writer) int

// Server serves one stream of requests.
type Server struct {
	// Handler does the work.
	Handler Handler
	// Protocol is Proto or JSON; "" means Proto.
	Protocol string
	// MaxParallel bounds the handlers running at once; 0 means
	// GOMAXPROCS. Requests beyond it wait without blocking the reading of
	// further requests, so cancellations are still seen.
	MaxParallel int
	// Log receives the worker's own messages: protocol errors and, for
	// requests with a non-zero Verbosity, one line per request. It is
	// normally stderr, which Bazel keeps in the worker's log file. nil
	// discards them.
	Log io.Writer
	// MaxOutput bounds the output of one response in bytes; 0 means
	// DefaultMaxOutput. Longer output is cut, with a note saying so.
	MaxOutput int
	// DrainTimeout bounds the wait for requests in flight after a bad
	// request; 0 means DefaultDrainTimeout.
	DrainTimeout time.Duration

	mu       sync.Mutex // guards inflight
	inflight map[int32]*request

	writeMu  sync.Mutex // one response written at a time
	w        io.Writer
	writeErr error // the first failed write; later responses are dropped
	enc      encoder

	logMu sync.Mutex
	wg    sync.WaitGroup // running requests
	slots chan struct{}  // MaxParallel tokens
	// lastSingle is closed when the last request with id 0 to arrive has
	// been answered: such requests run one after another, in order.
	lastSingle chan struct{}
}

// Defaults of the Server's bounds.
const (
	DefaultMaxOutput    = 1 << 20
	DefaultDrainTimeout = 5 * time.Second
)

// maxFrame bounds one request's size, so that a corrupt length cannot make
// the worker allocate gigabytes.
const maxFrame = 256 << 20

// request is the state of one request in flight.
type request struct {
	*Request
	ctx    context.Context
	cancel context.CancelFunc
	// after, for a request with id 0, is closed when the one before it
	// has been answered; done is closed when this one has.
	after, done chan struct{}
	// cancelled is set, under Server.mu, when a cancel for the request
	// arrived before its response was sent.
	cancelled bool
}

// ErrProtocol wraps the errors that end Serve because the request stream
// cannot be read: the stream is out of step, or a request cannot be decoded.
var ErrProtocol = errors.New("bad request stream")

// Serve reads requests from r until it ends and writes responses to w. At
// the end of r it waits for the requests in flight to be answered and
// returns nil.
//
// When a request cannot be read or decoded, Serve returns an error
// wrapping ErrProtocol without answering it: its id is unknown, and an
// answer under a wrong id would leave Bazel waiting forever. The requests
// in flight are answered first if they finish within DrainTimeout;
// whatever is still running then is cancelled and left unanswered. A failed
// write to w also ends Serve, with that error. The caller should exit
// non-zero after an error: Bazel then fails what is left and starts a new
// worker.
//
// Serve must be called at most once per Server.
func (s *Server) Serve(r io.Reader, w io.Writer) error {
	s.inflight = map[int32]*request{}
	s.w = w
	n := s.MaxParallel
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	s.slots = make(chan struct{}, n)
	var dec decoder
	switch s.Protocol {
	case "", Proto:
		dec, s.enc = newProtoDecoder(r), encodeProto
	case JSON:
		dec, s.enc = newJSONDecoder(r), encodeJSON
	default:
		return fmt.Errorf("unknown worker protocol %q (want %q or %q)", s.Protocol, Proto, JSON)
	}

	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	for {
		req, cancel, err := dec.next()
		if err == io.EOF {
			s.wg.Wait()
			return s.failedWrite()
		}
		if err != nil {
			err = fmt.Errorf("%w: %v", ErrProtocol, err)
			s.drain()
			s.closeWrites(err) // before stop: no answer for what stop ends
			stop()
			return err
		}
		if err := s.failedWrite(); err != nil {
			stop()
			return err
		}
		if cancel {
			s.cancel(req.ID)
			continue
		}
		s.start(ctx, req)
	}
}

// start registers a request and runs it in a goroutine of its own, so that
// the reader goes straight back to reading. The request is registered
// before the goroutine starts so that a cancel that follows at once finds
// it.
func (s *Server) start(parent context.Context, r *Request) {
	ctx, cancel := context.WithCancel(parent)
	req := &request{Request: r, ctx: ctx, cancel: cancel}
	if r.ID == 0 {
		// Singleplex: Bazel sends the next request after the answer to the
		// last; should it not, the answers still come in order.
		req.after, req.done = s.lastSingle, make(chan struct{})
		s.lastSingle = req.done
	}
	s.mu.Lock()
	if _, dup := s.inflight[r.ID]; dup && r.ID != 0 {
		// Bazel never does this; answer both, and route a cancel to the newer.
		s.logf("request %d arrived while another request with that id is in flight", r.ID)
	}
	s.inflight[r.ID] = req
	s.mu.Unlock()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer cancel()
		if req.done != nil {
			defer close(req.done)
		}
		if req.after != nil {
			<-req.after
		}
		s.run(req)
	}()
}

// run waits for a slot, runs the handler and sends the response.
func (s *Server) run(req *request) {
	select {
	case s.slots <- struct{}{}:
	case <-req.ctx.Done():
		s.respond(req, 1, notRun) // was_cancelled, if Bazel cancelled it
		return
	}
	defer func() { <-s.slots }()
	if req.ctx.Err() != nil {
		s.respond(req, 1, notRun)
		return
	}
	if req.Verbosity > 0 {
		s.logf("request %d: %q", req.ID, req.Arguments)
	}
	out := &syncBuffer{}
	code := s.call(req, out)
	s.respond(req, code, out.bytes())
}

// notRun is the output of a request stopped before it started, other than
// by its cancellation (which is answered with was_cancelled alone).
var notRun = []byte("internal error: the worker stopped before running the request\n")

// InternalErrorCode is the exit code of a request whose handler panicked:
// cudalink's exit status for an internal error (a bug), which its command
// line gives a panic of the link too (linker/cli), so that one status
// means "internal error" wherever the panic was caught.
const InternalErrorCode = 3

// call runs the handler, turning a panic into exit code InternalErrorCode
// with the panic and its stack in the output.
func (s *Server) call(req *request, out *syncBuffer) (code int) {
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(out, "internal error: panic while serving the request: %v\n%s", v, debug.Stack())
			s.logf("request %d: panic: %v", req.ID, v)
			code = InternalErrorCode
		}
	}()
	return s.Handler(req.ctx, req.Request, out)
}

// cancel handles a cancel request: a request in flight is told to stop and
// will be answered with was_cancelled when its handler returns; a cancel
// for an unknown or already answered id is ignored, as the protocol says.
func (s *Server) cancel(id int32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	req := s.inflight[id]
	if req == nil {
		s.logf("cancel for request %d, which is not in flight: ignored", id)
		return
	}
	req.cancelled = true
	req.cancel()
}

// respond sends the one response of a request. A request whose cancel was
// received is answered with was_cancelled and nothing else.
func (s *Server) respond(req *request, code int, output []byte) {
	s.mu.Lock()
	if s.inflight[req.ID] == req {
		delete(s.inflight, req.ID)
	}
	cancelled := req.cancelled
	s.mu.Unlock()

	resp := response{id: req.ID}
	if cancelled {
		resp.cancelled = true
	} else {
		resp.exitCode = int32(code)
		resp.output = s.clean(output)
	}
	frame, err := s.enc(&resp)
	if err != nil { // cannot happen: output is valid UTF-8
		s.logf("request %d: cannot encode the response: %v", req.ID, err)
		resp = response{id: req.ID, exitCode: 1, output: "internal error: cannot encode the response\n"}
		frame, _ = s.enc(&resp)
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if s.writeErr != nil {
		return
	}
	if _, err := s.w.Write(frame); err != nil {
		s.writeErr = fmt.Errorf("writing the response to request %d: %w", req.ID, err)
	}
}

// clean makes output fit for a response: valid UTF-8 (a proto string must
// be, or Bazel kills the worker) and at most MaxOutput bytes.
func (s *Server) clean(output []byte) string {
	text := strings.ToValidUTF8(string(output), "\uFFFD")
	limit := s.MaxOutput
	if limit <= 0 {
		limit = DefaultMaxOutput
	}
	if len(text) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = fmt.Sprintf("%s\n[output cut: %d more bytes]\n", text[:cut], len(text)-cut)
	}
	return text
}

// drain waits for the requests in flight, at most DrainTimeout.
func (s *Server) drain() {
	d := s.DrainTimeout
	if d <= 0 {
		d = DefaultDrainTimeout
	}
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
		s.logf("requests still running after %v: cancelled and left unanswered", d)
	}
}

// closeWrites stops all further responses; a response being written is
// finished first, so the stream ends on a frame boundary.
func (s *Server) closeWrites(err error) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if s.writeErr == nil {
		s.writeErr = err
	}
}

func (s *Server) failedWrite() error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	return s.writeErr
}

func (s *Server) logf(format string, args ...any) {
	if s.Log == nil {
		return
	}
	s.logMu.Lock()
	defer s.logMu.Unlock()
	fmt.Fprintf(s.Log, "cudalink worker: "+format+"\n", args...)
}

// syncBuffer is a request's output: the handler may write to it from
// several goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	return len(p), nil
}

func (b *syncBuffer) bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf
}

// newReader buffers the request stream.
func newReader(r io.Reader) *bufio.Reader { return bufio.NewReaderSize(r, 64<<10) }
