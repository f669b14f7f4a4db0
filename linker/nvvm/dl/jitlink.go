package dl

import (
	"fmt"
	"runtime"
	"strings"
	"unsafe"

	"github.com/cudalink/cudalink/linker/nvvm"
	"github.com/ebitengine/purego"
)

// JitLink is a loaded libnvJitLink: CUDA 12's public link-time
// optimization library. nvcc 12.x stores -dlto IR encoded in the
// fatbinary (entry flag 0x10000), a form libnvvm does not take and that
// no public document describes; nvJitLink takes the fatbinary as it is
// (nvJitLinkAddData, NVJITLINK_INPUT_FATBIN), and with -lto -ptx gives
// the PTX of the optimized program (nvJitLinkGetLinkedPtx), which -Xnvvm
// options make what nvlink's libnvvm gives.
type JitLink struct {
	Path    string // the file that was loaded
	version string // the API version of the symbols used: "12_4"

	create      func(h *uintptr, n uint32, opts unsafe.Pointer) int32
	destroy     func(h *uintptr) int32
	addData     func(h uintptr, kind int32, data unsafe.Pointer, size uintptr, name unsafe.Pointer) int32
	complete    func(h uintptr) int32
	ptxSize     func(h uintptr, size *uintptr) int32
	ptx         func(h uintptr, buf unsafe.Pointer) int32
	errorSize   func(h uintptr, size *uintptr) int32
	errorLog    func(h uintptr, buf unsafe.Pointer) int32
	infoLogSize func(h uintptr, size *uintptr) int32
	infoLog     func(h uintptr, buf unsafe.Pointer) int32
}

// inputFatbin is NVJITLINK_INPUT_FATBIN.
const inputFatbin = 4

// openJitLink binds the loaded library h as nvJitLink if it is one: its
// entry points are versioned (__nvJitLinkCreate_12_4), and the newest
// version it has is used. It returns nil when h has none.
func openJitLink(h uintptr, path string) (*JitLink, error) {
	version := ""
	for minor := 9; minor >= 0; minor-- {
		v := fmt.Sprintf("12_%d", minor)
		if _, err := purego.Dlsym(h, "__nvJitLinkCreate_"+v); err == nil {
			version = v
			break
		}
	}
	if version == "" {
		return nil, nil
	}
	j := &JitLink{Path: path, version: version}
	for _, f := range []struct {
		name string
		fn   any
	}{
		{"Create", &j.create},
		{"Destroy", &j.destroy},
		{"AddData", &j.addData},
		{"Complete", &j.complete},
		{"GetLinkedPtxSize", &j.ptxSize},
		{"GetLinkedPtx", &j.ptx},
		{"GetErrorLogSize", &j.errorSize},
		{"GetErrorLog", &j.errorLog},
		{"GetInfoLogSize", &j.infoLogSize},
		{"GetInfoLog", &j.infoLog},
	} {
		sym, err := purego.Dlsym(h, "__nvJitLink"+f.name+"_"+version)
		if err != nil {
			return nil, fmt.Errorf("%s has __nvJitLinkCreate_%s but no __nvJitLink%s_%s: not a libnvJitLink", path, version, f.name, version)
		}
		purego.RegisterFunc(f.fn, sym)
	}
	return j, nil
}

// Compile links the modules, each a fatbinary holding LTO IR, with
// nvJitLink's options (which must ask for -lto -ptx) and returns the
// linked PTX (without its NUL) and nvJitLink's information log. A failure
// is an error that holds nvJitLink's error log; a module nvJitLink
// refuses is a *nvvm.ModuleError.
func (j *JitLink) Compile(modules []nvvm.Module, options []string) (ptx []byte, log string, err error) {
	// The handle may refer to the options until it is gone.
	opts, keep := cStrings(options)
	defer runtime.KeepAlive(keep)
	var h uintptr
	// Without a CUDA driver and device (a build machine), nvJitLinkCreate
	// notes that cuInit failed and returns NVJITLINK_ERROR_INTERNAL, yet
	// makes the handle, which links as well: only a missing handle is a
	// failure here.
	status := j.create(&h, uint32(len(options)), opts)
	if h == 0 {
		return nil, "", fmt.Errorf("nvJitLinkCreate: %s", jitLinkResult(status))
	}
	defer j.destroy(&h)
	for _, m := range modules {
		if len(m.IR) == 0 {
			return nil, "", &nvvm.ModuleError{Module: m.Name, Status: 4}
		}
		name := append([]byte(m.Name), 0)
		if r := j.addData(h, inputFatbin, unsafe.Pointer(&m.IR[0]), uintptr(len(m.IR)), unsafe.Pointer(&name[0])); r != 0 {
			return nil, j.errors(h), &nvvm.ModuleError{Module: m.Name, Status: 4}
		}
	}
	if r := j.complete(h); r != 0 {
		return nil, "", fmt.Errorf("nvJitLink could not link the LTO IR (%s):\n%s", jitLinkResult(r), j.errors(h))
	}
	log = j.text(h, j.infoLogSize, j.infoLog)
	var size uintptr
	if r := j.ptxSize(h, &size); r != 0 || size == 0 {
		return nil, log, fmt.Errorf("nvJitLinkGetLinkedPtxSize: %s", jitLinkResult(r))
	}
	buf := make([]byte, size)
	if r := j.ptx(h, unsafe.Pointer(&buf[0])); r != 0 {
		return nil, log, fmt.Errorf("nvJitLinkGetLinkedPtx: %s", jitLinkResult(r))
	}
	return trimNUL(buf), log, nil
}

// OneShot says that a helper process serves one nvJitLink link and exits
// (nvvm.OneShot): nvJitLinkCreate and nvJitLinkDestroy crash at random
// (SIGSEGV) in a process that has linked before; a process that links
// once never did (40 of 40 one-shot links of a CUDA 12.5 case, against a
// crash in most runs of the 12.x LTO corpus through one helper).
func (j *JitLink) OneShot() bool { return true }

// errors is the error log without the note about cuInit that every link
// on a machine without a CUDA device gets.
func (j *JitLink) errors(h uintptr) string {
	var keep []string
	for line := range strings.SplitSeq(j.text(h, j.errorSize, j.errorLog), "\n") {
		if strings.TrimSpace(line) != "" && !strings.Contains(line, ": cuInit") {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, "\n")
}

// text reads one of nvJitLink's logs.
func (j *JitLink) text(h uintptr, sizeOf func(uintptr, *uintptr) int32, read func(uintptr, unsafe.Pointer) int32) string {
	var size uintptr
	if sizeOf(h, &size) != 0 || size <= 1 {
		return ""
	}
	buf := make([]byte, size)
	if read(h, unsafe.Pointer(&buf[0])) != 0 {
		return ""
	}
	return string(trimNUL(buf))
}

// jitLinkResult names an nvJitLinkResult as nvJitLink.h does.
func jitLinkResult(r int32) string {
	names := []string{
		"NVJITLINK_SUCCESS",
		"NVJITLINK_ERROR_UNRECOGNIZED_OPTION",
		"NVJITLINK_ERROR_MISSING_ARCH",
		"NVJITLINK_ERROR_INVALID_INPUT",
		"NVJITLINK_ERROR_PTX_COMPILE",
		"NVJITLINK_ERROR_NVVM_COMPILE",
		"NVJITLINK_ERROR_INTERNAL",
		"NVJITLINK_ERROR_THREADPOOL",
		"NVJITLINK_ERROR_UNRECOGNIZED_INPUT",
	}
	if r >= 0 && int(r) < len(names) {
		return names[r]
	}
	return fmt.Sprintf("nvJitLinkResult %d", r)
}
