package dl

import (
	"fmt"
	"runtime"
	"unsafe"

	"github.com/cudalink/cudalink/linker/nvvm"
	"github.com/ebitengine/purego"
)

// PTXCompiler is a loaded PTX compiler library: the toolkit's
// libnvptxcompiler_static.a made a shared library (scripts/setup.sh does
// it), the ptxas that nvlink has built in. It compiles PTX with ptxas's
// options into the cubin ptxas would write, in this process.
type PTXCompiler struct {
	Path string // the file that was loaded

	create      func(h *uintptr, size uintptr, ptx unsafe.Pointer) int32
	destroy     func(h *uintptr) int32
	compile     func(h uintptr, n int32, opts unsafe.Pointer) int32
	programSize func(h uintptr, size *uintptr) int32
	program     func(h uintptr, buf unsafe.Pointer) int32
	errorSize   func(h uintptr, size *uintptr) int32
	errorLog    func(h uintptr, buf unsafe.Pointer) int32
	infoSize    func(h uintptr, size *uintptr) int32
	infoLog     func(h uintptr, buf unsafe.Pointer) int32
}

// openPTXCompiler binds the loaded library h as a PTX compiler if it is
// one; it returns nil when h has no nvPTXCompilerCreate.
func openPTXCompiler(h uintptr, path string) (*PTXCompiler, error) {
	if _, err := purego.Dlsym(h, "nvPTXCompilerCreate"); err != nil {
		return nil, nil
	}
	c := &PTXCompiler{Path: path}
	for _, f := range []struct {
		name string
		fn   any
	}{
		{"Create", &c.create},
		{"Destroy", &c.destroy},
		{"Compile", &c.compile},
		{"GetCompiledProgramSize", &c.programSize},
		{"GetCompiledProgram", &c.program},
		{"GetErrorLogSize", &c.errorSize},
		{"GetErrorLog", &c.errorLog},
		{"GetInfoLogSize", &c.infoSize},
		{"GetInfoLog", &c.infoLog},
	} {
		sym, err := purego.Dlsym(h, "nvPTXCompiler"+f.name)
		if err != nil {
			return nil, fmt.Errorf("%s has nvPTXCompilerCreate but no nvPTXCompiler%s: not a PTX compiler library", path, f.name)
		}
		purego.RegisterFunc(f.fn, sym)
	}
	return c, nil
}

// Compile compiles the PTX of the one module with ptxas's options (no
// input or output file) and returns the cubin and what the compiler
// logged: its information log (warnings, -v's lines), then its error log,
// as ptxas prints them but for the input, which they call "application
// ptx input". A failed compile is an *nvvm.CompileError whose status is
// the nvPTXCompileResult, with that log.
func (c *PTXCompiler) Compile(modules []nvvm.Module, options []string) (cubin []byte, log string, err error) {
	if len(modules) != 1 {
		return nil, "", fmt.Errorf("the PTX compiler takes one module, not %d", len(modules))
	}
	// nvPTXCompilerCreate reads ptxCodeLen bytes; a NUL after them, as
	// ptxas has after a file's text, costs nothing.
	src := append(append(make([]byte, 0, len(modules[0].IR)+1), modules[0].IR...), 0)
	var h uintptr
	if r := c.create(&h, uintptr(len(src)-1), unsafe.Pointer(&src[0])); r != 0 {
		return nil, "", fmt.Errorf("nvPTXCompilerCreate: %s", nvvm.PTXCompileResultString(int(r)))
	}
	defer c.destroy(&h)
	opts, keep := cStrings(options)
	status := c.compile(h, int32(len(options)), opts)
	runtime.KeepAlive(keep)
	runtime.KeepAlive(src)
	log = c.logText(h, c.infoSize, c.infoLog) + c.logText(h, c.errorSize, c.errorLog)
	if status != 0 {
		return nil, log, &nvvm.CompileError{Status: int(status), Log: log}
	}
	var size uintptr
	if r := c.programSize(h, &size); r != 0 || size == 0 {
		return nil, log, fmt.Errorf("nvPTXCompilerGetCompiledProgramSize: %s", nvvm.PTXCompileResultString(int(r)))
	}
	cubin = make([]byte, size)
	if r := c.program(h, unsafe.Pointer(&cubin[0])); r != 0 {
		return nil, log, fmt.Errorf("nvPTXCompilerGetCompiledProgram: %s", nvvm.PTXCompileResultString(int(r)))
	}
	return cubin, log, nil
}

// logText returns one of the compiler's logs, without its NUL.
func (c *PTXCompiler) logText(h uintptr, size func(uintptr, *uintptr) int32, get func(uintptr, unsafe.Pointer) int32) string {
	var n uintptr
	if size(h, &n) != 0 || n <= 1 {
		return ""
	}
	buf := make([]byte, n)
	if get(h, unsafe.Pointer(&buf[0])) != 0 {
		return ""
	}
	return string(trimNUL(buf))
}
