package linker

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/cudalink/cudalink/linker/cubin"
	"github.com/cudalink/cudalink/linker/fatbin"
	"github.com/cudalink/cudalink/linker/hostobj"
	"github.com/cudalink/cudalink/linker/nvvm"
)

// irImage is the NVVM IR a unit holds for link-time optimization (nvcc
// -dlto, or -gencode code=lto_XX): a fatbinary entry of kind 8, with the
// cicc options nvcc recorded beside it ("-ftz=0 -prec_div=1 -prec_sqrt=1
// -fmad=1", and "-maxreg N", "-generate-line-info" when given).
type irImage struct {
	sm      int
	options string
	entry   fatbin.Entry
}

// irFor returns the unit's IR of the highest architecture not above the
// target (the first of equals), or nil.
func (u *unit) irFor(target int) *irImage {
	var best *irImage
	for i := range u.nvvm {
		if p := &u.nvvm[i]; p.sm <= target && (best == nil || p.sm > best.sm) {
			best = p
		}
	}
	return best
}

// ltoState is what link-time optimization leaves for the rest of the
// link. Each field names the one step that writes it.
type ltoState struct {
	// units are those whose IR went to libnvvm: nothing else of them is
	// linked (gatherLTOInputs; nil when libnvvm could not be loaded).
	units map[*unit]bool
	// program is the IR to compile, nil if there is none
	// (gatherLTOInputs).
	program *ltoProgram
	// at is the unit where obj is linked (gatherLTOInputs): the last LTO
	// input's, or a later input's that has no image for the target.
	at *unit
	// unreadable are the LTO inputs whose IR could not be read
	// (gatherLTOInputs), reported with the undefined references they
	// cause, as nvlink does (reportUnreadableIR empties it).
	unreadable []error
	// ignored: no input had IR that could be read, so the link goes on
	// as without -dlto (nvlink's "Ignoring -dlto option"), -emit-ptx
	// included (gatherLTOInputs, through ignoreLTO).
	ignored bool
	ptx     []byte // what libnvvm made, which -emit-ptx writes (optimizeLinkTime)
	// objs are the cubins compiled from ptx (one per PTX module: several
	// only with --split-compile-extended), linked in order where the first
	// LTO input stands on the command line (optimizeLinkTime); placed once
	// selectImages placed them.
	objs   []*Object
	placed bool
	// executable is ptxas's whole-program cubin when the only inputs
	// without IR are libcudadevrt's: nvlink drops the library and writes
	// that cubin as its output (optimizeLinkTime).
	executable []byte
	// listed are the units whose IR went to libnvvm, each at its place
	// among the units loaded (addInputs): --register-link-binaries names
	// them there, not obj (writeHostSide).
	listed []ltoPlace
	// devrtLinked: the program calls libcudadevrt (a device-side launch),
	// so its PTX is compiled as relocatable code and linked with the
	// library rather than as a whole program (optimizeLinkTime); the
	// kernels of that cubin that no host object references are then
	// merged as ordinary functions (registerNames).
	devrtLinked bool
	// announced: gatherLTOInputs said (announceInputs) which inputs have
	// nothing for the target, so selectImages does not say it again.
	announced bool
	// unlisted: an input is a host object without the host-reference
	// sections (.nvHR*: a host compiler's object, nvcc -c's, an nvcc
	// -dlink output) or has no host side (a cubin, a .fatbin), so nvlink
	// cannot know what its host code launches and libnvvm keeps every
	// kernel (ltoHostRefs), as hostKernelRefs keeps them without -dlto
	// (gatherLTOInputs). Only a .fatbin with nothing for the target
	// leaves a whole program to libnvvm (an input linked makes it
	// partial): nvlink then keeps every kernel (measured with 11.8 and
	// 12.5, lto-whole-program-skipped-fatbin-keeps-kernels-sm86).
	unlisted bool
}

// ltoPlace is a unit whose IR went to libnvvm and its place among the
// units loaded (inputFile.seq).
type ltoPlace struct {
	u    *unit
	name string
	seq  int
}

// ignoreLTO is nvlink's answer to a -dlto link without IR it can read: a
// warning (warnIgnoredLTO), and the link goes on as without -dlto;
// -emit-ptx then writes the linked cubin (measured with nvlink 11.8).
func (ctx *linkContext) ignoreLTO() {
	ctx.lto.ignored = true
}

// warnIgnoredLTO gives ignoreLTO's warning where nvlink gives it: after
// every input was read (and its PTX compiled), as the merge starts, so
// that under -Werror it stops the link (exit status 1, nvlink: "merge_elf
// failed") unless PTX was compiled (measured with 11.8, 12.4 and 12.5).
func warnIgnoredLTO(ctx *linkContext) {
	if ctx.lto.ignored && !ctx.mergeStopped() {
		ctx.mergeWarnf("Ignoring -dlto option because no LTO objects found")
	}
}

// emitsPTX says whether the output is libnvvm's PTX (-emit-ptx with IR to
// compile).
func (ctx *linkContext) emitsPTX() bool {
	return ctx.config.EmitPTX && !ctx.lto.ignored
}

// ltoObjectName is how nvlink names the cubin compiled from libnvvm's PTX
// in its messages ("Undefined reference to 'f' in 'lto.cubin'").
const ltoObjectName = "lto.cubin"

// ltoPTXName names libnvvm's PTX in ptxas's messages.
const ltoPTXName = "<lto ptx>"

// ltoInput is one input of an LTO link, in command-line order.
type ltoInput struct {
	name string
	u    *unit
	ir   *irImage // nil: linked as it is (partial LTO)
	// skipped: no image for the target at all (nvlink's "SM Arch not
	// found", announceInputs): it neither makes the LTO partial nor gets
	// the info line.
	skipped bool
	ptx     bool  // linked as PTX compiled for the target
	slot    *unit // the unit as selectImages meets it
	// last: the last input on the command line (announceInputs: -Werror
	// stopping the link there exits 255, lastInputStopped).
	last bool
}

// ltoProgram is the program -dlto compiles, as gatherLTOInputs read it
// for optimizeLinkTime.
type ltoProgram struct {
	lib    *nvvm.Lib  // libnvvm, or nvJitLink for CUDA 12.x IR
	inputs []ltoInput // every unit with device code, in command-line order
	// devrtFuncs are the functions libcudadevrt's image for the target
	// defines (callsOut).
	devrtFuncs set[string]
	ir         []ltoInput    // those with IR for the target
	modules    []nvvm.Module // the IR of those that could be read
	// partial: some input has no IR, so the compile is relocatable;
	// force: one of them is not libcudadevrt's ("partial LTO").
	partial, force bool
	jit            bool // CUDA 12.x IR, which nvJitLink reads
	// noDevrt: CUDA 12.x IR alone, without libcudadevrt, which nvlink
	// 12.x compiles as a whole program (partial is set, as with the
	// library) and then refuses (optimizeLinkTime).
	noDevrt bool
	// devrtNamed: libcudadevrt is among the inputs, with or without an
	// image for the target (it has none for the Jetson SMs sm_53, sm_62,
	// sm_72 and sm_87 in 11.8, 12.4 and 12.5). Without one it links
	// nothing: nvlink 12.x compiles the whole program as without it
	// (noDevrt; a call of a device launch function stops ptxas), but
	// writes it and exits 0, with no refusal (measured with 12.4 and 12.5
	// on sm_87 and sm_72, lto-devrt-without-target-image-sm87). nvlink 11.8
	// links as without it (a relocatable compile, linked).
	devrtNamed bool
	// cuda12: CUDA 12.x IR (jit, or lto_90a's, which nvcc 12.x stores
	// as 11.8 stores its IR and libnvvm reads): libnvvm gets nvlink
	// 12.x's options, host references among them.
	cuda12 bool
}

// gatherLTOInputs is the first half of nvlink 11.8's -dlto (measured with
// a logging stand-in for libnvvm): libnvvm is loaded from -nvvmpath first,
// whatever the inputs; the IR of every unit that has IR for the target
// (host objects, fatbinaries, archive members, in command-line order) is
// read into one program (ltoState.program) for optimizeLinkTime. IR that
// cannot be read is left out and reported (ltoState.unreadable); with no
// IR left, the link goes on as without -dlto.
func gatherLTOInputs(ctx *linkContext) {
	cfg := ctx.config
	read := ctx.read
	if !cfg.LTO || read == nil {
		return
	}
	paths, slots, errs := read.paths, read.objs, read.errs
	if ctx.refuseArchSpecificBefore(slots, func() []*ptxImage { return ltoPTXImages(slots, cfg.imageTarget()) }) {
		return // before libnvvm is loaded: nvlink 11.8 refuses sm_90a first
	}
	// CUDA 12.x IR (encoded) is read by the toolkit's nvJitLink, unless
	// --cuda-version asks for 11.8's nvlink, which cannot read it.
	cuda12 := cfg.CUDAVersion == 0 || cfg.CUDAVersion >= 120
	var jitOpen *openingLib
	if cuda12 && hasEncodedIR(paths, slots, errs, cfg.Arch) {
		// nvJitLink's helper starts beside libnvvm's, not after it
		// (perf28: 12.4's LTO 10 gathered its inputs in 11 ms, two helpers
		// started in turn, each about 5 ms to load its library). Its
		// errors wait for their turn below.
		jitOpen = ctx.openNVJitLinkAsync()
		defer jitOpen.wait()
	}
	libPath := filepath.Join(cfg.NVVMPath, "lib64", "libnvvm.so")
	lib, err := nvvm.OpenWith(libPath, cfg.NVVMHelper)
	if errors.Is(err, nvvm.ErrNoHelper) {
		ctx.errorf("-dlto: %v", err)
		return
	}
	if err != nil {
		ctx.errorf("-dlto needs the CUDA toolkit's libnvvm, which cannot be loaded from %s: %v\n"+
			">>> pass -nvvmpath=<CUDA toolkit>/nvvm, the directory holding lib64/libnvvm.so and libdevice/ (as NVIDIA's nvcc -dlink -dlto does), or install the toolkit's libnvvm\n"+
			">>> Debian's nvidia-cuda-toolkit has no such directory (its nvcc passes one that nvlink fails on too): make one, as docs/ptx-and-lto.md says", libPath, err)
		return
	}
	ctx.lto.units = map[*unit]bool{}
	var inputs []ltoInput
	var devrtFuncs set[string] // the functions libcudadevrt defines
	images := cfg.imageTarget()
	// The last input, as addInputs counts them (one it reports too).
	lastSlot := -1
	for i := range paths {
		if paths[i] != "" || errs[i] != nil {
			lastSlot = i
		}
	}
	// refused: the first input nvlink refuses as it reads the inputs
	// (refusal.go), and how many inputs came before it; tk: the release
	// whose checks refuse it.
	var refused error
	tk := toolkitFor(ctx.readRelease())
	before := 0
slots:
	for i, objs := range slots {
		if paths[i] == "" || readFailed(errs[i]) {
			if i < len(errs) && refusedRead(errs[i]) {
				refused, before = errs[i], len(inputs)
				ctx.headerRefusal(paths[i], &refused)
				break
			}
			continue
		}
		for group := range unitGroups(objs) {
			u := group[0].unit
			if u.host == nil || !u.host.hasRefSections {
				ctx.lto.unlisted = true
			}
			in := ltoInput{name: group[0].Name, u: u, ir: u.irFor(cfg.Arch), slot: u, last: i == lastSlot}
			// best: the ELF image the link would take without -dlto
			// (chosen once for a unit without IR, and for libcudadevrt).
			var best *Object
			if in.ir != nil {
				ctx.lto.units[u] = true
			} else if !u.hasELF && len(u.ptx) == 0 && len(u.nvvm) == 0 {
				continue // no device code at all
			} else {
				var ptx *ptxImage
				best, ptx = chooseImage(group, images)
				in.skipped, in.ptx = best == nil && ptx == nil, ptx != nil
				if best != nil && best.ELF != nil && !isSystemLibrary(paths[i]) {
					err := archMismatch(best, cfg.Arch)
					if err == nil {
						// Of one input, the release after the
						// architecture (chooseToolkit).
						err = releaseMismatch(best, u.member, tk, nil)
					}
					if err != nil {
						refused, before = err, len(inputs)
						break slots
					}
				}
			}
			in.u = u
			if isSystemLibrary(paths[i]) {
				sys := *u
				sys.system = true
				in.u = &sys
				if in.ir != nil {
					best, _ = chooseImage(group, images)
				}
				if best != nil && best.ELF != nil {
					for i := range best.ELF.Symbols {
						if s := &best.ELF.Symbols[i]; s.Type() == cubin.STT_FUNC && s.Bind() == cubin.STB_GLOBAL && s.Shndx != cubin.SHN_UNDEF {
							devrtFuncs.add(s.Name)
						}
					}
				}
			}
			inputs = append(inputs, in)
		}
	}
	if refused != nil {
		// nvlink stops there, before it compiles anything: the info
		// lines of the inputs before it, then the one error
		// (reportRefusal); the link adds no input (ltoTookLink).
		ctx.announceInputs(inputs[:before], -1)
		ctx.refuse(0, refuseRead, refused)
		ctx.lto.units = nil
		ctx.releaseCompiler(lib)
		return
	}
	var modules []nvvm.Module
	partial, force := false, false
	var ir []ltoInput
	devrtNamed := false // libcudadevrt is among the inputs, with or without an image for the target
	for _, in := range inputs {
		devrtNamed = devrtNamed || in.u.system
		switch {
		case in.skipped:
		case in.ir != nil:
			ir = append(ir, in)
		case in.u.system:
			partial = true
		default:
			partial, force = true, true
		}
	}
	if cfg.ForcePartialLTO {
		// Measured (nvlink 11.8, 12.4): libnvvm gets --device-c
		// --force-device-c and no host references, ptxas -c, and the
		// cubin is linked with the other inputs (libcudadevrt too), as
		// when an input has no IR, without the info line.
		partial, force = true, true
	}
	if len(ir) == 0 {
		if !ctx.announceInputs(inputs, -1) {
			ctx.ignoreLTO()
		}
		return
	}
	jit := cuda12 && slices.ContainsFunc(ir, func(in ltoInput) bool { return in.ir.entry.Flags&encodedIRFlag != 0 })
	// nvlink reads the inputs in command-line order and says, as it
	// meets each, that an input without IR makes the LTO partial, and
	// that one whose IR it cannot read is skipped (measured with 11.8:
	// "Uncompress failed" and "SM Arch not found" between the info lines
	// of the inputs around it). nvlink 12.x stops at IR its libnvvm
	// refuses, before the info lines of the inputs after it (measured
	// with 12.4 on 12.5 objects); nvJitLink reads the program at once,
	// so those lines wait for it (optimizeLinkTime, announceInputs).
	firstIR := slices.IndexFunc(inputs, func(in ltoInput) bool { return in.ir != nil })
	if ctx.announceInputs(inputs[:firstIR], -1) {
		return
	}
	// Measured: nvlink 12.4 and 12.5 refuse a link of 12.x LTO objects
	// alone (nvlink 11.8 links them), but only once they compiled them as
	// the link with libcudadevrt does, a whole program (the cubin they
	// write to -o is that link's): what libnvvm and ptxas say comes
	// first, and a program ptxas refuses ("Unresolved extern function")
	// fails on that (optimizeLinkTime, noDevrt).
	noDevrt := jit && !partial && !cfg.EmitPTX
	if noDevrt {
		partial = true
	}
	if jit {
		nvvmLib := lib
		if jitOpen != nil {
			lib, err = jitOpen.wait()
		} else {
			lib, err = ctx.openNVJitLink()
		}
		if err != nil {
			ctx.report(err)
			return
		}
		// libnvvm is loaded for its check alone (nvlink 12.x loads it
		// too, and stops if it cannot): its helper may exit now.
		ctx.releaseCompiler(nvvmLib)
	}
	// Measured (11.8, 12.4, 12.5): nvlink links the cubin where the last
	// input that links nothing of its own stands: an LTO input, or one
	// with no image for the target ("SM Arch not found"; an archive
	// member too), whichever comes last on the command line.
	for _, in := range inputs {
		if in.ir != nil || in.skipped {
			ctx.lto.at = in.slot
		}
	}
	for _, in := range inputs[firstIR:] {
		if in.ir == nil {
			if !jit && ctx.announceInputs([]ltoInput{in}, -1) {
				return
			}
			continue
		}
		var data []byte
		var err error
		var msg string
		switch flags := in.ir.entry.Flags; {
		case jit:
			// nvJitLink reads the entry as the input stores it.
			data = in.ir.entry.Container()
		case flags&encodedIRFlag != 0:
			// nvlink 11.8 cannot read 12.x IR ("Uncompress failed").
			err = fmt.Errorf("it is stored in CUDA 12's encoded form (fatbinary flag %#x), which nvlink 11.8 (--cuda-version=%s) cannot read", uint64(encodedIRFlag), versionString(cfg.CUDAVersion))
		case flags&^knownIRFlags != 0:
			err = fmt.Errorf("it has fatbinary flags %#x that CUDA 11.8 does not know", uint64(flags&^knownIRFlags))
		default:
			data, err = in.ir.entry.Data()
		}
		if err != nil {
			msg = fmt.Sprintf("cannot read its NVVM IR (LTO IR version %d.%d): %v; it was probably made by a newer CUDA toolkit than this link's (libnvvm %s): link it with that toolkit's nvlink, or rebuild it with this one",
				in.ir.entry.Major, in.ir.entry.Minor, err, lib.Path)
		}
		if msg != "" {
			// nvlink: "Uncompress failed", then the object is skipped
			// ("SM Arch not found") and the link goes on to its undefined
			// references.
			ctx.lto.unreadable = append(ctx.lto.unreadable, &linkError{file: in.name, nonFatal: true, msg: msg})
			ctx.warnf("SM Arch ('%s') not found in '%s'", cfg.archName(), in.name)
			continue
		}
		modules = append(modules, nvvm.Module{Name: ltoModuleName(in), IR: data})
	}
	if len(modules) == 0 {
		// Measured: nvlink 11.8 then links the rest as without -dlto
		// (exit 0, an empty program if there is no rest).
		ctx.ignoreLTO()
		return
	}
	ctx.lto.program = &ltoProgram{lib: lib, inputs: inputs, ir: ir, modules: modules, partial: partial, force: force, jit: jit, devrtFuncs: devrtFuncs, noDevrt: noDevrt, devrtNamed: devrtNamed,
		cuda12: jit || cuda12 && slices.ContainsFunc(ir, func(in ltoInput) bool { return in.ir.entry.Flags&fatbin.FlagArchSpecific != 0 })}
}

// ltoPTXImages are the PTX images of the units slots hold for target,
// those with IR among them (nvcc 11.8 -dlto stores the PTX beside the IR,
// which nvlink 11.8 does not compile but whose ISA tells the release):
// what the PTX pass would compile, and more.
func ltoPTXImages(slots [][]*Object, target imageTarget) []*ptxImage {
	var imgs []*ptxImage
	for _, objs := range slots {
		for group := range unitGroups(objs) {
			if _, p := chooseImage(group, target); p != nil {
				imgs = append(imgs, p)
			}
		}
	}
	return imgs
}

// announceInputs prints what nvlink says of each input of inputs as its
// -dlto reads them, in order, up to inputs[stop] (all of them when stop
// < 0; nvlink 12.x stops reading at IR its libnvvm refuses): the info
// line of partial LTO for one that has no IR and is not libcudadevrt,
// and "SM Arch not found" for one with nothing for the target (not for an
// archive member; -suppress-arch-warning silences it), which selectImages
// then leaves unsaid (ltoState.announced). Measured with 11.8, 12.4 and
// 12.5: the two kinds of line come in command-line order
// (lto-read-lines-in-command-line-order-sm86), and under -Werror the
// warning is an error that stops the link there, before the later
// inputs' lines ("elfLink internal error", exit status 1;
// error-lto-werror-skipped-object-whole-program-sm86). It reports whether
// -Werror stopped the link.
func (ctx *linkContext) announceInputs(inputs []ltoInput, stop int) bool {
	if stop >= 0 {
		inputs = inputs[:stop]
	}
	ctx.lto.announced = true
	for _, in := range inputs {
		switch {
		case in.skipped:
			if ctx.config.SuppressArchWarning || in.u.member {
				continue
			}
			if ctx.mergeWarnf("SM Arch ('%s') not found in '%s'", ctx.config.archName(), in.name) {
				if in.last {
					ctx.lastInputStopped()
				}
				return true
			}
		case in.ir == nil && !in.u.system:
			// An archive member is "lib.a:member", as in nvlink's other
			// messages (lto-cmake-resolved-library-keeps-kernels-sm80).
			ctx.infof("requested LTO but '%s' not built for LTO so doing partial LTO", memberColonName(in.name, in.u.member))
			if in.ptx {
				// nvlink compiles it as it reads it: the warnings of the
				// inputs after it stay warnings under -Werror (measured
				// with 11.8).
				ctx.ptxasRan()
			}
		}
	}
	return false
}

// reportUnreadableBeforePTX: with -emit-ptx, nvlink 11.8 reports the IR
// it could not read before it compiles the rest, whose PTX it writes.
func reportUnreadableBeforePTX(ctx *linkContext) {
	if ctx.lto.program != nil && ctx.config.EmitPTX {
		reportUnreadableIR(ctx)
	}
}

// optimizeLinkTime is the second half of nvlink 11.8's -dlto: libnvvm
// optimizes the program gatherLTOInputs read as a whole (cross-file
// inlining) and compiles it to PTX (ltoState.ptx, which -emit-ptx
// writes); ptxas compiles that PTX (-Xptxas, -maxrregcount, -g) and the
// cubin, lto.cubin (ltoState.obj), is linked first, before the inputs
// that have no IR. Those make the compile relocatable ("partial LTO").
func optimizeLinkTime(ctx *linkContext) {
	p := ctx.lto.program
	if p == nil {
		return
	}
	cfg := ctx.config
	lib, inputs, ir, modules, partial, force, jit := p.lib, p.inputs, p.ir, p.modules, p.partial, p.force, p.jit
	// The info lines of partial LTO that wait for nvJitLink to read
	// the program (gatherLTOInputs): those of the inputs after the
	// first with IR.
	var later []ltoInput
	if jit {
		later = inputs[slices.IndexFunc(inputs, func(in ltoInput) bool { return in.ir != nil }):]
	}
	opts, maxReg, err := ctx.nvvmOptions(ir, partial, force)
	if err != nil {
		if !ctx.announceInputs(later, -1) {
			ctx.report(err)
		}
		return
	}
	// The host references: nvlink 11.8 writes them to a file for libnvvm
	// (-host-ref-file), 12.x gives them as options.
	var refs *ltoRefs
	if !force {
		refs = ctx.ltoHostRefs(inputs)
	}
	hostRefs := ""
	switch {
	case jit:
		opts = nvJitLinkOptions(cfg.Arch, append(opts, refs.options()...))
	case p.cuda12:
		// lto_90a's IR alone: libnvvm 12.x refuses nvlink 11.8's
		// -host-ref-file (cuda12-lto90a-host-launch-sm90a).
		opts = append(opts, refs.options()...)
	default:
		hostRefs = refs.file()
	}
	// Measured: with libcudadevrt as the only input without IR, nvlink
	// has ptxas compile a whole program (no -c) and writes that cubin,
	// without the library (nvcc -dlink -dlto's usual command line).
	// Otherwise it compiles relocatable code and links it.
	whole := partial && !force
	// -force-whole-lto with every input holding IR: libnvvm gets the
	// options of such a link, ptxas compiles a whole program, and nvlink
	// 11.8 stops: "expected libcudadevrt object", exit 1 (measured; it has
	// written ptxas's cubin to -o by then, cudalink writes nothing). nvlink
	// 12.x refuses those inputs with or without the option
	// (gatherLTOInputs).
	forcedWhole := cfg.ForceWholeLTO && !partial
	early := ctx.startLTOPtxas(maxReg, whole || forcedWhole) // ptxas sets itself up while libnvvm compiles
	defer early.abort()                                      // unless compileLTOPTX gave it the PTX
	ptx, log, err := ctx.compileIR(lib, modules, opts, hostRefs)
	ctx.releaseCompiler(lib) // its one compile in this link: it exits while ptxas runs
	if early != nil && (err != nil || len(ptxModules(ptx)) > 1 && !forcedWhole) {
		early.abort() // no PTX, or several modules, each compiled below
		early = nil
	}
	refused := -1
	if le := (*linkError)(nil); errors.As(err, &le) {
		refused = slices.IndexFunc(later, func(in ltoInput) bool { return in.ir != nil && ltoModuleName(in) == le.file })
	}
	if ctx.announceInputs(later, refused) {
		return
	}
	if err != nil {
		ctx.report(ctx.olderIRError(err, p))
		return
	}
	// nvlink prints libnvvm's log as one info message, as libnvvm wrote
	// it: its first line after the prefix, the others bare, and the
	// log's own final newline (an empty line).
	if strings.TrimSpace(log) != "" {
		ctx.infof("%s", log)
	}
	ctx.lto.ptx = ptx
	if cfg.EmitPTX {
		return
	}
	if whole && !p.noDevrt && !cfg.ForceWholeLTO && callsOut(ptx, p.devrtFuncs) {
		// Measured (11.8, 12.4, 12.5): a program that calls libcudadevrt
		// (a kernel launching a kernel) is compiled as relocatable code
		// and linked with the library, as in a partial LTO; printf and
		// malloc, which the driver provides, keep the whole program
		// (lto-devrt-device-launch-linked-sm80). So does a call of a
		// function no input defines: the link reports it undefined
		// (exit 255), where ptxas would have stopped on it
		// (lto-devrt-undefined-function-linked-sm80); an undefined
		// variable keeps the whole program (ptxas warns). With
		// -force-whole-lto the program stays whole, and ptxas stops on
		// such a call ("Unresolved extern function", exit status 1:
		// lto-force-whole-lto-devrt-call-*, 11.8, 12.4 and 12.5).
		whole, ctx.lto.devrtLinked = false, true
		early.abort()
		early = nil
	}
	if modules := ptxModules(ptx); len(modules) > 1 && !forcedWhole {
		// --split-compile-extended N (nvlink 12.x) has libnvvm write
		// several PTX modules for a large program (hunt36's curand
		// program: three). nvlink has ptxas compile each as relocatable
		// code, and links the cubins in that order in lto.cubin's
		// place, libcudadevrt too (measured, 12.4: the same bytes as
		// nvlink linking the three cubins ptxas -c made and
		// -lcudadevrt). The order of the modules is that of libnvvm's
		// threads, so nvlink's output changes from run to run (12.4 and
		// 12.5, tests/difftest/testdata/split-compile-extended-modules:
		// either order, in 6 runs 5:1, 4:2); cudalink links the largest
		// module first, one of nvlink's orders, and its output stays
		// deterministic.
		slices.SortStableFunc(modules, func(a, b []byte) int {
			if len(a) != len(b) {
				return len(b) - len(a)
			}
			return bytes.Compare(a, b)
		})
		for _, m := range modules {
			obj, _ := ctx.compileLTOPTX(m, maxReg, ir, false, nil)
			if obj == nil {
				return
			}
			ctx.lto.objs = append(ctx.lto.objs, obj)
		}
		return
	}
	obj, exe := ctx.compileLTOPTX(ptx, maxReg, ir, whole || forcedWhole, early)
	if forcedWhole {
		if exe != nil {
			ctx.errorf("expected libcudadevrt object: with -force-whole-lto nvlink compiles the -dlto objects as a whole program and links it only with libcudadevrt; add -lcudadevrt (as nvcc -dlink -dlto does), or drop -force-whole-lto")
		}
		return
	}
	if whole && exe != nil && p.noDevrt && !p.devrtNamed {
		// nvlink 12.x has written exe to -o; cudalink writes nothing,
		// as for every failed link. For a virtual target without -o,
		// nvlink fails on the output first (linkWholeVirtual).
		if cfg.Virtual && cfg.Output == "" {
			ctx.lto.executable = exe
			return
		}
		ctx.errorf("expected libcudadevrt object: nvlink 12.x links CUDA 12 -dlto objects only with libcudadevrt or with inputs built without -dlto; add -lcudadevrt, as nvcc -dlink -dlto does")
		return
	}
	if whole && exe != nil {
		// libcudadevrt is not linked: Link writes exe and stops.
		ctx.lto.executable = exe
	}
	if obj != nil {
		ctx.lto.objs = []*Object{obj}
	}
}

// olderIRError is err, the failed compile of the program p, or, when
// CUDA 11.8's IR among its inputs is why it failed, an error naming the
// first such input and saying what to do. The IR of nvcc 11.8 -dlto is
// stored as it is, nvcc 12.x's encoded (encodedIRFlag) or, for lto_90a,
// marked arch-specific, and CUDA 12's libnvvm cannot compile 11.8's (IR
// version 1.9, its own 2.0). Measured with nvlink 12.4 and 12.5 and their
// -nvvmpath, 11.8 objects with or without 12.x ones: "IR version 1.9
// incompatible with current version 2.0", "<first 11.8 object>: error:
// incompatible IR detected", exit 1. cudalink meets it three ways. The
// 11.8 IR alone (p.cuda12 false) goes to libnvvm with nvlink 11.8's
// options, every one of which 11.8's libnvvm takes: a libnvvm that
// refuses one (NVVM_ERROR_INVALID_OPTION; 12.x's refuses -host-ref-file,
// first, naming no input) is a newer release's, whatever its log says
// (TestOlderIRErrorFromInputs). Without host references, or beside 12.x
// IR (nvJitLink), NVVM_ERROR_IR_VERSION_MISMATCH.
func (ctx *linkContext) olderIRError(err error, p *ltoProgram) error {
	ir := p.ir
	i := slices.IndexFunc(ir, func(in ltoInput) bool { return in.ir.entry.Flags&(encodedIRFlag|fatbin.FlagArchSpecific) == 0 })
	if i < 0 {
		return err
	}
	var ce *nvvm.CompileError
	switch {
	case p.jit && strings.Contains(err.Error(), "NVVM_ERROR_IR_VERSION_MISMATCH"):
	case !p.jit && errors.As(err, &ce) && nvvm.ResultString(ce.Status) == "NVVM_ERROR_IR_VERSION_MISMATCH":
	case !p.cuda12 && errors.As(err, &ce) && nvvm.ResultString(ce.Status) == "NVVM_ERROR_INVALID_OPTION":
	default:
		return err
	}
	return &linkError{file: ltoModuleName(ir[i]), msg: fmt.Sprintf("its -dlto IR is CUDA 11.8's, which the CUDA 12 libnvvm of -nvvmpath=%s cannot compile (nvlink 12.x: \"incompatible IR detected\", exit status 1): rebuild it with CUDA 12's nvcc -dlto, or link the CUDA 11.8 objects with CUDA 11.8's nvlink, or cudalink with -nvvmpath=<CUDA 11.8>/nvvm\n%v",
		ctx.config.NVVMPath, err)}
}

// callsOut says whether ptx declares an extern function (".extern .func
// (.param .b64 func_retval0) cudaGetParameterBufferV2") that funcs (what
// libcudadevrt defines) holds, or that the driver does not provide.
func callsOut(ptx []byte, funcs set[string]) bool {
	for line := range bytes.Lines(ptx) {
		rest, ok := bytes.CutPrefix(line, []byte(".extern .func"))
		if !ok {
			continue
		}
		if i := bytes.LastIndexByte(rest, ')'); i >= 0 {
			rest = rest[i+1:]
		}
		bare, _, _ := bytes.Cut(bytes.TrimSpace(rest), []byte("("))
		name := string(bytes.TrimSpace(bare))
		if funcs.has(name) || !isDriverSyscall(name) && !isDeviceGraphFunction(name) {
			return true
		}
	}
	return false
}

// ptxModuleHead is how libnvvm begins each PTX module it writes.
const ptxModuleHead = "//\n// Generated by NVIDIA NVVM Compiler\n"

// ptxModules splits libnvvm's PTX into its modules: one, but with
// --split-compile-extended, which may give several, one after the other,
// each beginning with ptxModuleHead.
func ptxModules(ptx []byte) [][]byte {
	var out [][]byte
	sep := []byte("\n" + ptxModuleHead)
	for len(ptx) > 0 {
		i := bytes.Index(ptx[1:], sep)
		if i < 0 {
			break
		}
		out = append(out, ptx[:i+2]) // through the newline before the next head
		ptx = ptx[i+2:]
	}
	return append(out, ptx)
}

// nvJitLinkOptions are nvJitLink's options for the PTX of the program
// that nvlink's libnvvm options opts would make: the target, -lto -ptx,
// and the rest of opts for its NVVM (-Xnvvm); measured to give libnvvm's
// PTX, but for the release named in its comment (nvJitLink 12.4.127,
// libnvvm 12.4.131).
func nvJitLinkOptions(arch int, opts []string) []string {
	out := []string{"-arch=sm_" + strconv.Itoa(arch), "-lto", "-ptx"}
	for _, o := range opts {
		if !strings.HasPrefix(o, "-arch=") && o != "-link-lto" {
			out = append(out, "-Xnvvm="+o)
		}
	}
	return out
}

// hasEncodedIR says whether an input has CUDA 12's encoded IR for arch,
// which nvJitLink reads: what makes gatherLTOInputs's link a jit one.
func hasEncodedIR(paths []string, slots [][]*Object, errs []error, arch int) bool {
	for i, objs := range slots {
		if paths[i] == "" || readFailed(errs[i]) {
			continue
		}
		for group := range unitGroups(objs) {
			if ir := group[0].unit.irFor(arch); ir != nil && ir.entry.Flags&encodedIRFlag != 0 {
				return true
			}
		}
	}
	return false
}

// openingLib is an nvvm.Lib being opened on a goroutine of its own.
type openingLib struct {
	done  chan struct{}
	lib   *nvvm.Lib
	err   error
	panic *goPanic
}

// openNVJitLinkAsync starts openNVJitLink on a goroutine; wait gives its
// result.
func (ctx *linkContext) openNVJitLinkAsync() *openingLib {
	o := &openingLib{done: make(chan struct{})}
	go func() {
		defer close(o.done)
		defer catch(&o.panic)
		o.lib, o.err = ctx.openNVJitLink()
	}()
	return o
}

// wait waits for the open and gives its result; a panic of the open is
// raised again on the caller's goroutine.
func (o *openingLib) wait() (*nvvm.Lib, error) {
	<-o.done
	rethrow([]*goPanic{o.panic})
	return o.lib, o.err
}

// openNVJitLink loads the toolkit's libnvJitLink, which reads the encoded
// IR of CUDA 12.x objects: --nvjitlink, else beside -nvvmpath's libnvvm
// as NVIDIA lays a toolkit out (<cuda>/nvvm/lib64/libnvvm.so,
// <cuda>/lib64/libnvJitLink.so.12) or in the nvvm directory's lib64/.
func (ctx *linkContext) openNVJitLink() (*nvvm.Lib, error) {
	cfg := ctx.config
	candidates := []string{cfg.NVJitLink}
	if cfg.NVJitLink == "" {
		candidates = []string{
			filepath.Join(cfg.NVVMPath, "..", "lib64", "libnvJitLink.so.12"),
			filepath.Join(cfg.NVVMPath, "lib64", "libnvJitLink.so.12"),
		}
	}
	var err error
	for _, path := range candidates {
		var lib *nvvm.Lib
		if lib, err = nvvm.OpenWith(path, cfg.NVVMHelper); err == nil {
			return lib, nil
		}
		if errors.Is(err, nvvm.ErrNoHelper) {
			return nil, fmt.Errorf("-dlto: %w", err)
		}
		if !errors.Is(err, os.ErrNotExist) {
			break
		}
		err = fmt.Errorf("there is no %s", strings.Join(candidates, " nor "))
	}
	return nil, fmt.Errorf("-dlto of CUDA 12 objects needs the toolkit's libnvJitLink, which reads the NVVM IR nvcc 12 stores encoded: %v\n"+
		">>> pass --nvjitlink=<CUDA toolkit>/lib64/libnvJitLink.so.12 (Debian: libnvjitlink12), of the release that built the objects", err)
}

// knownIRFlags are the fatbinary entry flags of CUDA 11.8's IR entries,
// and the arch-specific flag of 12.x's lto_90a entries, whose IR is a
// plain LZ4 block as 11.8's (nvcc 12.4 and 12.5 do not encode it), read
// by libnvvm as nvlink 12.x reads it (cuda12-lto90a-objects-sm90a); nvcc
// 12.4 and 12.5 add encodedIRFlag to their other IR entries: the IR is
// stored encoded (not a plain LZ4 block of the .ltoir file; nvlink 11.8
// cannot decompress it, nvJitLink reads it).
const (
	knownIRFlags  = fatbin.Flags(0xffff) | fatbin.FlagArchSpecific
	encodedIRFlag = fatbin.Flags(0x10000)
)

// ltoModuleName is the name nvlink gives a module: the input's path, or
// "archive:member" for an archive member.
func ltoModuleName(in ltoInput) string {
	return memberColonName(in.name, in.u.member)
}

// nvvmOptions are nvlink 11.8's options to nvvmCompileProgram, in its
// order: the target's virtual architecture; -ftz, -prec-div, -prec-sqrt
// and -fma as the objects recorded them (they must agree: nvlink stops
// otherwise); -link-lto; nvlink 12.x's -split-compile=N or
// -split-compile-extended=N (the latter when both are given, with an info
// line); --device-c for a partial LTO, and
// --force-device-c when an input other than libcudadevrt has no IR;
// -maxreg=N (nvlink's -maxrregcount, else the objects'); -generate-line-info
// when an object was built with -lineinfo; -g with nvlink's -g;
// -has-global-host-info unless --force-device-c or -ignore-host-info
// without -kernels-used and -variables-used. With nvlink 12.x's -Xnvvm,
// the floating-point settings move after -has-global-host-info, behind
// -Xnvvm's options, less those these replace (xnvvmSettings). It also
// returns the register limit ptxas gets.
func (ctx *linkContext) nvvmOptions(ir []ltoInput, partial, force bool) ([]string, int, error) {
	cfg := ctx.config
	type setting struct {
		cicc, nvvm string // the recorded name, nvvmCompileProgram's
		value      string
		from       string
	}
	settings := []*setting{{cicc: "-ftz", nvvm: "-ftz", value: "0"}, {cicc: "-prec_div", nvvm: "-prec-div", value: "1"},
		{cicc: "-prec_sqrt", nvvm: "-prec-sqrt", value: "1"}, {cicc: "-fmad", nvvm: "-fma", value: "1"}}
	maxReg, withReg, lineInfo, withLine := 0, 0, false, 0
	for _, in := range ir {
		fields := strings.Fields(in.ir.options)
		reg, line := 0, false
		for i := 0; i < len(fields); i++ {
			f := fields[i]
			switch {
			case f == "-maxreg" && i+1 < len(fields):
				i++
				reg, _ = strconv.Atoi(fields[i])
			case f == "-generate-line-info":
				line = true
			}
			for _, s := range settings {
				v, ok := strings.CutPrefix(f, s.cicc+"=")
				if !ok {
					continue
				}
				if s.from != "" && v != s.value {
					return nil, 0, &linkError{file: in.name, msg: fmt.Sprintf(
						"Cicc option values for '%s' do not match: %s=%s here, %s=%s in '%s'; compile every -dlto object with the same floating-point options (nvcc -use_fast_math, -ftz, -prec-div, -prec-sqrt, -fmad)",
						s.nvvm, s.cicc, v, s.cicc, s.value, s.from)}
				}
				s.value, s.from = v, in.name
			}
		}
		if reg > 0 {
			withReg++
			maxReg = max(maxReg, reg)
		}
		if line {
			withLine++
			lineInfo = true
		}
	}
	if withReg > 0 && withReg < len(ir) && cfg.MaxRegCount <= 0 {
		ctx.infof("Some objects do not have '-maxrregcount' specified but others do; will build everything with '-maxrregcount=%d'", maxReg)
	}
	if withLine > 0 && withLine < len(ir) {
		ctx.infof("Some objects do not have '-lineinfo' specified but others do; will build everything with '-lineinfo'")
	}
	if cfg.MaxRegCount > 0 {
		maxReg = cfg.MaxRegCount
	}
	opts := []string{"-arch=compute_" + strconv.Itoa(cfg.Arch)}
	// With -Xnvvm, nvlink 12.x gives the recorded settings after -Xnvvm's
	// options instead (below).
	cuda12 := ctx.cuda12LTO()
	xnvvm := cuda12 && len(cfg.XNVVM) > 0
	if !xnvvm {
		for _, s := range settings {
			opts = append(opts, s.nvvm+"="+s.value)
		}
	}
	opts = append(opts, "-link-lto")
	switch split, ext := cfg.SplitCompile, cfg.SplitCompileExtended; {
	case !cuda12:
	case ext != "" && ctx.emitsPTX():
		// One PTX module for -emit-ptx: nvlink 12.4 and 12.5 split as
		// -split-compile does, with -split-compile's N if given, else
		// -split-compile-extended's (and no line about the two options).
		ctx.infof("Incompatible options '-emit-ptx' and '-split-compile-extended', using '-split-compile'")
		if split == "" {
			split = ext
		}
		opts = append(opts, "-split-compile="+split)
	case split != "" && ext != "":
		ctx.infof("Incompatible options '-split-compile' and '-split-compile-extended', using '-split-compile-extended'")
		opts = append(opts, "-split-compile-extended="+ext)
	case ext != "":
		opts = append(opts, "-split-compile-extended="+ext)
	case split != "":
		opts = append(opts, "-split-compile="+split)
	}
	if partial {
		opts = append(opts, "--device-c")
	}
	if force {
		opts = append(opts, "--force-device-c")
	}
	if maxReg > 0 {
		opts = append(opts, "-maxreg="+strconv.Itoa(maxReg))
	}
	if lineInfo {
		opts = append(opts, "-generate-line-info")
	}
	if cfg.Debug {
		opts = append(opts, "-g")
	}
	if !force && (!cfg.IgnoreHostInfo || ctx.usedLists()) {
		opts = append(opts, "-has-global-host-info")
	}
	if xnvvm {
		opts = append(opts, cfg.XNVVM...)
		given := xnvvmSettings(cfg.XNVVM)
		for _, s := range settings {
			if !given[s.nvvm] {
				opts = append(opts, s.nvvm+"="+s.value)
			}
		}
	}
	return opts, maxReg, nil
}

// cuda12LTO says whether the LTO program is compiled as nvlink 12.x does:
// CUDA 12 IR (read by nvJitLink, or lto_90a's by libnvvm), or
// --cuda-version names a 12.x release.
// Only then do nvlink 12.x's -Xnvvm and split options reach libnvvm
// (chooseToolkit refuses them for an 11.8 link).
func (ctx *linkContext) cuda12LTO() bool {
	return (ctx.lto.program != nil && ctx.lto.program.cuda12) || (ctx.toolkit != nil && ctx.toolkit.nvvmOptions)
}

// xnvvmSettings are the recorded floating-point settings nvlink 12.x
// leaves out after -Xnvvm's options because those set them, by libnvvm
// name. Measured with 12.4 and 12.5 at nvvmCompileProgram: an option
// starting "-ftz=", "-prec-div=" or "-fma=" replaces that setting; one
// starting "-prec-sqrt=" replaces -prec-div, not -prec-sqrt, which nvlink
// then gives too (libnvvm: "-prec-sqrt defined more than once"); any other
// spelling ("-fmad=0", "-ftz") replaces none.
func xnvvmSettings(xnvvm []string) map[string]bool {
	given := map[string]bool{}
	for _, o := range xnvvm {
		switch {
		case strings.HasPrefix(o, "-ftz="):
			given["-ftz"] = true
		case strings.HasPrefix(o, "-prec-div="), strings.HasPrefix(o, "-prec-sqrt="):
			given["-prec-div"] = true
		case strings.HasPrefix(o, "-fma="):
			given["-fma"] = true
		}
	}
	return given
}

// ltoRefs are the names host code uses that nvlink hands libnvvm after
// -has-global-host-info, so that libnvvm drops the kernels and variables
// nothing names ("Info: no reference to kernel ..."), by kind in the order
// EK, IK, EC, IC, EG, IG (external and internal kernels, __constant__ and
// __device__ variables). nil: none. Each kind's entries are kept in
// command-line order (of the names given, or of the inputs and their
// sections); lifo marks the kinds nvlink 11.8's file lists last first;
// fromInputs says the entries are the inputs' (not -kernels-used's and
// -variables-used's).
type ltoRefs struct {
	kinds      [len(ltoRefKinds)][]string
	lifo       [len(ltoRefKinds)]bool
	fromInputs bool
}

// ltoRefKinds are the kinds of host references in nvlink's order, with the
// tag of nvlink 11.8's file and the letters of nvlink 12.x's options.
var ltoRefKinds = [...]struct {
	tag  string
	kind hostobj.RefKind
}{
	{"EK", hostobj.KernelExtern}, {"IK", hostobj.KernelIntern},
	{"EC", hostobj.ConstantExtern}, {"IC", hostobj.ConstantIntern},
	{"EG", hostobj.DeviceExtern}, {"IG", hostobj.DeviceIntern},
}

// ltoHostRefs are the host references of an LTO link whose libnvvm options
// end with -has-global-host-info (measured with nvlink 11.8, 12.4 and
// 12.5 at libnvvm's boundary):
//   - with -kernels-used or -variables-used, those names and nothing of
//     the inputs, each as the pattern "*name*" (a name is matched as a
//     substring, as the lists are without -dlto): the kernels as both
//     kinds of kernel, the variables as all four kinds of variable; a
//     list not given contributes nothing (-variables-used alone names no
//     kernel). -ignore-host-info does not change this.
//   - else, unless -ignore-host-info, the lists of every input (archive
//     members and libcudadevrt included), when some input other than
//     libcudadevrt lists a kernel: lists that name only variables (host
//     code that copies to a __device__ variable and launches nothing) give
//     none, and libnvvm keeps every kernel, as nvlink keeps them without
//     -dlto (hostKernelRefs). An input that is a host object without the
//     lists (ltoState.unlisted: g++'s, nvcc -c's, an nvcc -dlink output;
//     measured with 11.8, 12.4 and 12.5) gives none either.
func (ctx *linkContext) ltoHostRefs(inputs []ltoInput) *ltoRefs {
	cfg := ctx.config
	refs := &ltoRefs{}
	if ctx.usedLists() {
		for i, k := range ltoRefKinds {
			names := cfg.KernelsUsed
			if k.kind != hostobj.KernelExtern && k.kind != hostobj.KernelIntern {
				names, refs.lifo[i] = cfg.VariablesUsed, true
			}
			for _, n := range names {
				refs.kinds[i] = append(refs.kinds[i], "*"+n+"*")
			}
		}
		return refs
	}
	if cfg.IgnoreHostInfo || ctx.lto.unlisted || !slices.ContainsFunc(inputs, func(in ltoInput) bool {
		return in.u.host != nil && !in.u.system && in.u.host.listsKernels()
	}) {
		return nil
	}
	refs.fromInputs = true
	for i, k := range ltoRefKinds {
		refs.lifo[i] = true
		for _, in := range inputs {
			if h := in.u.host; h != nil {
				refs.kinds[i] = append(refs.kinds[i], h.refs[k.kind]...)
			}
		}
	}
	return refs
}

// file is nvlink 11.8's host-reference file (-host-ref-file): one line
// per non-empty kind, "<tag>: " and each entry as "<length>:<pattern> ".
func (r *ltoRefs) file() string {
	if r == nil {
		return ""
	}
	var b strings.Builder
	for i, k := range ltoRefKinds {
		items := r.kinds[i]
		if len(items) == 0 {
			continue
		}
		b.WriteString(k.tag + ": ")
		for j := range items {
			if r.lifo[i] {
				j = len(items) - 1 - j
			}
			fmt.Fprintf(&b, "%d:%s ", len(items[j]), items[j])
		}
		b.WriteString("\n")
	}
	return b.String()
}

// options are nvlink 12.x's libnvvm options for the same references:
// -host-ref-<kind>=<pattern>,... per non-empty kind, each pattern once.
// -kernels-used's and -variables-used's names are in the order given;
// the inputs' entries last first (the inputs and their lists backwards),
// keeping the first of equal ones, as nvlink 12.4 gives them (measured
// with gdb at nvvmCompileProgram: a.o's ka1,ka2 and c.o's kc,ka1 give
// -host-ref-ek=_Z3ka1*,_Z2kc*,_Z3ka2*).
func (r *ltoRefs) options() []string {
	if r == nil {
		return nil
	}
	var opts []string
	for i, k := range ltoRefKinds {
		var items []string
		entries := r.kinds[i]
		if r.fromInputs {
			entries = slices.Clone(entries)
			slices.Reverse(entries)
		}
		for _, p := range entries {
			if !slices.Contains(items, p) {
				items = append(items, p)
			}
		}
		if len(items) > 0 {
			opts = append(opts, "-host-ref-"+strings.ToLower(k.tag)+"="+strings.Join(items, ","))
		}
	}
	return opts
}

// compileIR runs libnvvm, through the cache when there is one: the key
// names the library (path, size, modification time), the options, the
// host-reference file's text and every module's name and IR. hostRefs,
// when not empty, goes to libnvvm in a temporary file (-host-ref-file).
// It returns libnvvm's PTX and its log; a module libnvvm refuses is a
// *linkError naming it.
func (ctx *linkContext) compileIR(lib *nvvm.Lib, modules []nvvm.Module, opts []string, hostRefs string) (ptx []byte, log string, err error) {
	compile := func() (*Compiled, error) {
		opts := opts
		if hostRefs != "" {
			f, err := os.CreateTemp("", "cudalink-hostref-")
			if err != nil {
				return nil, fmt.Errorf("link-time optimization: the host-reference file: %w", err)
			}
			defer os.Remove(f.Name())
			_, err = f.WriteString(hostRefs)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return nil, fmt.Errorf("link-time optimization: the host-reference file: %w", err)
			}
			opts = append(slices.Clip(opts), "-host-ref-file="+f.Name())
		}
		ptx, log, err := lib.Compile(modules, opts)
		if err != nil {
			var me *nvvm.ModuleError
			if errors.As(err, &me) {
				msg := fmt.Sprintf("%s %v: was it made by a newer CUDA toolkit than %s? link it with that toolkit's nvlink, or give cudalink its libnvvm (and for CUDA 12, its libnvJitLink)", filepath.Base(lib.Path), me, lib.Path)
				if log = strings.TrimSpace(log); log != "" {
					msg += "\n" + log
				}
				return nil, &linkError{file: me.Module, msg: msg}
			}
			if log != "" {
				err = fmt.Errorf("%w:\n%s", err, strings.TrimRight(log, "\n"))
			}
			return nil, fmt.Errorf("link-time optimization failed: %w", err)
		}
		return &Compiled{Cubin: ptx, Messages: []byte(log)}, nil
	}
	var res *Compiled
	if cache, ok := ctx.config.Cache.(CompileCache); ok {
		res, err = cache.Compiled(nvvmKey(lib.Path, modules, append(slices.Clip(opts), "\x00host-refs:"+hostRefs)), compile)
	} else {
		res, err = compile()
	}
	if err != nil {
		return nil, "", err
	}
	return res.Cubin, string(res.Messages), nil
}

// nvvmKey names one libnvvm compile.
func nvvmKey(lib string, modules []nvvm.Module, opts []string) string {
	h := newKeyDigest()
	id := lib
	if fi, err := os.Stat(lib); err == nil {
		id += fmt.Sprintf("\x00%d\x00%d", fi.Size(), fi.ModTime().UnixNano())
	}
	fmt.Fprintf(h, "%d:%s", len(id), id)
	for _, o := range opts {
		fmt.Fprintf(h, "%d:%s", len(o), o)
	}
	for _, m := range modules {
		fmt.Fprintf(h, "%d:%s%d:", len(m.Name), m.Name, len(m.IR))
		h.Write(m.IR)
	}
	return "nvvm:" + h.sum()
}

// ltoPtxasArgs are ptxas's options for libnvvm's PTX (ptxasArgs, with
// libnvvm's register limit), without -c for a whole program.
func (ctx *linkContext) ltoPtxasArgs(maxReg int, whole bool) []string {
	cfg := *ctx.config
	cfg.MaxRegCount = maxReg
	args := ptxasArgs(&cfg, &ptxImage{file: true})
	if whole {
		args = args[:len(args)-1] // no -c
	}
	return args
}

// startLTOPtxas starts the ptxas that compileLTOPTX will give libnvvm's
// PTX, before libnvvm compiles (earlyPtxas), when ptxas is the link's PTX
// compiler and no cache may make it unneeded; nil otherwise, or when
// --split-compile-extended may give several PTX modules.
func (ctx *linkContext) startLTOPtxas(maxReg int, whole bool) *earlyPtxas {
	cfg := ctx.config
	if cfg.EmitPTX || cfg.PTXCompiler != "" || cfg.SplitCompileExtended != "" {
		return nil
	}
	if _, ok := cfg.Cache.(CompileCache); ok {
		return nil
	}
	ptxas, err := findPtxas(cfg.Ptxas)
	if err != nil {
		return nil // compileLTOPTX reports it
	}
	return startPtxasEarly(cfg.Context, ptxas, ctx.ltoPtxasArgs(maxReg, whole))
}

// compileLTOPTX compiles libnvvm's PTX with ptxas as nvlink does (the
// target, -Xptxas, -maxrregcount, -g, -c; measured byte for byte) and
// parses the cubin, whose host information is that of the LTO objects.
// early, if not nil, is the ptxas startLTOPtxas started for it.
func (ctx *linkContext) compileLTOPTX(ptx []byte, maxReg int, ir []ltoInput, whole bool, early *earlyPtxas) (*Object, []byte) {
	cfg := *ctx.config
	cfg.MaxRegCount = maxReg
	img := &ptxImage{text: ptx, file: true}
	var pc *ptxCompiler
	var err error
	if early == nil {
		pc, err = findPTXCompiler(&cfg)
	}
	var res *Compiled
	switch {
	case early != nil:
		res, err = early.finish(ptx)
	case err == nil:
		cache, _ := cfg.Cache.(CompileCache)
		args := ctx.ltoPtxasArgs(maxReg, whole)
		compile := func() (*Compiled, error) { return pc.run(cfg.Context, args, ptx) }
		if cache == nil {
			res, err = compile()
		} else {
			res, err = cache.Compiled(pc.key(args, ptx), compile)
		}
	}
	if err != nil {
		var pe *ptxasError
		if errors.As(err, &pe) {
			ctx.writeMessages(pe.output, ltoPTXName, img)
		}
		ctx.report(&linkError{file: ltoObjectName, msg: fmt.Sprintf("cannot compile the PTX libnvvm made for sm_%d: %v%s", cfg.Arch, err, ctx.olderCompilerHint(pe, ctx.ptxRelease(ptx, "", nil)))})
		return nil, nil
	}
	ctx.writeMessages(res.Messages, ltoPTXName, img)
	ctx.warnNewerLTOCompiler(pc, res.Cubin, ptx)
	if whole {
		return nil, res.Cubin
	}
	obj, err := parseObject(ltoObjectName, res.Cubin)
	if err != nil {
		ctx.report(&linkError{file: ltoObjectName, msg: fmt.Sprintf("the cubin ptxas made of libnvvm's PTX: %v", err)})
		return nil, nil
	}
	u := &unit{id: 1, hasELF: true}
	var host *hostInfo
	for _, in := range ir {
		h := in.u.host
		if h == nil {
			host = nil
			break
		}
		if host == nil {
			host = &hostInfo{moduleID: h.moduleID, hasRefSections: true}
		}
		host.hasRefSections = host.hasRefSections && h.hasRefSections
		for k := range hostobj.NumRefKinds {
			host.refs[k] = append(host.refs[k], h.refs[k]...)
		}
	}
	u.host = host
	obj.unit = u
	return obj, nil
}

// warnNewerLTOCompiler is warnNewerCompiler for the cubin ptxas (pc; nil
// when startLTOPtxas started it) made of libnvvm's PTX ptx: with CUDA
// 11.8 -dlto objects and libnvvm, 12.4's ptxas first on PATH writes 12.4's
// code, and the link is nvlink 12.4's (chooseToolkit; e_version 124),
// where nvlink 11.8 compiles with its own ptxas. The inputs' release is
// ptxRelease's: the images read, else the ISA of libnvvm's PTX (7.8 from
// 11.8's libnvvm).
func (ctx *linkContext) warnNewerLTOCompiler(pc *ptxCompiler, cubin, ptx []byte) {
	cfg := ctx.config
	if cfg.CUDAVersion != 0 || len(cubin) < 24 {
		return
	}
	compiled := le.Uint32(cubin[20:])
	inputs := ctx.ptxRelease(ptx, "", nil)
	if inputs == 0 || inputs >= compiled {
		return
	}
	lib, ptxas := cfg.PTXCompiler != "", ""
	if pc != nil {
		lib, ptxas = pc.lib != nil, pc.ptxas
	} else if p, err := findPtxas(cfg.Ptxas); err == nil {
		ptxas = p
	}
	ctx.newerCompilerWarning(lib, ptxas, compiled, inputs)
}

// writeLTOExecutable writes the whole-program cubin of an LTO link
// (ltoState.executable) as the output.
func writeLTOExecutable(ctx *linkContext) error {
	ctx.output = ctx.lto.executable
	if ctx.config.Output == "" {
		return nil
	}
	if err := ctx.config.writeFileAtomic(ctx.config.Output, ctx.output); err != nil {
		ctx.report(&linkError{file: ctx.config.Output, msg: "cannot write output: " + err.Error()})
		return ErrFailed
	}
	return nil
}

// reportUnreadableIR reports the LTO inputs whose IR could not be read:
// as errors when the link fails anyway (they explain its undefined
// references), else as warnings. nvlink 11.8 leaves such an input out
// ("Uncompress failed") and, when nothing else fails, exits 0 with the
// rest linked: an empty program if that is all (measured with CUDA 12.4
// objects, alone or with libcudadevrt or a non-LTO object, and with
// -emit-ptx).
func reportUnreadableIR(ctx *linkContext) {
	failed := ctx.failed()
	for _, err := range ctx.lto.unreadable {
		if failed {
			ctx.report(err)
		} else {
			ctx.warnf("%v", err)
		}
	}
	ctx.lto.unreadable = nil
}

// infof prints one of nvlink's "info" messages; -w does not silence them,
// as with nvlink.
func (ctx *linkContext) infof(format string, args ...any) {
	d := &ctx.diag
	d.mu.Lock()
	defer d.mu.Unlock()
	d.print("info", fmt.Sprintf(format, args...))
}

// writeEmittedPTX is -emit-ptx: libnvvm's PTX goes to the output file.
func writeEmittedPTX(ctx *linkContext) error {
	if err := ctx.config.writeFileAtomic(ctx.config.Output, ctx.lto.ptx); err != nil {
		ctx.report(&linkError{file: ctx.config.Output, msg: "cannot write the PTX: " + err.Error()})
		return ErrFailed
	}
	return nil
}
