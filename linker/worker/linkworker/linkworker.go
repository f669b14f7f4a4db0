// Package linkworker is cudalink's persistent worker: it joins the protocol
// (package worker) to the link (package cli), which know nothing of each
// other, and keeps parsed inputs between requests (package objcache).
//
// `cudalink --persistent_worker` runs Main. Each request's arguments are a
// cudalink command line, run exactly as the command line runs it; what the
// link prints becomes the response's output. docs/worker.md has the details.
package linkworker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cudalink/cudalink/linker"
	"github.com/cudalink/cudalink/linker/cli"
	"github.com/cudalink/cudalink/linker/worker"
	"github.com/cudalink/cudalink/linker/worker/objcache"
)

// DefaultCacheMB is the default bound of the input cache, in MiB. Bazel 4
// starts up to 4 workers per kind of action, each with a cache of its own.
const DefaultCacheMB = 256

// Flags are the worker's startup flags, which Bazel passes on the worker's
// command line before the requests: --persistent_worker, and the flags
// below, which the rule puts before its @flagfile argument so that every
// action has the same ones (they are part of Bazel's key for the worker).
type Flags struct {
	Protocol    string // --worker_protocol=proto|json (default proto)
	CacheMB     int    // --worker_cache_mb=N: the input cache's bound; 0 turns it off
	MaxParallel int    // --worker_max_parallel=N: links at once; 0 is GOMAXPROCS
	Verbose     bool   // --worker_verbose: one line per request in the worker log
	// LinkArgs are the other startup arguments: they are put in front of
	// every request's arguments, as they would be in front of the expanded
	// @flagfile when the same action runs without a worker.
	LinkArgs []string
}

// ParseFlags reads the worker's startup arguments (without argv[0]).
func ParseFlags(args []string) (*Flags, error) {
	f := &Flags{Protocol: worker.Proto, CacheMB: DefaultCacheMB}
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--persistent_worker" {
			continue
		}
		name, value, hasValue := strings.Cut(arg, "=")
		if !strings.HasPrefix(name, "--worker_") {
			f.LinkArgs = append(f.LinkArgs, arg)
			continue
		}
		if name == "--worker_verbose" {
			if hasValue {
				return nil, fmt.Errorf("no value expected after %s", name)
			}
			f.Verbose = true
			continue
		}
		if !hasValue {
			if i+1 == len(args) {
				return nil, fmt.Errorf("value expected after %s", name)
			}
			i++
			value = args[i]
		}
		switch name {
		case "--worker_protocol":
			if value != worker.Proto && value != worker.JSON {
				return nil, fmt.Errorf("%s=%s: want %s or %s", name, value, worker.Proto, worker.JSON)
			}
			f.Protocol = value
		case "--worker_cache_mb", "--worker_max_parallel":
			n, err := strconv.Atoi(value)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("%s=%s: want a number of 0 or more", name, value)
			}
			if name == "--worker_cache_mb" {
				f.CacheMB = n
			} else {
				f.MaxParallel = n
			}
		default:
			return nil, fmt.Errorf("unknown worker flag %s", name)
		}
	}
	return f, nil
}

// Main runs the persistent worker on the process's stdin and stdout until
// stdin ends, and returns the exit status: 0 at the end of input, 1 when
// the request stream cannot be read, 2 for bad startup flags. Messages go
// to stderr, which Bazel keeps in the worker's log file.
func Main(args []string) int {
	flags, err := ParseFlags(args)
	if err != nil {
		fmt.Fprintf(os.Stderr, "cudalink: error: %v\n", err)
		return 2
	}
	out, err := worker.IsolateStdout()
	if err != nil {
		fmt.Fprintf(os.Stderr, "cudalink: error: %v\n", err)
		return 2
	}
	l := &Linker{Args: flags.LinkArgs, IdleRelease: idleReleaseDelay, CollectFrom: collectFromBytes}
	if flags.CacheMB > 0 {
		l.Cache = objcache.New(int64(flags.CacheMB) << 20)
	}
	if flags.Verbose {
		l.Log = os.Stderr
	}
	fmt.Fprintf(os.Stderr, "cudalink worker: pid %d, %s protocol, input cache %d MiB\n", os.Getpid(), flags.Protocol, flags.CacheMB)
	srv := &worker.Server{
		Handler:     l.Handle,
		Protocol:    flags.Protocol,
		MaxParallel: flags.MaxParallel,
		Log:         os.Stderr,
	}
	if err := srv.Serve(os.Stdin, out); err != nil {
		fmt.Fprintf(os.Stderr, "cudalink worker: error: %v; exiting\n", err)
		return 1
	}
	return 0
}

// Linker serves link requests.
type Linker struct {
	// Cache keeps parsed inputs between requests; nil keeps nothing.
	Cache *objcache.Cache
	// Args are put in front of every request's arguments.
	Args []string
	// Log, when not nil, gets one line per request.
	Log   io.Writer
	logMu sync.Mutex
	// IdleRelease, when not 0, is how long the worker waits with no link
	// running before it hands the memory the links freed back to the
	// system (debug.FreeOSMemory): between builds, a warm worker then
	// holds its cache (bounded by --worker_cache_mb) and the runtime, not
	// the garbage of its last links, which the collector would otherwise
	// give back only slowly. Links running back to back, as in a build,
	// never wait for it.
	IdleRelease time.Duration

	// CollectFrom, when not 0, has the collector run once the last
	// running link ends, if those links allocated at least CollectFrom
	// bytes and links that allocate as much again would start it in
	// their passes (collectBetween).
	CollectFrom uint64

	idleMu      sync.Mutex
	allocsAt    uint64      // the heap's allocated bytes when the running links began
	collections int         // collections collectBetween started, for tests
	running     int         // links running now
	idle        *time.Timer // the release waiting for the worker to stay idle
	releases    int         // releases done, for tests
}

// idleReleaseDelay is Main's Linker.IdleRelease.
const idleReleaseDelay = 500 * time.Millisecond

// collectFromBytes is Main's Linker.CollectFrom. Links that allocate less
// leave the collector to its own pace: the heap it marks in their passes
// is small, and a full cycle between links only added to it (the
// 100-object flat benchmark program relinked with one object changed,
// 1.2 MB of cubins: 13.1 -> 14.4 ms of the worker's CPU a relink when
// collecting after every link; 4 relinks back to back, 30 times,
// interleaved, load 11).
const collectFromBytes = 16 << 20

// begin and end bracket a link: end arms the idle release when the last
// running link ends, begin disarms it.
func (l *Linker) begin() {
	l.idleMu.Lock()
	defer l.idleMu.Unlock()
	l.running++
	if l.idle != nil {
		l.idle.Stop()
		l.idle = nil
	}
	if l.running == 1 {
		l.allocsAt = heapAllocs()
	}
}

func (l *Linker) end() {
	l.idleMu.Lock()
	defer l.idleMu.Unlock()
	l.running--
	if l.running == 0 && l.CollectFrom > 0 {
		if allocated := heapAllocs() - l.allocsAt; allocated >= l.CollectFrom {
			l.collectBetween(allocated)
		}
	}
	if l.running == 0 && l.IdleRelease > 0 {
		var t *time.Timer
		t = time.AfterFunc(l.IdleRelease, func() {
			l.idleMu.Lock()
			if l.idle != t || l.running > 0 {
				l.idleMu.Unlock()
				return // a link began since
			}
			l.idle = nil
			l.releases++
			l.idleMu.Unlock()
			debug.FreeOSMemory()
		})
		l.idle = t
	}
}

// Handle runs one request's link, as `cudalink <Args> <request arguments>`
// runs it, with what it prints going to out. It is a worker.Handler.
func (l *Linker) Handle(ctx context.Context, req *worker.Request, out io.Writer) int {
	if req.SandboxDir != "" {
		// The link would have to resolve every path in the arguments
		// against the directory; nothing asks for it (the rules do not set
		// supports-multiplex-sandboxing), so refuse rather than link
		// files from the wrong place.
		fmt.Fprintf(out, "cudalink: error: the worker does not support multiplex sandboxing (request sandbox_dir %q)\n", req.SandboxDir)
		return 1
	}
	l.begin()
	defer l.end()
	start := time.Now()
	args := append(l.Args[:len(l.Args):len(l.Args)], req.Arguments...)
	view := newRequestCache(ctx, l.Cache, req.Inputs)
	code := cli.RunContext(ctx, args, out, out, view)
	if l.Log != nil {
		l.logMu.Lock()
		fmt.Fprintf(l.Log, "cudalink worker: request %d: exit %d in %v; inputs: %d cached, %d read\n",
			req.ID, code, time.Since(start).Round(time.Microsecond), view.hits, view.reads)
		l.logMu.Unlock()
	}
	return code
}

// requestCache is the linker.ObjectCache of one request: it finds each
// file's digest among the request's inputs, and stops the link's loading
// once the request is cancelled.
type requestCache struct {
	ctx     context.Context
	cache   *objcache.Cache
	digests map[string]string // by absolute, cleaned path
	cwd     string

	mu          sync.Mutex
	hits, reads int
}

func newRequestCache(ctx context.Context, cache *objcache.Cache, inputs []worker.Input) *requestCache {
	rc := &requestCache{ctx: ctx, cache: cache}
	if cache != nil {
		rc.cwd, _ = os.Getwd()
		rc.digests = make(map[string]string, len(inputs))
		for _, in := range inputs {
			rc.digests[rc.key(in.Path)] = in.Digest
		}
	}
	return rc
}

// key makes a path comparable whichever way it is written.
func (rc *requestCache) key(path string) string {
	if !filepath.IsAbs(path) {
		path = filepath.Join(rc.cwd, path)
	}
	return filepath.Clean(path)
}

// errCancelled stops a link whose request was cancelled. Its message is
// never seen: a cancelled request is answered with was_cancelled alone.
var errCancelled = errors.New("the request was cancelled")

// Objects implements linker.ObjectCache. Entries are kept under the path
// as the link names it (the objects carry that name into messages), with
// the digest Bazel gave for that file.
func (rc *requestCache) Objects(path string, load func() ([]*linker.Object, error)) ([]*linker.Object, error) {
	if rc.ctx.Err() != nil {
		return nil, errCancelled
	}
	loaded := false
	counted := func() ([]*linker.Object, error) {
		loaded = true
		return load()
	}
	var objs []*linker.Object
	var err error
	if rc.cache == nil {
		objs, err = counted()
	} else {
		objs, err = rc.cache.Objects(path, rc.digests[rc.key(path)], counted)
	}
	rc.mu.Lock()
	if loaded {
		rc.reads++
	} else {
		rc.hits++
	}
	rc.mu.Unlock()
	return objs, err
}

// Compiled implements linker.CompileCache: the PTX a link compiles with
// ptxas is kept under its compile key, which names the text, the options
// and the ptxas binary, so a relink of unchanged PTX inputs runs no ptxas.
func (rc *requestCache) Compiled(key string, compile func() (*linker.Compiled, error)) (*linker.Compiled, error) {
	if rc.ctx.Err() != nil {
		return nil, errCancelled
	}
	if rc.cache == nil {
		return compile()
	}
	return rc.cache.Compiled(key, compile)
}

// heapAllocs is the bytes the process has allocated on the heap so far.
func heapAllocs() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// collectBetween starts the collector on a goroutine of its own, once the
// last running link has ended, if links that allocate as much again
// (allocated bytes, those that just ran) would take the heap past the
// collector's goal. The cycle then marks what the worker holds between
// links, the input cache (mostly the files' bytes, which hold no
// pointers) and the runtime's, while the response goes out and the next
// request comes in, and the next link runs its passes without it: no
// cycle in the middle of a link, marking the link's own structures (tens
// of thousands of sections and symbols for a large program) and slowing
// its allocations and pointer writes, and no pile of the last links'
// garbage on top of the cache. A warm worker relinking the large
// 400-object benchmark program (each relink allocates some 45 MB, the
// worker holds about 70 MB; rounds of 3 or 4 relinks back to back, the
// first of each dropped, 10 to 20 rounds interleaved with a worker without
// it, load 10-11), the worker's CPU time a relink, the collector's
// included, and its peak resident set: one object changed 203.5 -> 191.2
// ms, 199 -> 131 MiB and 189.3 -> 186.2 ms, 202 -> 184 MiB; unchanged
// 215.7 -> 207.3 ms, 197 -> 130 MiB and 217.7 -> 193.2 ms, 201 -> 176
// MiB. The flat 400-object program, one object changed: 71.9 -> 68.2 ms,
// 59.6 -> 57.3 MiB.
func (l *Linker) collectBetween(allocated uint64) {
	s := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	goal, heap := s[0].Value.Uint64(), s[1].Value.Uint64()
	if heap+allocated > goal {
		l.collections++
		go runtime.GC()
	}
}
