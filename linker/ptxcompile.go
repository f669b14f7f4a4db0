package linker

import (
	"bytes"
	"cmp"
	"context"
	"debug/elf"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/maphash"
	"iter"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/cudalink/cudalink/linker/fatbin"
	"github.com/cudalink/cudalink/linker/nvvm"
)

// ptxImage is PTX text a unit holds: a fatbinary's PTX entry (a host
// object's or a .fatbin's), or a whole .ptx input file. nvlink compiles
// it with its built-in ptxas when it has no better cubin for the target
// (chooseImage); cudalink compiles it with the toolkit's PTX compiler
// (--ptx-compiler: the program cudalink-ptxc, or the library in the
// helper cudalink-nvvm) or runs the toolkit's ptxas, either of which
// gives the same cubin for the same options (ptxCompiler).
type ptxImage struct {
	sm      int          // the virtual architecture: compute_<sm>; 0 for a .ptx file
	options string       // the ptxas options the fatbinary recorded with it
	entry   fatbin.Entry // the fatbinary entry holding the text
	text    []byte       // the text of a .ptx file
	file    bool         // a .ptx file: compiled for any target, as nvlink does
}

// archName is the virtual architecture the PTX is for, compute_80, or
// compute_90a for arch-specific PTX (nvcc -arch=compute_90a).
func (p *ptxImage) archName() string {
	if p.entry.Flags&fatbin.FlagArchSpecific != 0 {
		return "compute_" + strconv.Itoa(p.sm) + "a"
	}
	return "compute_" + strconv.Itoa(p.sm)
}

// source returns the PTX text, without the NUL padding a fatbinary adds.
func (p *ptxImage) source() ([]byte, error) {
	if p.file {
		return p.text, nil
	}
	data, err := p.entry.Data()
	if err != nil {
		return nil, err
	}
	return bytes.TrimRight(data, "\x00"), nil
}

// isaRelease is ptxISARelease of the PTX text, read (decompressed) only
// as far as its .version line when that comes early, as it does in what
// nvcc writes (a few comment lines first); 0 when the text cannot be read.
func (p *ptxImage) isaRelease() uint32 {
	if !p.file {
		if head, err := p.entry.Head(isaHead); err == nil {
			_, rest, found := bytes.Cut(head, []byte(".version"))
			if found && bytes.IndexByte(rest, '\n') >= 0 || uint64(len(head)) >= p.entry.Size {
				return ptxISARelease(head)
			}
		}
	}
	src, err := p.source()
	if err != nil {
		return 0
	}
	return ptxISARelease(src)
}

// isaHead is how much of a fatbinary's PTX isaRelease reads first.
const isaHead = 1024

// size is the PTX text's size: a fatbinary entry's as its header declares
// it (decompressed), without reading it.
func (p *ptxImage) size() uint64 {
	if p.file {
		return uint64(len(p.text))
	}
	return p.entry.Size
}

// parsePTXFile takes a .ptx input. nvlink 11.8 compiles a file named .ptx
// whose first directive is .version, whatever its .target (ptxas refuses a
// target above -arch), and refuses one that does not start so ("Binary
// format ... is not recognized").
func parsePTXFile(path string, data []byte) ([]*Object, error) {
	if !startsWithVersion(data) {
		return nil, &linkError{file: path, msg: "not PTX: a .ptx input must begin with a .version directive"}
	}
	u := &unit{id: 1, ptx: []ptxImage{{text: data, file: true}}}
	return []*Object{{Name: path, unit: u}}, nil
}

// ptxISARelease is the CUDA release whose ptxas first takes the PTX ISA
// of text's .version directive, as major*10+minor: ISA 7.N came with CUDA
// 11.N, 8.N with 12.N (8.4: 12.4); 0 for older ISAs or without one.
func ptxISARelease(text []byte) uint32 {
	_, rest, ok := bytes.Cut(text, []byte(".version"))
	if !ok {
		return 0
	}
	rest = bytes.TrimLeft(rest, " \t")
	major, minor, ok := bytes.Cut(rest, []byte("."))
	m, err := strconv.Atoi(string(major))
	if !ok || err != nil || m < 7 || len(minor) == 0 || !isDigit(minor[0]) || len(minor) > 1 && isDigit(minor[1]) {
		return 0
	}
	return uint32((m+4)*10 + int(minor[0]-'0'))
}

// startsWithVersion says whether the first token of PTX text, after white
// space and comments, is the .version directive.
func startsWithVersion(data []byte) bool {
	for {
		data = bytes.TrimLeft(data, " \t\r\n\f\v")
		switch {
		case bytes.HasPrefix(data, []byte("//")):
			i := bytes.IndexByte(data, '\n')
			if i < 0 {
				return false
			}
			data = data[i+1:]
		case bytes.HasPrefix(data, []byte("/*")):
			i := bytes.Index(data[2:], []byte("*/"))
			if i < 0 {
				return false
			}
			data = data[2+i+2:]
		default:
			return bytes.HasPrefix(data, []byte(".version")) && len(data) > len(".version") &&
				strings.IndexByte(" \t\r\n", data[len(".version")]) >= 0
		}
	}
}

// unitGroups yields the runs of objects that belong to one unit (a parse
// lists a unit's images together).
func unitGroups(objs []*Object) iter.Seq[[]*Object] {
	return func(yield func([]*Object) bool) {
		for i := 0; i < len(objs); {
			j := i + 1
			for j < len(objs) && objs[j].unit == objs[i].unit {
				j++
			}
			if !yield(objs[i:j]) {
				return
			}
			i = j
		}
	}
}

// CompileCache keeps ptxas's results between links: the persistent
// worker's ObjectCache implements it too. key names the PTX text, the
// ptxas options and the compiler (the ptxas binary or the PTX compiler);
// compile runs it when there is no entry. Failures are not kept.
// Implementations must be safe for concurrent use.
type CompileCache interface {
	// Compiled returns the entry for key, calling compile to make it
	// when there is none.
	Compiled(key string, compile func() (*Compiled, error)) (*Compiled, error)
}

// Compiled is what one successful ptxas run made: the relocatable cubin
// and what ptxas printed (warnings, -v info), with the input's name left
// as inputMarker.
type Compiled struct {
	Cubin    []byte // the relocatable cubin
	Messages []byte // what ptxas printed
}

// ptxJob is the compile of one PTX image for this link.
type ptxJob struct {
	name string    // the input, as messages name it
	img  *ptxImage // what is compiled
	res  *Compiled // its result, when ptxas succeeded
	err  error     // why there is no result
}

// inputMarker stands for the compiled PTX in ptxas's messages: ptxas names
// the file it reads, and cudalink shows the input it came from instead.
const inputMarker = "cudalink-ptx-input.ptx"

// ptxasOutput is the cubin ptxas writes, beside its input.
const ptxasOutput = "cudalink-ptx-output.cubin"

// compilePTX runs ptxas on every PTX image selectImages will choose for
// the target, in parallel (at most Config.Parallelism at once), the
// largest PTX first; the results wait in ctx.ptxJobs, and selectImages
// takes them in command-line order, so what is printed and linked does
// not depend on which compile ends first.
func (ctx *linkContext) compilePTX(slots [][]*Object) {
	cfg := ctx.config
	var jobs []*ptxJob
	for _, objs := range slots {
		for group := range unitGroups(objs) {
			if ctx.lto.units[group[0].unit] {
				continue
			}
			if _, p := chooseImage(group, cfg.imageTarget()); p != nil {
				if _, done := ctx.ptxJobs[p]; !done {
					job := &ptxJob{name: group[0].Name, img: p}
					if ctx.ptxJobs == nil {
						ctx.ptxJobs = map[*ptxImage]*ptxJob{}
					}
					ctx.ptxJobs[p] = job
					jobs = append(jobs, job)
				}
			}
		}
	}
	if len(jobs) == 0 {
		return
	}
	jobImages := func() []*ptxImage {
		imgs := make([]*ptxImage, len(jobs))
		for i, job := range jobs {
			imgs[i] = job.img
		}
		return imgs
	}
	if ctx.refuseArchSpecificBefore(slots, jobImages) {
		ctx.ptxFailed = true
		return
	}
	pc, err := findPTXCompiler(cfg)
	if err != nil {
		for _, job := range jobs {
			job.err = err
		}
		return
	}
	cache, _ := cfg.Cache.(CompileCache)
	ctx.useParallelism()
	// The largest first: a compile's time grows with its PTX, and one
	// large file started after the small ones would run alone at the
	// end, the other compilers idle (nine files of 2 KB of PTX and one
	// of 300 KB last: 959-1,022 ms of wall time in command-line order,
	// 859-869 so; docs/benchmarks.md, perf20). Ties keep command-line
	// order.
	slices.SortStableFunc(jobs, func(a, b *ptxJob) int { return cmp.Compare(b.img.size(), a.img.size()) })
	var g errgroup.Group
	g.SetLimit(cfg.Parallelism)
	panics := make([]*goPanic, len(jobs))
	for i, job := range jobs {
		g.Go(func() error {
			defer catch(&panics[i])
			job.res, job.err = compileJob(cfg, pc, cache, job.img)
			return nil
		})
	}
	g.Wait()
	rethrow(panics) // on the link's goroutine, where the caller can recover it
	ctx.releaseCompiler(pc.lib)
	ctx.warnNewerCompiler(pc, slots, jobs)
}

// warnNewerCompiler gives cudalink's own warning when the PTX compiler is
// of a newer release than the inputs (12.4's ptxas first on PATH, CUDA
// 11.8 objects): the cubins it wrote record its release, so the link is
// what that release's nvlink makes of them (chooseToolkit), with that
// ptxas's code, not what the inputs' nvlink writes with its built-in
// ptxas (repro: 11.8 compute_80 objects and 12.4's ptxas, other SASS and
// e_version). The compiler's release is the compiled cubins' e_version,
// which costs nothing; nvlink has no such choice to warn about. With
// --cuda-version, a newer cubin is refused instead (chooseToolkit).
func (ctx *linkContext) warnNewerCompiler(pc *ptxCompiler, slots [][]*Object, jobs []*ptxJob) {
	cfg := ctx.config
	if cfg.CUDAVersion != 0 {
		return
	}
	var compiled uint32
	for _, job := range jobs {
		if job.err == nil && job.res != nil && len(job.res.Cubin) >= 24 {
			compiled = max(compiled, le.Uint32(job.res.Cubin[20:]))
		}
	}
	if compiled == 0 {
		return
	}
	inputs := ctx.imagesRelease(slots)
	for _, job := range jobs {
		if inputs >= compiled {
			return
		}
		inputs = max(inputs, job.img.isaRelease()) // read only when the images did not tell
	}
	if inputs == 0 || inputs >= compiled {
		return
	}
	ctx.newerCompilerWarning(pc.lib != nil, pc.ptxas, compiled, inputs)
}

// newerCompilerWarning is the warning of warnNewerCompiler and
// warnNewerLTOCompiler: the PTX compiler (the library when lib, else
// ptxas) wrote code of release compiled for inputs of release inputs.
// It is given once a link, whichever compile met it first.
func (ctx *linkContext) newerCompilerWarning(lib bool, ptxas string, compiled, inputs uint32) {
	if ctx.newerCompilerWarned {
		return
	}
	ctx.newerCompilerWarned = true
	which, instead := compilerNames(lib, ctx.config.PTXCompiler, ptxas)
	ctx.ownWarnf("%s is CUDA %s's, newer than the inputs (CUDA %s): the code it compiled is CUDA %s's, and the link is what nvlink %s makes of it, not nvlink %s's; for that, pass %s of CUDA %s",
		which, versionString(compiled), versionString(inputs), versionString(compiled), versionString(compiled), versionString(inputs), instead, versionString(inputs))
}

// refuseArchSpecificBefore refuses an arch-specific target (sm_90a,
// compute_90a) before anything is compiled for it, when the inputs slots
// and the PTX images imgs gives (asked only for such a target) say the
// link reproduces nvlink 11.8 (ptxLinkRelease), and reports whether it
// did. nvlink 11.8 refuses the value while it reads its command line,
// before it compiles anything; its ptxas would refuse the target too
// ("Value 'sm_90a' is not defined for option 'gpu-name'"), for -dlto
// after libnvvm. The PTX pass (compilePTX) and -dlto (gatherLTOInputs)
// ask it; chooseToolkit refuses a link of cubins the same way once they
// are added.
func (ctx *linkContext) refuseArchSpecificBefore(slots [][]*Object, imgs func() []*ptxImage) bool {
	cfg := ctx.config
	if !cfg.ArchSpecific && !cfg.FatbinArchSpecific {
		return false
	}
	v := ctx.ptxLinkRelease(slots, imgs())
	if v == 0 || toolkitFor(v).archSpecific {
		return false
	}
	ctx.refuseArchSpecific(toolkitFor(v))
	return true
}

// ptxLinkRelease is the release a link whose PTX images imgs are about
// to be compiled reproduces, as far as its inputs slots tell it before
// addInputs: --cuda-version's, else the newest of what the images read
// record, the images of other architectures beside the PTX, and the
// PTX's ISA; 0 when nothing tells.
func (ctx *linkContext) ptxLinkRelease(slots [][]*Object, imgs []*ptxImage) uint32 {
	if v := ctx.config.CUDAVersion; v != 0 {
		return v
	}
	v := ctx.imagesRelease(slots)
	for _, p := range imgs {
		v = max(v, p.isaRelease())
	}
	return v
}

// imagesRelease is the newest release the images of the inputs slots
// record before addInputs (readRelease), with those of other
// architectures that parsing skipped (the SASS beside a PTX image); 0
// when none tells.
func (ctx *linkContext) imagesRelease(slots [][]*Object) uint32 {
	v := ctx.readRelease()
	for _, objs := range slots {
		for group := range unitGroups(objs) {
			v = max(v, group[0].unit.skippedRelease(group[0].Name))
		}
	}
	return v
}

// releaseCompiler ends the helper processes of lib (the PTX compiler or
// libnvvm, nil for ptxas) once the link has compiled all it compiles
// with it, when the process exits after the link: each frees its
// compiler's memory and exits while the link goes on, side by side,
// rather than one after the other when the process ends (nvvm.Release;
// tests/bench's PTX 10 and LTO 10 links, docs/benchmarks.md, perf20).
func (ctx *linkContext) releaseCompiler(lib *nvvm.Lib) {
	if ctx.exitsAfter && lib != nil {
		lib.Release()
	}
}

// compiledObject prints what ptxas said about the image and parses the
// cubin it made, as the input name's device code; nil after an error.
func (ctx *linkContext) compiledObject(name string, u *unit, p *ptxImage) *Object {
	job := ctx.ptxJobs[p]
	what := "the PTX"
	if !p.file {
		what = "the " + p.archName() + " PTX"
	}
	if job == nil || job.err != nil {
		var err error = errors.New("not compiled")
		if job != nil {
			err = job.err
		}
		var pe *ptxasError
		if errors.As(err, &pe) {
			ctx.writeMessages(pe.output, name, p)
			// nvlink stops at the first PTX its ptxas refuses
			// ("elfLink fatbinary error"): nothing is read, compiled
			// or printed for the inputs after it (addInputs). A
			// compiler that cannot be run is reported for every input.
			ctx.ptxFailed = true
		}
		ctx.report(&linkError{file: name, msg: fmt.Sprintf("cannot compile %s for %s: %v%s", what, ctx.config.smName(), err, ctx.olderCompilerHint(pe, ctx.failedPTXRelease(pe, name, u, p)))})
		return nil
	}
	ctx.writeMessages(job.res.Messages, name, p)
	ctx.ptxasRan()
	obj, err := parseObject(name, job.res.Cubin)
	if err != nil {
		ctx.report(&linkError{file: name, msg: fmt.Sprintf("the cubin ptxas made of %s: %v", what, err)})
		return nil
	}
	obj.unit = u
	return obj
}

// writeMessages passes ptxas's messages on as it printed them (nvlink
// prints its built-in ptxas's messages the same way, "ptxas warning :
// ..."), naming the input instead of the temporary file.
func (ctx *linkContext) writeMessages(msgs []byte, name string, p *ptxImage) {
	if len(msgs) == 0 {
		return
	}
	shown := name
	if !p.file {
		shown = fmt.Sprintf("%s (compute_%d PTX)", name, p.sm)
	}
	msgs = bytes.ReplaceAll(msgs, []byte(inputMarker), []byte(shown))
	d := &ctx.diag
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.suffix != "" {
		// -report-arch: nvlink ends each of its ptxas's lines with the
		// target too, warnings and errors alike (measured with 11.8 and
		// 12.4: spill warnings of a compute_60-only object linked for
		// sm_80, the errors of a bad .ptx input).
		var b bytes.Buffer
		for line := range bytes.Lines(msgs) {
			text, nl := bytes.CutSuffix(line, []byte("\n"))
			b.Write(text)
			if len(text) > 0 {
				b.WriteString(d.suffix)
			}
			if nl {
				b.WriteByte('\n')
			}
		}
		msgs = b.Bytes()
	}
	if d.w != nil {
		d.w.Write(msgs)
	}
}

// olderCompilerHint says, for a compile the PTX compiler refused (pe; nil
// for other failures), when that compiler is of an older release than the
// PTX's inputs (ptxas 11.8 first on PATH, the inputs CUDA 12.4's): nvlink
// compiles with its built-in ptxas, always its own release's, so a newer
// target (sm_90a) or PTX ISA that the older ptxas refuses links with
// nvlink. "" when the releases cannot be told or the compiler is not
// older. Asked only after a failure: ptxas --version is a process.
func (ctx *linkContext) olderCompilerHint(pe *ptxasError, inputs uint32) string {
	if pe == nil {
		return ""
	}
	cfg := ctx.config
	var compiler uint32
	var ptxas string
	if pe.lib {
		compiler = ptxCompilerRelease(cfg.PTXCompiler)
	} else if p, err := findPtxas(cfg.Ptxas); err == nil {
		compiler, ptxas = ptxasRelease(p), p
	}
	which, instead := compilerNames(pe.lib, cfg.PTXCompiler, ptxas)
	if compiler == 0 || inputs == 0 || compiler >= inputs {
		return ""
	}
	return fmt.Sprintf("; %s is CUDA %s's, older than the inputs (CUDA %s), whose nvlink compiles with its own release's ptxas: pass %s",
		which, versionString(compiler), versionString(inputs), instead)
}

// failedPTXRelease is ptxRelease for the image p of unit u of input name
// whose compile failed with pe; 0 when it did not fail in the compiler.
func (ctx *linkContext) failedPTXRelease(pe *ptxasError, name string, u *unit, p *ptxImage) uint32 {
	if pe == nil {
		return 0
	}
	src, _ := p.source()
	return ctx.ptxRelease(src, name, u)
}

// ptxRelease is the release of the PTX text src of a link, for
// olderCompilerHint: the link's as far as the inputs read so far tell it
// (--cuda-version's when given), else the newest of that, the other
// images of the PTX's unit u of input name (nil for libnvvm's PTX: the
// SASS for other architectures beside the PTX), and the PTX's ISA.
func (ctx *linkContext) ptxRelease(src []byte, name string, u *unit) uint32 {
	if v := ctx.config.CUDAVersion; v != 0 {
		return v
	}
	v := max(ctx.readRelease(), ctx.inputsRelease(), ptxISARelease(src))
	if u != nil {
		v = max(v, u.skippedRelease(name))
	}
	return v
}

// compilerNames are the words cudalink's messages about the PTX
// compiler's release use: which compiler compiled (the PTX compiler
// program ptxc when lib, else ptxas), and the option that would choose
// another release's.
func compilerNames(lib bool, ptxc, ptxas string) (which, instead string) {
	if lib {
		return "the PTX compiler " + ptxc, "--ptx-compiler=<that release's cudalink-ptxc>"
	}
	return "ptxas " + ptxas, "--ptxas=<that toolkit>/bin/ptxas"
}

// ptxasError is a compile that failed: ptxas's exit status, or the PTX
// compiler library's nvPTXCompileResult, and what it printed (with
// inputMarker for the input).
type ptxasError struct {
	status int
	output []byte
	lib    bool // the PTX compiler library, not ptxas
}

func (e *ptxasError) Error() string {
	if e.lib {
		return fmt.Sprintf("the PTX compiler failed (%s); its messages are above", nvvm.PTXCompileResultString(e.status))
	}
	return fmt.Sprintf("ptxas failed (exit status %d); its messages are above", e.status)
}

// ptxCompiler compiles PTX for a link: the PTX compiler (--ptx-compiler),
// the library loaded in the helper cudalink-nvvm or the program
// cudalink-ptxc with the library linked in, which compiles every PTX
// image of the link (and of a persistent worker's links) in that one
// process, or else the toolkit's ptxas, a process per image.
// Both give the same cubin for the same options, as nvlink's built-in
// ptxas does.
type ptxCompiler struct {
	lib   *nvvm.Lib // the PTX compiler library, or nil
	ptxas string    // the ptxas to run when lib is nil
}

// findPTXCompiler returns the link's PTX compiler: the library or program
// --ptx-compiler names, else ptxas (findPtxas). A library that cannot be
// loaded is an error naming it, not a silent change of compiler.
func findPTXCompiler(cfg *Config) (*ptxCompiler, error) {
	if cfg.PTXCompiler != "" {
		open := func(path string) (*nvvm.Lib, error) { return nvvm.OpenWith(path, cfg.NVVMHelper) }
		if isProgram(cfg.PTXCompiler) {
			open = func(path string) (*nvvm.Lib, error) { return nvvm.OpenProgram(path, cfg.Parallelism) }
		}
		lib, err := open(cfg.PTXCompiler)
		if err != nil {
			return nil, fmt.Errorf("--ptx-compiler=%s cannot be loaded: %v", cfg.PTXCompiler, err)
		}
		return &ptxCompiler{lib: lib}, nil
	}
	ptxas, err := findPtxas(cfg.Ptxas)
	if err != nil {
		return nil, err
	}
	return &ptxCompiler{ptxas: ptxas}, nil
}

// isProgram says whether path is an executable ELF program (cudalink-ptxc,
// which serves the PTX compiler linked into it) rather than a shared
// library: of type ET_EXEC, or a position-independent executable (with
// an interpreter).
func isProgram(path string) bool {
	f, err := elf.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	if f.Type == elf.ET_EXEC {
		return true
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return true
		}
	}
	return false
}

// libInputName is how the PTX compiler library's messages name the PTX
// ("ptxas application ptx input, line 14; error ..."), where ptxas names
// the file it reads.
var libInputName = []byte("ptxas application ptx input")

// libContinuation starts the library's continuation lines of ptxas's -v
// report ("ptxas         .     0 bytes stack frame, ..."), where nvlink's
// built-in ptxas, and ptxas, indent by four spaces ("    0 bytes stack
// frame, ..."; 11.8, ptx-xptxas-given-twice-sm80).
var libContinuation = []byte("ptxas         . ")

// run compiles src with ptxas's options args (no input or output file).
func (pc *ptxCompiler) run(c context.Context, args []string, src []byte) (*Compiled, error) {
	if pc.lib == nil {
		return runPtxas(c, pc.ptxas, args, src)
	}
	cubin, log, err := pc.lib.Compile([]nvvm.Module{{Name: inputMarker, IR: src}}, args)
	msgs := bytes.ReplaceAll([]byte(log), libInputName, []byte("ptxas "+inputMarker))
	msgs = bytes.ReplaceAll(msgs, libContinuation, nil)
	if err != nil {
		var ce *nvvm.CompileError
		if errors.As(err, &ce) {
			return nil, &ptxasError{status: ce.Status, output: msgs, lib: true}
		}
		return nil, fmt.Errorf("the PTX compiler %s: %v", pc.lib.Path, err)
	}
	return &Compiled{Cubin: cubin, Messages: msgs}, nil
}

// key names a compile for CompileCache: the compiler (ptxas or the
// library: its path, size and modification time), the options and the
// PTX text.
func (pc *ptxCompiler) key(args []string, src []byte) string {
	if pc.lib == nil {
		return compileKey("ptxas:", pc.ptxas, args, src)
	}
	return compileKey("ptxlib:", pc.lib.Path, args, src)
}

// findPtxas returns the ptxas to run: --ptxas, else ptxas on PATH.
func findPtxas(given string) (string, error) {
	if given != "" {
		p, err := exec.LookPath(given)
		if err != nil {
			return "", fmt.Errorf("--ptxas=%s cannot be run: %v", given, err)
		}
		return filepath.Abs(p)
	}
	p, err := exec.LookPath("ptxas")
	if err != nil {
		return "", errors.New("ptxas was not found on PATH; install the CUDA toolkit's ptxas (the release the inputs were built with) or pass --ptxas=PATH (in Bazel, where the action has no PATH: set ptxas on the cuda_device_linker_toolchain)")
	}
	return filepath.Abs(p)
}

// ptxasArgs are the options nvlink 11.8 gives its built-in ptxas, in its
// order (later ones win where they repeat, with ptxas's "incompatible
// redefinition" warning), as measured by comparing its output with the
// toolkit's ptxas under each option: the target, the options the
// fatbinary recorded with the PTX (nvcc's -maxrregcount, -Xptxas,
// -lineinfo, -G; their -arch gives way to the target's, sm_90a for
// -arch=sm_90a: ptxas refuses .target sm_90a PTX for sm_90), nvlink's
// -Xptxas, nvlink's -maxrregcount (when positive), -g when nvlink has -g
// without -suppress-debug-info, and a relocatable compile whatever the
// fatbinary says. nvlink's -O, -v, -w and -Werror do not reach ptxas.
// -Xptxas's options are those chooseXptxas took for the release.
func ptxasArgs(cfg *Config, p *ptxImage) []string {
	args := []string{"-arch=" + cfg.smName()} // sm_90a PTX needs -arch=sm_90a
	opts := strings.Fields(p.options)
	for i := 0; i < len(opts); i++ {
		o := opts[i]
		switch {
		case o == "-arch" || o == "--gpu-name":
			i++ // and its value
		case strings.HasPrefix(o, "-arch=") || strings.HasPrefix(o, "--gpu-name="):
		default:
			args = append(args, o)
		}
	}
	args = append(args, cfg.ptxasOptions...)
	if cfg.MaxRegCount > 0 {
		args = append(args, "-maxrregcount="+strconv.Itoa(cfg.MaxRegCount))
	}
	if cfg.Debug && !cfg.SuppressDebugInfo {
		args = append(args, "-g")
	}
	return append(args, "-c")
}

// compileJob compiles one PTX image, through the cache when there is one.
func compileJob(cfg *Config, pc *ptxCompiler, cache CompileCache, p *ptxImage) (*Compiled, error) {
	src, err := p.source()
	if err != nil {
		return nil, err
	}
	args := ptxasArgs(cfg, p)
	compile := func() (*Compiled, error) { return pc.run(cfg.Context, args, src) }
	if cache == nil {
		return compile()
	}
	return cache.Compiled(pc.key(args, src), compile)
}

// compileKey names a compile: the kind of compiler (kind: "ptxas:" or
// "ptxlib:"), its file (path, size and modification time), the options
// and the PTX text.
func compileKey(kind, file string, args []string, src []byte) string {
	h := newKeyDigest()
	id := file
	if fi, err := os.Stat(file); err == nil {
		id += fmt.Sprintf("\x00%d\x00%d", fi.Size(), fi.ModTime().UnixNano())
	}
	fmt.Fprintf(h, "%d:%s", len(id), id)
	for _, a := range args {
		fmt.Fprintf(h, "%d:%s", len(a), a)
	}
	h.Write(src)
	return kind + h.sum()
}

// keyDigest names a compile for CompileCache: 256 bits, four 64-bit
// hashes of the same bytes under independent random seeds, drawn once per
// process (the caches live in one process). Not crypto/sha256: importing
// it initialises the crypto packages at the start of every cudalink
// process, links that compile nothing included.
type keyDigest [4]maphash.Hash

// keySeeds are the process's seeds of keyDigest.
var keySeeds = sync.OnceValue(func() (s [4]maphash.Seed) {
	for i := range s {
		s[i] = maphash.MakeSeed()
	}
	return s
})

func newKeyDigest() *keyDigest {
	d := new(keyDigest)
	for i, seed := range keySeeds() {
		d[i].SetSeed(seed)
	}
	return d
}

func (d *keyDigest) Write(p []byte) (int, error) {
	for i := range d {
		d[i].Write(p)
	}
	return len(p), nil
}

// sum is the digest in hexadecimal.
func (d *keyDigest) sum() string {
	var b []byte
	for i := range d {
		b = binary.BigEndian.AppendUint64(b, d[i].Sum64())
	}
	return hex.EncodeToString(b)
}

// runPtxas compiles src in a temporary directory of its own, removed
// afterwards.
func runPtxas(c context.Context, ptxas string, args []string, src []byte) (*Compiled, error) {
	dir, err := os.MkdirTemp("", "cudalink-ptxas-")
	if err != nil {
		return nil, fmt.Errorf("cannot make a directory for ptxas: %v", err)
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, inputMarker), src, 0o644); err != nil {
		return nil, fmt.Errorf("cannot write ptxas's input: %v", err)
	}
	var msgs bytes.Buffer
	err = ptxasCommand(c, ptxas, dir, args, &msgs).Run()
	return ptxasResult(ptxas, dir, msgs.Bytes(), err)
}

// ptxasCommand is ptxas with args, run in dir on its input there
// (inputMarker), writing ptxasOutput there and its messages to msgs.
func ptxasCommand(c context.Context, ptxas, dir string, args []string, msgs *bytes.Buffer) *exec.Cmd {
	if c == nil {
		c = context.Background()
	}
	cmd := exec.CommandContext(c, ptxas, append(args, "-o", ptxasOutput, inputMarker)...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = msgs, msgs
	return cmd
}

// ptxasResult is what a ptxasCommand in dir made, once it has exited with
// err: its cubin and messages, or the error.
func ptxasResult(ptxas, dir string, msgs []byte, err error) (*Compiled, error) {
	// Messages name the input as given (inputMarker); anything naming the
	// directory would not be the same from one run to the next.
	output := bytes.ReplaceAll(msgs, []byte(dir+string(filepath.Separator)), nil)
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.Exited() {
			return nil, &ptxasError{status: ee.ExitCode(), output: output}
		}
		return nil, fmt.Errorf("running %s: %v", ptxas, err)
	}
	cubin, err := os.ReadFile(filepath.Join(dir, ptxasOutput))
	if err != nil {
		return nil, fmt.Errorf("ptxas wrote no output: %v", err)
	}
	return &Compiled{Cubin: cubin, Messages: output}, nil
}
