package nvvm

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// HelperName is the helper's file name. Open looks for it (unless
// OpenWith names it) in $CUDALINK_NVVM_HELPER (a path), next to the running program (what go
// install and go build ./linker/cmd/... give), in the program's Bazel
// runfiles, then in PATH.
const HelperName = "cudalink-nvvm"

// The helper's protocol, on its standard input and output: it is started
// with the library's path as its only argument and answers with one open
// response; then, for each compile request, one compile response, until
// its input ends. Every integer is little-endian; a string or byte slice
// is its uint64 length and its bytes.
//
//	open response:    status byte (0: loaded), message string (dlopen's error)
//	compile request:  option count uint64, options; module count uint64,
//	                  (name, IR) per module
//	compile response: kind byte (see below), PTX, log, module name,
//	                  status int64, message string
const (
	replyOK           = 0 // PTX and log
	replyModuleError  = 1 // ModuleError{module name, status}
	replyCompileError = 2 // CompileError{status, log}
	replyError        = 3 // another error: message
)

// helper is a running cudalink-nvvm.
type helper struct {
	cmd    *exec.Cmd
	in     *bufio.Writer
	stdin  io.Closer
	out    *bufio.Reader
	stderr *strings.Builder
	broken bool // the pipe failed: the process is of no more use

	// oneShot: the helper answers one request and exits (its library
	// said so, see OneShot); path and bin start the next one.
	oneShot   bool
	path, bin string
	// released: Release ended it after what was to be its last compile;
	// another compile starts another helper, as for a one-shot one.
	released bool
	// ended: its input is closed and a goroutine waits for its exit
	// (endInBackground); StopHelpers waits for that goroutine.
	ended bool
}

// OneShot is what a Compiler implements when its library must not serve
// a second compile in the same process: the helper then exits after one
// request, and the next request starts another helper.
type OneShot interface {
	// OneShot says whether the helper must exit after one request.
	OneShot() bool
}

// oneShotHello is the message of a helper's greeting that says it
// answers one request.
const oneShotHello = "one-shot"

// findHelper returns the helper's path (see HelperName).
func findHelper() (string, error) {
	if p := os.Getenv("CUDALINK_NVVM_HELPER"); p != "" {
		return p, nil
	}
	if exe, err := os.Executable(); err == nil {
		if exe, err := filepath.EvalSymlinks(exe); err == nil {
			p := filepath.Join(filepath.Dir(exe), HelperName)
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
				return p, nil
			}
		}
		if p := findInRunfiles(exe + ".runfiles"); p != "" {
			return p, nil
		}
	}
	if p, err := exec.LookPath(HelperName); err == nil {
		return p, nil
	}
	return "", ErrNoHelper
}

// ErrNoHelper is Open's error when it finds no helper.
var ErrNoHelper = errors.New("link-time optimization runs libnvvm in " + HelperName + ", which is neither next to cudalink nor in PATH: install it with cudalink (go install ./linker/cmd/...), or pass --nvvm-helper=PATH (or set CUDALINK_NVVM_HELPER; under Bazel, set the toolchain's nvvm_helper)")

// findInRunfiles returns the helper in a Bazel runfiles tree, or "".
func findInRunfiles(dir string) string {
	found := ""
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || found != "" {
			return filepath.SkipDir
		}
		if !d.IsDir() && d.Name() == HelperName {
			found = p
			return filepath.SkipAll
		}
		return nil
	})
	return found
}

// startHelper starts the helper (bin, or the one findHelper finds when
// bin is "") on the library at path.
func startHelper(path, bin string) (Compiler, error) {
	if bin == "" {
		var err error
		if bin, err = findHelper(); err != nil {
			return nil, err
		}
	}
	cmd := exec.Command(bin, path)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	h := &helper{cmd: cmd, in: bufio.NewWriter(stdin), stdin: stdin, out: bufio.NewReader(stdout), stderr: &strings.Builder{}, path: path, bin: bin}
	cmd.Stderr = h.stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	r := &reader{r: h.out}
	status, msg := r.byte(), r.string()
	if r.err != nil {
		return nil, h.fail(r.err)
	}
	if status != 0 {
		h.stop()
		return nil, errors.New(msg)
	}
	h.oneShot = msg == oneShotHello
	return h, nil
}

// Compile sends one compile request and reads its response.
func (h *helper) Compile(modules []Module, options []string) ([]byte, string, error) {
	if h.broken && (h.oneShot || h.released) {
		// The last request ended the helper, as it said it would (or
		// Release did).
		next, err := startHelper(h.path, h.bin)
		if err != nil {
			return nil, "", err
		}
		*h = *next.(*helper)
	}
	if h.broken {
		return nil, "", errors.New(h.name() + " has stopped")
	}
	if h.oneShot {
		// The helper exits once it has answered: the answer goes back
		// while it does, not after (a helper that loaded libnvvm takes 2
		// to 5 ms to exit, on the way from libnvvm's PTX to ptxas).
		defer func() { h.broken = true; h.endInBackground() }()
	}
	w := &writer{w: h.in}
	w.uint(uint64(len(options)))
	for _, o := range options {
		w.string(o)
	}
	w.uint(uint64(len(modules)))
	for _, m := range modules {
		w.string(m.Name)
		w.bytes(m.IR)
	}
	if w.err == nil {
		w.err = h.in.Flush()
	}
	if w.err != nil {
		return nil, "", h.fail(w.err)
	}
	r := &reader{r: h.out}
	kind, ptx, log, module, status, msg := r.byte(), r.bytes(), r.string(), r.string(), int(int64(r.uint())), r.string()
	if r.err != nil {
		return nil, "", h.fail(r.err)
	}
	switch kind {
	case replyOK:
		return ptx, log, nil
	case replyModuleError:
		return nil, log, &ModuleError{Module: module, Status: status}
	case replyCompileError:
		return nil, log, &CompileError{Status: status, Log: log}
	}
	return nil, log, errors.New(msg)
}

// name is the helper as its errors name it: HelperName, or the file name
// of a program that serves its own library (OpenProgram: cudalink-ptxc).
func (h *helper) name() string {
	if h.bin == h.path {
		return filepath.Base(h.bin)
	}
	return HelperName
}

// fail stops a helper whose pipe failed and says why, with what it wrote
// to its standard error (a crash's message).
func (h *helper) fail(err error) error {
	h.broken = true
	h.stop()
	if msg := strings.TrimSpace(h.stderr.String()); msg != "" {
		return fmt.Errorf("%s: %v: %s", h.name(), err, msg)
	}
	if h.cmd.ProcessState != nil && !h.cmd.ProcessState.Success() {
		return fmt.Errorf("%s: %v", h.name(), h.cmd.ProcessState)
	}
	return fmt.Errorf("%s: %v", h.name(), err)
}

// running says whether the helper is neither waited for (stop) nor
// ending (endInBackground).
func (h *helper) running() bool { return !h.ended && h.cmd.ProcessState == nil }

// stop ends the helper: its input ends, and it exits. A helper already
// waited for, or ending in the background, is left alone.
func (h *helper) stop() {
	if !h.running() {
		return
	}
	h.stdin.Close()
	h.cmd.Wait()
}

// ending are the exits of helpers ended in the background, for
// StopHelpers to wait for; each is closed once its helper has exited.
var (
	endingMu sync.Mutex
	ending   []chan struct{}
)

// endInBackground ends the helper as stop does, but a goroutine waits for
// its exit, and StopHelpers for the goroutine: the caller goes on while the
// process frees its memory. Exits already waited for leave the list, so a
// worker's list holds only the helpers still ending.
func (h *helper) endInBackground() {
	if !h.running() {
		return
	}
	h.ended = true
	h.stdin.Close()
	done := make(chan struct{})
	cmd := h.cmd
	go func() {
		cmd.Wait()
		close(done)
	}()
	endingMu.Lock()
	defer endingMu.Unlock()
	ending = slices.DeleteFunc(ending, func(c chan struct{}) bool {
		select {
		case <-c:
			return true
		default:
			return false
		}
	})
	ending = append(ending, done)
}

// waitEnding waits for every helper ended in the background.
func waitEnding() {
	endingMu.Lock()
	defer endingMu.Unlock()
	for _, c := range ending {
		<-c
	}
	ending = nil
}

// Serve is the helper's side: it loads the library at path with open and
// answers compile requests from in on out until in ends. It returns the
// process's exit status.
func Serve(path string, in io.Reader, out io.Writer, open func(path string) (Compiler, error)) int {
	// Every call into the library from one thread: glibc's malloc gives
	// each thread that allocates an arena of its own, and the heap of the
	// compiles that ran on it stays there. Run on whichever of the Go
	// runtime's threads, the 100 compiles of tests/bench's PTX program
	// left the helper at 56.6 MiB of peak RSS; on one thread, 32.6 MiB,
	// for the same CPU time.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	bw := bufio.NewWriter(out)
	w := &writer{w: bw}
	c, err := open(path)
	if err != nil {
		w.byte(1)
		w.string(err.Error())
		bw.Flush()
		return 1
	}
	oneShot := false
	if o, ok := c.(OneShot); ok {
		oneShot = o.OneShot()
	}
	w.byte(0)
	if oneShot {
		w.string(oneShotHello)
	} else {
		w.string("")
	}
	if bw.Flush() != nil {
		return 1
	}
	r := &reader{r: bufio.NewReader(in)}
	for {
		n := r.uint()
		if r.err == io.EOF {
			return 0
		}
		options := make([]string, 0, min(n, 1024))
		for range n {
			if r.err != nil {
				break
			}
			options = append(options, r.string())
		}
		n = r.uint()
		modules := make([]Module, 0, min(n, 1024))
		for range n {
			if r.err != nil {
				break
			}
			modules = append(modules, Module{Name: r.string(), IR: r.bytes()})
		}
		if r.err != nil {
			fmt.Fprintf(os.Stderr, "%s: reading a request: %v\n", HelperName, r.err)
			return 1
		}
		ptx, log, err := c.Compile(modules, options)
		kind, module, status, msg := replyOK, "", 0, ""
		var me *ModuleError
		var ce *CompileError
		switch {
		case errors.As(err, &me):
			kind, module, status = replyModuleError, me.Module, me.Status
		case errors.As(err, &ce):
			kind, status = replyCompileError, ce.Status
		case err != nil:
			kind, msg = replyError, err.Error()
		}
		w.byte(byte(kind))
		w.bytes(ptx)
		w.string(log)
		w.string(module)
		w.uint(uint64(int64(status)))
		w.string(msg)
		if w.err != nil || bw.Flush() != nil {
			return 1
		}
		if oneShot {
			return 0
		}
	}
}

// writer writes the protocol's values; the first error sticks.
type writer struct {
	w   io.Writer
	err error
}

func (w *writer) write(b []byte) {
	if w.err == nil {
		_, w.err = w.w.Write(b)
	}
}

func (w *writer) byte(b byte)     { w.write([]byte{b}) }
func (w *writer) uint(n uint64)   { w.write(binary.LittleEndian.AppendUint64(nil, n)) }
func (w *writer) bytes(b []byte)  { w.uint(uint64(len(b))); w.write(b) }
func (w *writer) string(s string) { w.bytes([]byte(s)) }

// reader reads the protocol's values; the first error sticks, and a
// length past what the stream holds is an error, not an allocation.
type reader struct {
	r   *bufio.Reader
	err error
}

func (r *reader) full(n uint64) []byte {
	if r.err != nil {
		return nil
	}
	if n > 1<<40 {
		r.err = fmt.Errorf("length %d out of range", n)
		return nil
	}
	var b []byte
	for uint64(len(b)) < n {
		// Grown as the bytes arrive: a corrupt length cannot make a
		// huge allocation.
		chunk := min(n-uint64(len(b)), 1<<20)
		start := len(b)
		b = append(b, make([]byte, chunk)...)
		if _, err := io.ReadFull(r.r, b[start:]); err != nil {
			r.err = err
			return nil
		}
	}
	return b
}

func (r *reader) byte() byte {
	if b := r.full(1); len(b) == 1 {
		return b[0]
	}
	return 0
}

func (r *reader) uint() uint64 {
	if r.err != nil {
		return 0
	}
	var b [8]byte
	if _, err := io.ReadFull(r.r, b[:]); err != nil {
		r.err = err
		return 0
	}
	return binary.LittleEndian.Uint64(b[:])
}

func (r *reader) bytes() []byte  { return r.full(r.uint()) }
func (r *reader) string() string { return string(r.bytes()) }
