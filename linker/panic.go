package linker

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
)

// InternalError is a panic of the link, caught by the command line and the
// worker (linker/cli): a bug in cudalink, never a problem of the inputs,
// which get errors. It names the link's inputs so that the report can be
// reproduced.
type InternalError struct {
	Value  any      // what panicked
	Inputs []string // the inputs as given: paths, -l<name>
}

// Error is the line linker/cli prints: "internal error: <value> (inputs: ...)".
func (e *InternalError) Error() string {
	return fmt.Sprintf("internal error: %v (inputs: %s)", e.Value, strings.Join(e.Inputs, ", "))
}

// InputNames are cfg's inputs as the command line gave them.
func (cfg *Config) InputNames() []string {
	names := make([]string, len(cfg.Inputs))
	for i, in := range cfg.Inputs {
		names[i] = in.Path
		if in.Library {
			names[i] = "-l" + in.Path
		}
	}
	return names
}

// writtenFiles are the output files a Run has written so far.
type writtenFiles struct {
	mu    sync.Mutex
	paths []string
}

func (w *writtenFiles) add(path string) {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.paths = append(w.paths, path)
}

// removeAll deletes the files written so far: a link that panics leaves
// no output behind, as a failed one leaves none.
func (w *writtenFiles) removeAll() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, p := range w.paths {
		os.Remove(p)
	}
	w.paths = nil
}

// goPanic is a panic in a goroutine of the link, carried to the goroutine
// that runs the link (see rethrow), where the caller can recover it.
type goPanic struct{ value any }

// catch recovers a panic of the goroutine it is deferred in and stores it
// in *p.
func catch(p **goPanic) {
	if v := recover(); v != nil {
		*p = &goPanic{v}
	}
}

// rethrow panics again, on the calling goroutine, with the first panic
// caught.
func rethrow(ps []*goPanic) {
	for _, p := range ps {
		if p != nil {
			panic(p.value)
		}
	}
}

// testHookKey is the context key of WithTestHook.
type testHookKey struct{}

// WithTestHook returns a context for Config.Context that makes the link
// call hook with the name of each pass before running it, and with "parse
// <path>" in the goroutine that parses each input. It is for tests only: a
// hook that panics stands for a bug in that pass, to check that no panic
// reaches a user (linker/cli, the worker).
func WithTestHook(ctx context.Context, hook func(pass string)) context.Context {
	return context.WithValue(ctx, testHookKey{}, hook)
}

// lastLinkReadsKey is the context key of WithLastLinkReads.
type lastLinkReadsKey struct{}

// WithLastLinkReads returns a context for Config.Context that has the link
// read its inputs as the last link of a one-shot process reads them (a
// small link's cubins into one buffer, what only parsing reads given back:
// fileMaps.readSmall), while still releasing its mappings at its end as
// another link does. It is for tests only: cmd/cudalink's links take that
// path, which the tests' in-process links would otherwise never take.
func WithLastLinkReads(ctx context.Context) context.Context {
	return context.WithValue(ctx, lastLinkReadsKey{}, true)
}

// lastLinkReads says whether the link's context is WithLastLinkReads'.
func (cfg *Config) lastLinkReads() bool {
	return cfg.Context != nil && cfg.Context.Value(lastLinkReadsKey{}) == true
}

// testHook calls the hook of WithTestHook, if the link has one.
func (cfg *Config) testHook(pass string) {
	if cfg.Context == nil {
		return
	}
	if hook, ok := cfg.Context.Value(testHookKey{}).(func(string)); ok {
		hook(pass)
	}
}
