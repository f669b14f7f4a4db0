// Package nvvm runs the CUDA toolkit's libnvvm to optimize and compile the
// NVVM IR of link-time-optimized (nvcc -dlto) objects into PTX, the way
// nvlink 11.8 does for -dlto: one program, every module added through the
// private entry point __nvvmHandle(0x2080) (which decodes the LTO IR that
// nvcc writes and adds it to the program; libnvvm's public
// nvvmAddModuleToProgram takes only plain bitcode), then
// nvvmCompileProgram with nvlink's options.
//
// Loading a C library needs the C library loader, and a Go program that
// can dlopen is dynamically linked: every run then maps libc and ld.so
// (about 2.3 MiB of resident memory and 0.6 ms at start), with LTO or
// without. So cudalink stays static and runs libnvvm in a helper process,
// cudalink-nvvm (linker/cmd/cudalink-nvvm), started by the first Open of a
// library and kept for the process's life (a persistent worker compiles
// with it again and again). A program that imports package
// linker/nvvm/dl loads libnvvm in process instead.
//
// The helper serves two other libraries through the same Compiler:
// libnvJitLink (CUDA 12's encoded LTO IR) and the PTX compiler library
// (the toolkit's libnvptxcompiler_static.a made a shared library, the
// ptxas that nvlink has built in), which compiles PTX to a cubin: one
// module, the PTX text, ptxas's options, and the cubin in place of PTX.
// One helper compiling every PTX input costs a link less CPU time than a
// ptxas process per input (docs/benchmarks.md). A program that speaks the
// protocol with its library linked in (OpenProgram) serves the same way.
package nvvm

import (
	"fmt"
	"os"
	"sync"
)

// Compiler is a loaded libnvvm: in this process (package dl) or in the
// helper.
type Compiler interface {
	// Compile makes one program of the modules, in order, and compiles
	// it with options; it returns the PTX (without the terminating NUL)
	// and what libnvvm logged. The errors are *ModuleError,
	// *CompileError or another.
	Compile(modules []Module, options []string) (ptx []byte, log string, err error)
}

// Lib is a loaded libnvvm.
type Lib struct {
	Path string // the file that was loaded
	c    Compiler
}

// mu serializes every call into libnvvm: the library keeps state of its
// own (LLVM's), and a process may run several links at once (the
// worker). It guards the loaded libraries too: each is loaded once.
var (
	mu        sync.Mutex
	loaded    = map[string]*Lib{}
	inProcess func(path string) (Compiler, error)
)

// LoadInProcess makes Open load libraries with open, in this process,
// instead of in the helper. Package dl calls it when it is imported.
func LoadInProcess(open func(path string) (Compiler, error)) {
	mu.Lock()
	defer mu.Unlock()
	inProcess = open
}

// Open loads the libnvvm at path. The error says what dlopen said, or
// why the helper could not be run.
func Open(path string) (*Lib, error) { return OpenWith(path, "") }

// OpenWith is Open with the helper at helperPath ("": looked for as
// HelperName says): cudalink's --nvvm-helper, which a build system gives
// as a declared input.
//
// A helper starts without mu held: its process calls nothing in this one,
// so two libraries' helpers may start at the same time (a CUDA 12 -dlto
// link opens libnvvm and nvJitLink, each taking a few milliseconds to load).
func OpenWith(path, helperPath string) (*Lib, error) {
	mu.Lock()
	if l := loaded[path]; l != nil {
		mu.Unlock()
		return l, nil
	}
	if inProcess != nil {
		defer mu.Unlock()
		if _, err := os.Stat(path); err != nil {
			return nil, err
		}
		c, err := inProcess(path)
		if err != nil {
			return nil, err
		}
		l := &Lib{Path: path, c: c}
		loaded[path] = l
		return l, nil
	}
	mu.Unlock()
	if _, err := os.Stat(path); err != nil {
		return nil, err
	}
	c, err := startHelper(path, helperPath)
	if err != nil {
		return nil, err
	}
	mu.Lock()
	defer mu.Unlock()
	if l := loaded[path]; l != nil {
		// Another link of this process opened it meanwhile (the worker).
		c.(*helper).stop()
		return l, nil
	}
	l := &Lib{Path: path, c: c}
	loaded[path] = l
	return l, nil
}

// OpenProgram starts the program at path as a helper of its own: one
// that speaks the helper's protocol with its library linked in, as
// cudalink-ptxc (toolchain/cudalink-ptxc.c) does the PTX compiler, in a
// single-threaded process. Its compiles do not share one process: up to
// n run at once, each in a process of its own, started when the others
// are busy and kept for the next compiles (a program's processes do not
// share state). The first is started here, so that a program that cannot
// run is an error of OpenProgram; StopHelpers ends them.
func OpenProgram(path string, n int) (*Lib, error) {
	mu.Lock()
	defer mu.Unlock()
	if l := loaded[path]; l != nil {
		l.c.(*pool).grow(n)
		return l, nil
	}
	if _, err := os.Stat(path); err != nil {
		return nil, err
	}
	c, err := startHelper(path, path)
	if err != nil {
		return nil, err
	}
	p := &pool{path: path, max: max(n, 1), started: 1, idle: []*helper{c.(*helper)}}
	p.cond = sync.NewCond(&p.mu)
	l := &Lib{Path: path, c: p}
	loaded[path] = l
	return l, nil
}

// pool is OpenProgram's helpers: started as compiles need them, up to max.
type pool struct {
	path    string
	mu      sync.Mutex
	cond    *sync.Cond // signalled when a helper is put back or given up
	max     int        // the most helpers at once
	started int        // helpers running, idle or busy
	idle    []*helper
}

// grow raises the number of helpers to at least n.
func (p *pool) grow(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.max = max(p.max, n)
}

// Compile compiles in an idle helper, else in a new one while fewer than
// max run, else waits for one.
func (p *pool) Compile(modules []Module, options []string) ([]byte, string, error) {
	p.mu.Lock()
	for len(p.idle) == 0 && p.started >= p.max {
		p.cond.Wait()
	}
	var h *helper
	if n := len(p.idle); n > 0 {
		h, p.idle = p.idle[n-1], p.idle[:n-1]
	} else {
		p.started++
	}
	p.mu.Unlock()
	if h == nil {
		c, err := startHelper(p.path, p.path)
		if err != nil {
			p.putBack(nil)
			return nil, "", err
		}
		h = c.(*helper)
	}
	ptx, log, err := h.Compile(modules, options)
	if h.broken {
		h = nil // it crashed: another starts when needed
	}
	p.putBack(h)
	return ptx, log, err
}

// putBack makes h idle again; nil gives up a helper's place.
func (p *pool) putBack(h *helper) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if h == nil {
		p.started--
	} else {
		p.idle = append(p.idle, h)
	}
	p.cond.Signal()
}

// takeIdle takes the idle helpers out of the pool (StopHelpers and
// Release: no compile runs then).
func (p *pool) takeIdle() []*helper {
	p.mu.Lock()
	defer p.mu.Unlock()
	idle := p.idle
	p.started -= len(idle)
	p.idle = nil
	return idle
}

// released are the helpers Release has told to exit, for StopHelpers to
// wait for.
var released []*helper

// helpers takes the helper processes of l out of use: its helper, or
// its pool's idle ones; ok is false for a library loaded in this process.
func (l *Lib) helpers() (hs []*helper, ok bool) {
	switch c := l.c.(type) {
	case *helper:
		return []*helper{c}, true
	case *pool:
		return c.takeIdle(), true
	}
	return nil, false
}

// Release ends l's helper processes (a one-shot link calls it once its
// last compile is done): their input is closed, and each exits while the
// link goes on (freeing a compiler's memory takes a millisecond or two),
// instead of one after the other at StopHelpers, which waits for them.
// The next Open of the same path starts another helper. Only for a
// process that runs no other compile at the same time: a helper busy with
// one would be left to end on its own. A library loaded in this process
// stays loaded.
func (l *Lib) Release() {
	mu.Lock()
	defer mu.Unlock()
	if loaded[l.Path] != l {
		return
	}
	hs, ok := l.helpers()
	if !ok {
		return
	}
	delete(loaded, l.Path)
	for _, h := range hs {
		if h.running() {
			h.broken, h.released = true, true
			h.stdin.Close()
			ended := *h // another compile replaces *h (helper.Compile)
			released = append(released, &ended)
		}
	}
}

// StopHelpers ends every helper process started so far and waits for
// it; the next Open starts another. A one-shot link calls it before it
// exits, so that the helpers' time and memory count as the link's (a
// process that exits without waiting leaves them to end on their own).
// Every helper's input is closed before any is waited for, so that they
// exit side by side.
func StopHelpers() {
	mu.Lock()
	defer mu.Unlock()
	stop := released
	released = nil
	for path, l := range loaded {
		hs, ok := l.helpers()
		if !ok {
			continue
		}
		for _, h := range hs {
			h.broken = true
			if h.running() {
				h.stdin.Close()
				stop = append(stop, h)
			}
		}
		delete(loaded, path)
	}
	for _, h := range stop {
		h.stop()
	}
	waitEnding()
}

// Compile makes one program of the modules, in order, and compiles it
// with options; it returns the PTX (without the terminating NUL) and what
// libnvvm logged.
func (l *Lib) Compile(modules []Module, options []string) (ptx []byte, log string, err error) {
	if p, ok := l.c.(*pool); ok {
		return p.Compile(modules, options) // processes of their own, in parallel
	}
	mu.Lock()
	defer mu.Unlock()
	ptx, log, err = l.c.Compile(modules, options)
	if h, ok := l.c.(*helper); ok && h.broken && !h.oneShot {
		// The helper is gone (libnvvm crashed it): the next Open starts
		// another.
		delete(loaded, l.Path)
	}
	return ptx, log, err
}

// Module is one LTO input: the IR of an object as nvcc stored it in the
// fatbinary (decompressed), and the name nvlink gives it.
type Module struct {
	Name string // the name nvlink gives the module
	IR   []byte // the decompressed NVVM IR
}

// ModuleError is a module libnvvm refused: nvcc's LTO IR of another
// release, or not LTO IR at all.
type ModuleError struct {
	Module string // the module's name
	Status int    // libnvvm's nvvmResult
}

// Error says which nvvmResult libnvvm gave.
func (e *ModuleError) Error() string {
	return fmt.Sprintf("cannot read its LTO IR (%s)", ResultString(e.Status))
}

// CompileError is an nvvmCompileProgram failure, with libnvvm's log.
type CompileError struct {
	Status int    // libnvvm's nvvmResult
	Log    string // libnvvm's program log
}

// Error says which nvvmResult libnvvm gave; the log is in Log.
func (e *CompileError) Error() string {
	return fmt.Sprintf("libnvvm could not compile the program (%s)", ResultString(e.Status))
}

// ResultString names an nvvmResult as libnvvm's nvvmGetErrorString does.
func ResultString(r int) string {
	names := []string{
		"NVVM_SUCCESS",
		"NVVM_ERROR_OUT_OF_MEMORY",
		"NVVM_ERROR_PROGRAM_CREATION_FAILURE",
		"NVVM_ERROR_IR_VERSION_MISMATCH",
		"NVVM_ERROR_INVALID_INPUT",
		"NVVM_ERROR_INVALID_PROGRAM",
		"NVVM_ERROR_INVALID_IR",
		"NVVM_ERROR_INVALID_OPTION",
		"NVVM_ERROR_NO_MODULE_IN_PROGRAM",
		"NVVM_ERROR_COMPILATION",
	}
	if r >= 0 && r < len(names) {
		return names[r]
	}
	return fmt.Sprintf("nvvmResult %d", r)
}

// PTXCompileResultString names an nvPTXCompileResult (the PTX compiler
// library's status, see Compiler) as nvPTXCompiler.h does.
func PTXCompileResultString(r int) string {
	names := []string{
		"NVPTXCOMPILE_SUCCESS",
		"NVPTXCOMPILE_ERROR_INVALID_COMPILER_HANDLE",
		"NVPTXCOMPILE_ERROR_INVALID_INPUT",
		"NVPTXCOMPILE_ERROR_COMPILATION_FAILURE",
		"NVPTXCOMPILE_ERROR_INTERNAL",
		"NVPTXCOMPILE_ERROR_OUT_OF_MEMORY",
		"NVPTXCOMPILE_ERROR_COMPILER_INVOCATION_INCOMPLETE",
		"NVPTXCOMPILE_ERROR_UNSUPPORTED_PTX_VERSION",
	}
	if r >= 0 && r < len(names) {
		return names[r]
	}
	return fmt.Sprintf("nvPTXCompileResult %d", r)
}
