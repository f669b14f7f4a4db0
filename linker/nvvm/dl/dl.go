// Package nvvm calls the CUDA toolkit's libnvvm, loaded at run time
// without cgo (github.com/ebitengine/purego), to optimize and compile the
// NVVM IR of link-time-optimized (nvcc -dlto) objects into PTX, the way
// nvlink 11.8 does for -dlto: one program, every module added through the
// private entry point __nvvmHandle(0x2080) (which decodes the LTO IR that
// nvcc writes and adds it to the program; libnvvm's public
// nvvmAddModuleToProgram takes only plain bitcode), then
// nvvmCompileProgram with nvlink's options.
package nvvm

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// Lib is a loaded libnvvm.
type Lib struct {
	Path string // the file that was loaded

	createProgram      func(prog *uintptr) int32
	destroyProgram     func(prog *uintptr) int32
	compileProgram     func(prog uintptr, n int32, opts unsafe.Pointer) int32
	compiledResultSize func(prog uintptr, size *uintptr) int32
	compiledResult     func(prog uintptr, buf unsafe.Pointer) int32
	programLogSize     func(prog uintptr, size *uintptr) int32
	programLog         func(prog uintptr, buf unsafe.Pointer) int32
	version            func(major, minor *int32) int32
	handle             uintptr // __nvvmHandle
}

// mu serializes every call into libnvvm: the library keeps state of its
// own (LLVM's), and a process may run several links at once (the
// worker). It guards the loaded libraries too; dlopen hands back the same
// handle for the same file, so each is looked up once.
var (
	mu     sync.Mutex
	loaded = map[string]*Lib{}
)

// Open loads the libnvvm at path. The error says what dlopen said.
func Open(path string) (*Lib, error) {
	mu.Lock()
	defer mu.Unlock()
	if l := loaded[path]; l != nil {
		return l, nil
	}
	if _, err := os.Stat(path); err != nil {
		return nil, err
	}
	h, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		return nil, err
	}
	l := &Lib{Path: path}
	for _, f := range []struct {
		name string
		fn   any
	}{
		{"nvvmCreateProgram", &l.createProgram},
		{"nvvmDestroyProgram", &l.destroyProgram},
		{"nvvmCompileProgram", &l.compileProgram},
		{"nvvmGetCompiledResultSize", &l.compiledResultSize},
		{"nvvmGetCompiledResult", &l.compiledResult},
		{"nvvmGetProgramLogSize", &l.programLogSize},
		{"nvvmGetProgramLog", &l.programLog},
		{"nvvmVersion", &l.version},
	} {
		sym, err := purego.Dlsym(h, f.name)
		if err != nil {
			return nil, fmt.Errorf("%s has no %s: not a libnvvm", path, f.name)
		}
		purego.RegisterFunc(f.fn, sym)
	}
	// nvlink fails with "could not find __nvvmHandle" without it.
	if l.handle, err = purego.Dlsym(h, "__nvvmHandle"); err != nil {
		return nil, fmt.Errorf("%s has no __nvvmHandle, through which nvlink adds LTO modules", path)
	}
	loaded[path] = l
	return l, nil
}

// Version is libnvvm's nvvmVersion (2.0 for CUDA 11.8's).
func (l *Lib) Version() (major, minor int) {
	mu.Lock()
	defer mu.Unlock()
	var ma, mi int32
	l.version(&ma, &mi)
	return int(ma), int(mi)
}

// Module is one LTO input: the IR of an object as nvcc stored it in the
// fatbinary (decompressed), and the name nvlink gives it.
type Module struct {
	Name string
	IR   []byte
}

// ModuleError is a module libnvvm refused: nvcc's LTO IR of another
// release, or not LTO IR at all.
type ModuleError struct {
	Module string
	Status int
}

// Error says which nvvmResult libnvvm gave.
func (e *ModuleError) Error() string {
	return fmt.Sprintf("libnvvm cannot read its LTO IR (%s)", resultString(e.Status))
}

// CompileError is an nvvmCompileProgram failure, with libnvvm's log.
type CompileError struct {
	Status int
	Log    string
}

// Error says which nvvmResult libnvvm gave; the log is in Log.
func (e *CompileError) Error() string {
	return fmt.Sprintf("libnvvm could not compile the program (%s)", resultString(e.Status))
}

// Compile makes one program of the modules, in order, and compiles it
// with options; it returns the PTX (without the terminating NUL) and what
// libnvvm logged.
func (l *Lib) Compile(modules []Module, options []string) (ptx []byte, log string, err error) {
	mu.Lock()
	defer mu.Unlock()
	var prog uintptr
	if r := l.createProgram(&prog); r != 0 {
		return nil, "", fmt.Errorf("nvvmCreateProgram: %s", resultString(int(r)))
	}
	defer l.destroyProgram(&prog)
	// __nvvmHandle(0x2080) returns nvlink's entry for LTO modules:
	// (program, buffer, size, name) -> nvvmResult.
	add, _, _ := purego.SyscallN(l.handle, 0x2080)
	if add == 0 {
		return nil, "", errors.New("__nvvmHandle(0x2080) returned nothing: this libnvvm does not take LTO modules")
	}
	for _, m := range modules {
		if len(m.IR) == 0 {
			return nil, "", &ModuleError{Module: m.Name, Status: 4}
		}
		name := append([]byte(m.Name), 0)
		r, _, _ := purego.SyscallN(add, prog, uintptr(unsafe.Pointer(&m.IR[0])), uintptr(len(m.IR)), uintptr(unsafe.Pointer(&name[0])))
		if int32(r) != 0 {
			return nil, "", &ModuleError{Module: m.Name, Status: int(int32(r))}
		}
	}
	cstrs := make([][]byte, len(options))
	ptrs := make([]uintptr, len(options)+1)
	for i, o := range options {
		cstrs[i] = append([]byte(o), 0)
		ptrs[i] = uintptr(unsafe.Pointer(&cstrs[i][0]))
	}
	status := l.compileProgram(prog, int32(len(options)), unsafe.Pointer(&ptrs[0]))
	log = l.log(prog)
	// Keep the option strings alive until libnvvm is done with them.
	_ = cstrs
	// A relocatable compile (--device-c) ends with status 100 on CUDA
	// 11.8, and its PTX is good: nvlink takes it.
	if status != 0 && status != 100 {
		return nil, log, &CompileError{Status: int(status), Log: log}
	}
	var size uintptr
	if r := l.compiledResultSize(prog, &size); r != 0 || size == 0 {
		return nil, log, fmt.Errorf("nvvmGetCompiledResultSize: %s", resultString(int(r)))
	}
	buf := make([]byte, size)
	if r := l.compiledResult(prog, unsafe.Pointer(&buf[0])); r != 0 {
		return nil, log, fmt.Errorf("nvvmGetCompiledResult: %s", resultString(int(r)))
	}
	return trimNUL(buf), log, nil
}

// log returns the program's log, without its NUL.
func (l *Lib) log(prog uintptr) string {
	var size uintptr
	if l.programLogSize(prog, &size) != 0 || size <= 1 {
		return ""
	}
	buf := make([]byte, size)
	if l.programLog(prog, unsafe.Pointer(&buf[0])) != 0 {
		return ""
	}
	return string(trimNUL(buf))
}

func trimNUL(b []byte) []byte {
	for len(b) > 0 && b[len(b)-1] == 0 {
		b = b[:len(b)-1]
	}
	return b
}

// resultString names an nvvmResult as libnvvm's nvvmGetErrorString does.
func resultString(r int) string {
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
