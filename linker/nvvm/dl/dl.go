// Package dl loads the CUDA toolkit's libnvvm into this process without
// cgo (github.com/ebitengine/purego), for package nvvm. Importing it makes
// the program dynamically linked against libc (purego's fakecgo), which
// every run of it then pays for at start (ld.so, libc's pages: about 2.3
// MiB of resident memory and 0.6 ms): cudalink itself does not import it
// and runs libnvvm in the helper cudalink-nvvm, which does. Importing it
// (for its side effect, as tests do) makes nvvm.Open load libnvvm in
// process instead.
package dl

import (
	"errors"
	"fmt"
	"runtime"
	"unsafe"

	"github.com/cudalink/cudalink/linker/nvvm"
	"github.com/ebitengine/purego"
)

func init() { nvvm.LoadInProcess(Open) }

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

// Open loads the libnvvm (or libnvJitLink, see JitLink, or the PTX
// compiler, see PTXCompiler) at path. The
// error says what dlopen said. The caller serializes every call into the
// library (nvvm.Lib does): it keeps state of its own (LLVM's).
func Open(path string) (nvvm.Compiler, error) {
	h, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		return nil, err
	}
	if _, err := purego.Dlsym(h, "nvvmCreateProgram"); err != nil {
		// Not libnvvm: nvJitLink, for CUDA 12's encoded IR?
		j, jerr := openJitLink(h, path)
		if jerr != nil || j != nil {
			return j, jerr
		}
		// The PTX compiler, for PTX inputs?
		c, cerr := openPTXCompiler(h, path)
		if cerr != nil || c != nil {
			return c, cerr
		}
		return nil, fmt.Errorf("%s is neither libnvvm (no nvvmCreateProgram), libnvJitLink (no __nvJitLinkCreate_12_*) nor a PTX compiler library (no nvPTXCompilerCreate)", path)
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
	return l, nil
}

// OneShot says that a helper process serves one libnvvm compile and exits
// (nvvm.OneShot), as nvlink compiles once per process: libnvvm keeps
// LLVM's state between compiles, and a -g compile after another program's
// compile in the same process wrote other debug PTX (.nv_debug_ptx_txt
// without its callseq blocks) than the same compile in a fresh process
// (lto-devrt-device-launch-linked-debug-g-sm80 after an lto-cubin-* case).
func (l *Lib) OneShot() bool { return true }

// Compile makes one program of the modules, in order, and compiles it
// with options; it returns the PTX (without the terminating NUL) and what
// libnvvm logged.
func (l *Lib) Compile(modules []nvvm.Module, options []string) (ptx []byte, log string, err error) {
	var prog uintptr
	if r := l.createProgram(&prog); r != 0 {
		return nil, "", fmt.Errorf("nvvmCreateProgram: %s", nvvm.ResultString(int(r)))
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
			return nil, "", &nvvm.ModuleError{Module: m.Name, Status: 4}
		}
		name := append([]byte(m.Name), 0)
		r, _, _ := purego.SyscallN(add, prog, uintptr(unsafe.Pointer(&m.IR[0])), uintptr(len(m.IR)), uintptr(unsafe.Pointer(&name[0])))
		if int32(r) != 0 {
			return nil, "", &nvvm.ModuleError{Module: m.Name, Status: int(int32(r))}
		}
	}
	opts, keep := cStrings(options)
	status := l.compileProgram(prog, int32(len(options)), opts)
	runtime.KeepAlive(keep)
	log = l.log(prog)
	// A relocatable compile (--device-c) ends with status 100 on CUDA
	// 11.8, and its PTX is good: nvlink takes it.
	if status != 0 && status != 100 {
		return nil, log, &nvvm.CompileError{Status: int(status), Log: log}
	}
	var size uintptr
	if r := l.compiledResultSize(prog, &size); r != 0 || size == 0 {
		return nil, log, fmt.Errorf("nvvmGetCompiledResultSize: %s", nvvm.ResultString(int(r)))
	}
	buf := make([]byte, size)
	if r := l.compiledResult(prog, unsafe.Pointer(&buf[0])); r != 0 {
		return nil, log, fmt.Errorf("nvvmGetCompiledResult: %s", nvvm.ResultString(int(r)))
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

// cStrings returns strs as C's char *[]: an array of pointers to
// NUL-terminated copies, and a NULL after them. The array holds the copies
// as uintptrs, which the collector does not follow: the caller keeps keep
// alive (runtime.KeepAlive) until the library is done with the array.
func cStrings(strs []string) (array unsafe.Pointer, keep [][]byte) {
	keep = make([][]byte, len(strs))
	ptrs := make([]uintptr, len(strs)+1)
	for i, s := range strs {
		keep[i] = append([]byte(s), 0)
		ptrs[i] = uintptr(unsafe.Pointer(&keep[i][0]))
	}
	return unsafe.Pointer(&ptrs[0]), keep
}
