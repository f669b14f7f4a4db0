package linker

import (
	"bytes"
	"context"
	"io"
	"strconv"
	"strings"
)

// An ArchTarget is one target of a multi-architecture link: the SM, and
// Specific for the arch-specific sm_90a.
type ArchTarget struct {
	// SM is the SM number: 90 for sm_90 and sm_90a.
	SM int
	// Specific is sm_90a, CUDA 12's arch-specific target.
	Specific bool
}

// String is the target as -arch names it and nvlink's messages spell it:
// sm_80, or sm_90a for the arch-specific target.
func (t ArchTarget) String() string {
	if t.Specific {
		return "sm_" + strconv.Itoa(t.SM) + "a"
	}
	return "sm_" + strconv.Itoa(t.SM)
}

// archName is the link's target as nvlink's messages spell it: as
// ArchTarget.String does (sm_80, sm_90a), or compute_80 or compute_90a
// for a virtual target.
func (cfg *Config) archName() string {
	if cfg.Virtual {
		return "compute_" + strings.TrimPrefix(cfg.smName(), "sm_")
	}
	return cfg.smName()
}

// smName is the real architecture of the link's target, sm_80 or sm_90a,
// also for a virtual target: the one ptxas compiles for.
func (cfg *Config) smName() string {
	return ArchTarget{cfg.Arch, cfg.ArchSpecific}.String()
}

// Config is everything one link needs, as the command line (or a worker
// request) states it. It holds no state of the link itself; that lives in
// linkContext.
type Config struct {
	// Arch is the target SM number: 80 for -arch=sm_80.
	Arch int
	// ArchSpecific is -arch=sm_90a (Arch 90): CUDA 12's arch-specific
	// target (or compute_90a, with Virtual). The output's e_flags carry EF_CUDA_ARCH_SPECIFIC, and a
	// host object's sm_90a image is taken over its sm_90 one.
	ArchSpecific bool
	// Virtual is -arch=compute_NN (Arch NN): a virtual target, which
	// nvlink links nothing for. It reads the inputs, writes only
	// --register-link-binaries (every input with device code, and
	// libcudadevrt), and leaves Output unwritten: nvcc -dlink runs it so
	// for PTX-only builds (-gencode arch=compute_NN,code=compute_NN,
	// CMake's NN-virtual). See listVirtualModules. Fatbin and
	// EmbeddedFatbin then hold no image, as nvcc's fatbinary command
	// after such a link writes them.
	Virtual bool
	// Output is the path of the file to write. The file is written to a
	// temporary name in the same directory and renamed only on success.
	Output string
	// Relocatable is -r (--relocatable), beyond nvlink: a partial link that
	// writes a relocatable cubin (ET_REL) combining the inputs, for a later
	// link to take as one input (docs/partial.md). It cannot be combined
	// with the outputs only a final link makes: see CheckRelocatable.
	Relocatable bool
	// Inputs are the input files and -l libraries in command-line order.
	Inputs []Input
	// LibDirs are the -L directories, searched in order for -l libraries.
	LibDirs []string

	Verbose bool // -v: print nvlink's per-function resource lines
	NoWarn  bool // -w: suppress warnings
	Werror  bool // -Werror: warnings are errors
	// Parallelism bounds the goroutines used for per-input work; 0 means
	// GOMAXPROCS. The output does not depend on it. A one-shot link
	// (OneShot) raises GOMAXPROCS to it before a pass works on several
	// goroutines (useParallelism): cmd/cudalink starts on one P.
	Parallelism int
	// Fatbin is --fatbin: also write a fatbinary of the linked cubin(s).
	Fatbin string
	// EmbeddedFatbin is --embedded-fatbin: also write the C source
	// 'fatbinary -link --embedded-fatbin' makes of that fatbinary.
	EmbeddedFatbin string
	// Archs, when it holds more than one target, links each of them (Arch
	// is ignored): the cubins go to Output with ".sm_NN" (".sm_90a")
	// before its extension (if Output is set) and all of them into the
	// fatbinary outputs.
	Archs []ArchTarget
	// FatbinArchSpecific: the image of this link is, in the fatbinary
	// outputs, nvcc -dlink's sm_90a target, which nvcc links with
	// nvlink --arch=sm_90 (ArchSpecific false: sm_90's e_flags) and
	// fatbinary marks arch-specific (--image3=...,sm=90a; measured with
	// 12.4 and 12.5).
	FatbinArchSpecific bool
	// ArchiveMode is --archive-mode: "" or "whole" links every archive
	// member, as nvlink 11.8 does; "on-demand" links only the members that
	// define a symbol the link needs.
	ArchiveMode string
	// TimeFile is --time: the CSV file to append nvlink's header and a row
	// per pass to ("-" for standard output).
	TimeFile string
	// MapFile is --map: where to write the link map ("" for none, "-" for
	// standard output, as --time=- and unlike -o -, which nvlink writes to
	// a file named "-").
	MapFile string
	// WhyLive is --why-live: names of functions or variables (plain,
	// without parameters, demangled or mangled) whose reason for being
	// kept or removed to print (explain.go).
	WhyLive []string
	// Context, if set, cancels the link: it stops at the next checkpoint
	// and never writes its output. The persistent worker sets it.
	Context context.Context
	// Cache, if set, supplies parsed inputs kept from earlier links (the
	// persistent worker). Output never depends on whether it is set.
	Cache ObjectCache
	// OneShot says the process runs this link and exits (the command
	// line, not the worker): the link may tune the Go runtime for itself
	// (see tuneCollector). Output never depends on it.
	OneShot bool

	// Stdout receives -v reports; Stderr receives diagnostics.
	Stdout io.Writer
	Stderr io.Writer
	// TimeStdout receives the --time table when TimeFile is "-", and the
	// link map when MapFile is "-" (nil: Stdout). nvlink writes that table
	// on its standard output and its -v report on standard error, so the
	// command line gives the process's stdout here and its stderr as
	// Stdout.
	TimeStdout io.Writer

	// The fields below hold nvlink's other options. linker/cli refuses a
	// link that sets an option the linker does not act on yet (its notYet
	// mark: -g, -suppress-debug-info, -preserve-relocs, ...).

	// CPUArch is -cpu-arch: the host CPU named by nvlink's spelling
	// ("X86_64", "AARCH64", ...), or "" or "unknown" when not given. nvlink
	// skips an -l archive whose host objects are for another CPU, with
	// "Skipping incompatible '<path>' when searching for -l<name>".
	CPUArch string
	// Debug is -g (--debug): the inputs were compiled for debugging; it
	// changes the output even for inputs without debug information.
	Debug bool
	// SuppressDebugInfo is -suppress-debug-info: drop debug sections from
	// the output. nvlink refuses it without -g.
	SuppressDebugInfo bool
	// KernelsUsed is -kernels-used: when not empty, only kernels whose name
	// contains one of these strings are roots of dead-code elimination.
	KernelsUsed []string
	// VariablesUsed is -variables-used. nvlink 11.8 keeps every variable
	// of relocatable code whatever it says, but the option switches kernel
	// pruning on: without KernelsUsed no kernel is a root.
	VariablesUsed []string
	// IgnoreHostInfo is -ignore-host-info: do not remove kernels that the
	// host objects' reference lists (.nvHRKE and friends) leave unreferenced.
	IgnoreHostInfo bool
	// KeepSystemLibraries is -keep-system-libraries: do not remove unused
	// code of system libraries such as libcudadevrt.a.
	KeepSystemLibraries bool
	// PreserveRelocs is -preserve-relocs: write every relocation the linker
	// applied to .nv.resolvedrela<section>, keep every function and local
	// symbol, as nvlink does (relocate.go).
	PreserveRelocs bool
	// DumpCallgraph is -dump-callgraph: print nvlink's text of the call
	// graph on Stderr (callgraphdump.go). DumpCallgraphNoDemangle is
	// -dump-callgraph-no-demangle, which nvlink 11.8 prints demangled all
	// the same; the command line refuses both together, as nvlink does.
	DumpCallgraph           bool
	DumpCallgraphNoDemangle bool
	// SuppressArchWarning is -suppress-arch-warning: no warning for an
	// input without code for the target ("SM Arch ('sm_75') not found").
	SuppressArchWarning bool
	// SuppressStackSizeWarning is -suppress-stack-size-warning: no warning
	// for an entry whose stack size cannot be determined statically.
	SuppressStackSizeWarning bool
	// ExtraWarnings is -extrawarn: warn, as nvlink 11.8 does, about every
	// kept function whose address is taken but that no kept code calls.
	ExtraWarnings bool
	// ReportArch is -report-arch: error messages end with " (target: sm_NN)".
	ReportArch bool
	// RegisterLinkBinaries is --register-link-binaries: the file to write
	// with "#define NUM_PRELINKED_OBJECTS n" and one
	// "DEFINE_REGISTER_FUNC(<module id>)" line per linked object; "" if none.
	RegisterLinkBinaries string

	// Ptxas is --ptxas: the ptxas that compiles PTX inputs which have no
	// cubin for the target (ptxcompile.go); "" looks for ptxas on PATH.
	// A link without such inputs never runs it.
	Ptxas string
	// PTXCompiler is --ptx-compiler: the toolkit's PTX compiler
	// (libnvptxcompiler_static.a), as the program cudalink-ptxc or as a
	// shared library loaded in the helper cudalink-nvvm, which compiles
	// that PTX, and libnvvm's under LTO, in one process instead of a
	// ptxas process per compile; "" runs ptxas.
	PTXCompiler string
	// PtxasOptions are -Xptxas's values, one per -Xptxas as given. ptxas
	// gets them after the options recorded with the PTX as the release's
	// nvlink gives them (xptxas.go): 11.8's the last, split at white
	// space; 12.x's all, split at commas and white space.
	PtxasOptions []string
	// XptxasRedefined names, as nvlink's warning does ("Xptxas", however
	// spelt), each -Xptxas that changed the value of the one before: nvlink
	// 11.8 warns of each ("incompatible redefinition"), nvlink 12.x of none.
	XptxasRedefined []string
	// ptxasOptions are the options ptxas gets of PtxasOptions, for the
	// link's release (chooseXptxas).
	ptxasOptions []string
	// MaxRegCount is -maxrregcount for ptxas (and for libnvvm under
	// LTO); 0 or less gives none.
	MaxRegCount int
	// written records the output files written, for Run to remove should
	// the link panic after writing some.
	written *writtenFiles

	// LTO is -lto (-dlto): the NVVM IR of every input that has some is
	// optimized and compiled as one program by the toolkit's libnvvm,
	// NVVMPath/lib64/libnvvm.so, and the PTX it gives is compiled by
	// ptxas and linked with the other inputs (lto.go).
	LTO      bool
	NVVMPath string
	// NVJitLink is --nvjitlink: the libnvJitLink.so.12 that reads the
	// IR of CUDA 12.x -dlto objects, which nvcc 12.x stores encoded
	// (lto.go); "" looks beside NVVMPath.
	NVJitLink string
	// NVVMHelper is --nvvm-helper: the cudalink-nvvm that loads those
	// libraries; "" looks for it (package nvvm).
	NVVMHelper string
	// EmitPTX is -emit-ptx: with LTO, write libnvvm's PTX to Output and
	// link nothing.
	EmitPTX bool
	// ForcePartialLTO is -force-partial-lto: the IR is compiled as when an
	// input has no IR (libnvvm's --device-c --force-device-c, relocatable
	// ptxas output) and linked, libcudadevrt with it; no info line.
	ForcePartialLTO bool
	// ForceWholeLTO is -force-whole-lto: when every input has IR, ptxas
	// compiles a whole program, as with libcudadevrt, and the link then
	// stops (nvlink: "expected libcudadevrt object"). It changes nothing
	// when an input has none (nvlink 11.8, 12.4, 12.5).
	ForceWholeLTO bool

	// XNVVM are -Xnvvm's options (nvlink 12.x), split at commas and white
	// space: with LTO, libnvvm gets them after nvlink's own options, and
	// then the floating-point options the objects recorded that they do
	// not set (lto.go).
	XNVVM []string
	// SplitCompile and SplitCompileExtended are --split-compile N and
	// --split-compile-extended N (nvlink 12.x) as libnvvm gets them with
	// LTO ("-split-compile=N"): "" when not given or 1, nvlink's default.
	SplitCompile, SplitCompileExtended string
	// CUDA12Options are the options given, as spelt, that nvlink 12.x has
	// and nvlink 11.8 does not know (-Xnvvm, --split-compile,
	// --split-compile-extended): a link reproducing 11.8 refuses them.
	CUDA12Options []string

	// CUDAVersion is --cuda-version: the nvlink release to reproduce, as
	// major*10+minor (124 for 12.4; see ParseToolkit), or 0 to take the
	// newest release that wrote an input (see toolkit).
	CUDAVersion uint32

	// forFatbin: this is one architecture's link of a multi-arch run whose
	// images go into a fatbinary, so the image is kept in memory.
	forFatbin bool
	// In one architecture's link of a multi-arch run: archLabel is its
	// target ("sm_80"), which heads its --why-live answers, and mapOut
	// gets its link map, which runArchs writes to MapFile after every
	// architecture's, in -arch order.
	archLabel string
	mapOut    *bytes.Buffer
}

// Input is one input on the command line: a file, or a library named with
// -l that is searched for in LibDirs as lib<Name>.a.
type Input struct {
	Path    string // the file, or the library's name for -l
	Library bool   // Path is the name given to -l
}

// ObjectCache keeps parsed inputs between links. The persistent worker
// supplies one that knows, from the digests Bazel sends, whether a file
// changed. Implementations must be safe for concurrent use: inputs are
// loaded in parallel.
type ObjectCache interface {
	// Objects returns the parsed objects of the file at path, calling load
	// to read and parse it when there is no current entry for it.
	Objects(path string, load func() ([]*Object, error)) ([]*Object, error)
}
