package linkworker

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudalink/cudalink/linker"
	"github.com/cudalink/cudalink/linker/worker"
	"github.com/cudalink/cudalink/linker/worker/internal/fakebazel"
	"github.com/cudalink/cudalink/linker/worker/objcache"
)

// servePanicking is serve with a handler that injects a panic, through the
// linker's test hook, in the pass panicIn names for a request (none for
// ""), and runs the link as it is otherwise.
func servePanicking(t testing.TB, protocol string, l *Linker, panicIn func(*worker.Request) string) *client {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &client{t: t, protocol: protocol, in: inW, next: fakebazel.NewReader(protocol, outR), done: make(chan error, 1)}
	handler := func(ctx context.Context, req *worker.Request, out io.Writer) int {
		if pass := panicIn(req); pass != "" {
			ctx = linker.WithTestHook(ctx, func(p string) {
				if p == pass {
					panic("injected in " + p)
				}
			})
		}
		return l.Handle(ctx, req, out)
	}
	srv := &worker.Server{Handler: handler, Protocol: protocol}
	go func() {
		err := srv.Serve(inR, outW)
		outW.Close()
		c.done <- err
	}()
	t.Cleanup(func() { inW.Close() })
	return c
}

// TestInternalErrorMultiplex: over proto, requests with a cache, two of
// them at once: a request whose link panics (while parsing an input, in
// the cache's load; in a pass) is answered with exit code 3 and the one-line message naming its
// inputs, leaves no output, and the worker goes on: the other requests,
// and a later one with the same inputs and digests, link as the command
// line does.
func TestInternalErrorMultiplex(t *testing.T) {
	c := loadCase(t, "two-file-cross-calls")
	ins := c.AbsInputs()
	dir := t.TempDir()
	l := &Linker{Cache: objcache.New(64 << 20)}
	panics := map[int32]string{1: "parse " + ins[1], 3: "lay out sections"}
	cl := servePanicking(t, worker.Proto, l, func(r *worker.Request) string { return panics[r.ID] })
	defer cl.close()
	digests := digestInputs(t, ins)
	req := func(id int32) fakebazel.Request {
		out := filepath.Join(dir, fmt.Sprintf("out-%d.cubin", id))
		return fakebazel.Request{ID: id, Args: c.Args(ins, out), Inputs: digests}
	}
	_, _, want := cliLink(c.Args(ins, filepath.Join(dir, "cli.cubin")), filepath.Join(dir, "cli.cubin"))
	os.Remove(filepath.Join(dir, "cli.cubin"))

	// Request 1 alone first, so that its own link loads b.cubin into the
	// cache (and panics there); then two at once.
	got := cl.do(req(1))
	for id, r := range cl.do(req(2), req(3)) {
		got[id] = r
	}
	for id, pass := range panics {
		r := got[id]
		msg := fmt.Sprintf("cudalink: internal error: injected in %s (inputs: %s)\n", pass, strings.Join(ins, ", "))
		if r.ExitCode != 3 || r.Output != msg {
			t.Errorf("request %d: %v; want exit 3 and %q", id, r, msg)
		}
		if _, err := os.Stat(filepath.Join(dir, fmt.Sprintf("out-%d.cubin", id))); err == nil {
			t.Errorf("request %d panicked but left an output", id)
		}
	}
	for _, id := range []int32{2, 4} {
		if id == 4 {
			got = cl.do(req(4))
		}
		if r := got[id]; r.ExitCode != 0 || r.Output != "" {
			t.Errorf("request %d: %v; want exit 0 and nothing printed", id, r)
		}
		if data, _ := os.ReadFile(filepath.Join(dir, fmt.Sprintf("out-%d.cubin", id))); string(data) != string(want) {
			t.Errorf("request %d: the output is not the command line's", id)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("the output directory holds %v; want the two outputs only", ents)
	}
}

// TestInternalErrorSingleplexJSON: over JSON, one request after another:
// a link that panics after writing its output (in --map's pass) is
// answered with exit code 3 and the message, its outputs removed, and the
// next request links.
func TestInternalErrorSingleplexJSON(t *testing.T) {
	c := loadCase(t, "two-file-cross-calls")
	ins := c.AbsInputs()
	dir := t.TempDir()
	first := true
	cl := servePanicking(t, worker.JSON, &Linker{}, func(*worker.Request) string {
		if first { // requests with id 0 run one after another
			first = false
			return "explain link"
		}
		return ""
	})
	defer cl.close()
	out := filepath.Join(dir, "out.cubin")
	args := append(c.Args(ins, out), "--map", filepath.Join(dir, "out.map"))
	r := cl.do(fakebazel.Request{Args: args})[0]
	msg := fmt.Sprintf("cudalink: internal error: injected in explain link (inputs: %s)\n", strings.Join(ins, ", "))
	if r.ExitCode != 3 || r.Output != msg {
		t.Errorf("%v; want exit 3 and %q", r, msg)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("the output directory holds %v after the panic", ents)
	}
	_, _, want := cliLink(c.Args(ins, filepath.Join(t.TempDir(), "cli.cubin")), "")
	if r := cl.do(fakebazel.Request{Args: args})[0]; r.ExitCode != 0 || r.Output != "" {
		t.Errorf("the request after the panic: %v; want exit 0 and nothing printed", r)
	}
	if data, _ := os.ReadFile(out); len(data) == 0 || want != nil && string(data) != string(want) {
		t.Error("the request after the panic did not write the command line's output")
	}
	if _, err := os.Stat(filepath.Join(dir, "out.map")); err != nil {
		t.Errorf("the request after the panic wrote no map: %v", err)
	}
}
