package linker

import (
	"fmt"

	"github.com/cudalink/cudalink/linker/fatbin"
)

// linkVirtual is the "link" for a virtual target (-arch=compute_NN): nvlink
// 11.8, 12.4 and 12.5 link no device code for it. They read the inputs (an
// input that cannot be read still fails), write --register-link-binaries,
// and exit 0 without writing -o: no symbol is resolved, so a reference no
// input defines or a name two inputs define is no error. nvcc -dlink runs
// nvlink so (with no -o) for objects built with only PTX for the target
// (-gencode arch=compute_NN,code=compute_NN, CMake's NN-virtual); the
// driver JIT-links the PTX at run time.
func linkVirtual(ctx *linkContext) error {
	ctx.run("read inputs", readInputs)                    // as a full link
	ctx.run("check the target", checkVirtualArchSpecific) // compute_90a: a target of 12.x only
	if ctx.checkpoint() {
		return ErrFailed
	}
	ctx.run("list modules", listVirtualModules) // every input with device code, in command-line order
	if ctx.checkpoint() {
		return ErrFailed
	}
	return ctx.runErr("write host side", writeHostSide) // --register-link-binaries
}

// linkVirtualLTO ends a -dlto link for a virtual target (-arch=compute_NN)
// that links no whole program (linkWholeVirtual). nvlink 11.8, 12.4 and
// 12.5 read the inputs as for sm_NN (gatherLTOInputs' lines: partial LTO
// for each input without IR, "SM Arch ('compute_NN') not found" for one
// with nothing for sm_NN, and none of the virtual link's own warnings
// for inputs without PTX), compile the program (libnvvm, then ptxas,
// whose -Xptxas -v lines they print), and then link nothing: no cubin,
// even with -o, exit 0, and --register-link-binaries as the virtual link
// writes it (every input with device code in command-line order,
// libcudadevrt whenever -lcudadevrt finds it). Without IR, "Ignoring
// -dlto option" follows the lines. That is what nvcc -dlink -dlto
// -arch=compute_NN runs when some object was built without -dlto.
func linkVirtualLTO(ctx *linkContext) error {
	if ctx.checkpoint() {
		return ErrFailed
	}
	ctx.run("warn about ignored -dlto", warnIgnoredLTO) // nvlink's warning for -dlto without IR to compile
	ctx.run("list modules", listVirtualModules)         // every input with device code, in command-line order
	if ctx.checkpoint() {
		return ErrFailed
	}
	return ctx.runErr("write host side", writeHostSide) // --register-link-binaries
}

// compiledWholeProgram says whether ptxas linked the whole program of a
// -dlto link (ltoState.executable: the LTO inputs and libcudadevrt alone,
// the program calling nothing of the library) and nothing failed: a link
// for a virtual target then goes on as the link for its real architecture
// (linkWholeVirtual), else it links nothing (linkVirtualLTO). Measured
// with 11.8, 12.4 and 12.5 (a program that calls libcudadevrt, a partial
// LTO, and nvlink 11.8's LTO objects alone, which ptxas compiles as
// relocatable code, link nothing).
//
// With -emit-ptx the link goes on so whenever libnvvm compiled IR: nvlink
// (11.8, 12.4, 12.5) writes the PTX -arch=sm_NN writes, byte for byte,
// and no --register-link-binaries, as for sm_NN (nvcc -dlink -dlto
// -arch=compute_NN -ptx runs it so, with -o). Without IR (-dlto ignored)
// it is the virtual link.
func (ctx *linkContext) compiledWholeProgram() bool {
	return (ctx.lto.executable != nil || ctx.emitsPTX()) && !ctx.failed()
}

// linkWholeVirtual makes a -dlto link for a virtual target whose whole
// program ptxas linked (compiledWholeProgram) the link for its real
// architecture: nvlink writes that cubin to -o, byte for byte what
// -arch=sm_NN writes, with its --register-link-binaries. nvcc gives it no
// -o, and nvlink then fails ("Could not open output file '(null)'", exit
// status 1), after ptxas's lines: without -o this reports that error and
// changes nothing. So it does for -emit-ptx's PTX (nvlink 12.x crashes
// then, exit status 139).
func (ctx *linkContext) linkWholeVirtual() {
	if ctx.config.Output == "" && ctx.emitsPTX() {
		ctx.errorf("-arch=%s -dlto -emit-ptx writes the program's %s PTX to -o, and there is no -o (nvlink: \"Could not open output file '(null)'\"): give -o <file>",
			ctx.config.archName(), ctx.config.smName())
		return
	}
	if ctx.config.Output == "" {
		ctx.errorf("-arch=%s -dlto compiled these -dlto objects as a whole program for %s, which nvlink writes to -o, and there is no -o (nvlink: \"Could not open output file '(null)'\"): give -o <file>, or build an object without -dlto among them for a virtual link",
			ctx.config.archName(), ctx.config.smName())
		return
	}
	cfg := *ctx.config
	cfg.Virtual = false
	ctx.config = &cfg
}

// checkVirtualArchSpecific refuses compute_90a when the link reproduces
// nvlink 11.8, which does not know the value (the error is all it prints:
// it stops while it reads its command line, so no input's error comes
// first). The release is readRelease's; inputs that record none are no
// reason to refuse it, as for sm_90a (chooseToolkit).
func checkVirtualArchSpecific(ctx *linkContext) {
	if !ctx.config.ArchSpecific || ctx.read == nil {
		return
	}
	if v := ctx.readRelease(); v != 0 {
		if tk := toolkitFor(v); !tk.archSpecific {
			ctx.refuseArchSpecific(tk)
		}
	}
}

// listVirtualModules lists, for a virtual target, the module ids
// --register-link-binaries names: every unit (a host object, an archive
// member, a cubin) with relocatable device code for any architecture (an
// ELF image, PTX or NVVM IR), in command-line order and -l libraries
// after the files as for a full link, libcudadevrt whenever -lcudadevrt
// finds it (a full link lists it only when it takes it), and an input
// given twice twice. Whole-program objects (nvcc -c) and host objects
// without device code are not listed (measured with 11.8, 12.4, 12.5).
// Each unit's image for the target is checked on the way
// (checkVirtualImage).
func listVirtualModules(ctx *linkContext) {
	read := ctx.read
	ctx.read = nil
	if read == nil {
		return
	}
	prelinked, err := prelinkedModules(ctx.config, read.objs)
	if err != nil {
		ctx.report(err)
		return
	}
	ids := []string{}
	for i, path := range read.paths {
		if path == "" && read.errs[i] == nil { // a -l library not found, an archive given again
			continue
		}
		if ctx.mergeStopped() {
			return
		}
		if ok, err := ctx.inputReadable(path, read.errs[i]); !ok {
			if err != nil {
				ctx.report(err)
			}
			continue
		}
		for group := range unitGroups(ctx.dropPrelinked(read.objs[i], prelinked)) {
			u := group[0].unit
			if u == nil || !u.hasELF && len(u.ptx) == 0 && len(u.nvvm) == 0 {
				continue
			}
			// With -dlto, gatherLTOInputs said what nvlink says of each.
			if !ctx.config.LTO && !ctx.checkVirtualImage(group[0].Name, u) {
				return
			}
			if ctx.mergeStopped() {
				break
			}
			if u.host != nil {
				ids = append(ids, u.host.moduleID)
			} else {
				ids = append(ids, cubinModuleID(group[0].Name))
			}
		}
	}
	// -Werror stopped the link at the last input: no input follows to
	// fail on it.
	ctx.lastInputStopped()
	ctx.virtualModules = ids
}

// checkVirtualImage does what nvlink does with a unit's device code for a
// virtual target compute_NN: it takes the unit's PTX of the highest
// architecture not above NN (ptxFor; its SASS and NVVM IR do not count)
// and compiles it for sm_NN, throwing the result away; a unit with no
// such PTX gets nvlink's "SM Arch ('compute_NN') not found" warning (not
// an archive member, nor with -suppress-arch-warning; measured with 11.8,
// 12.4 and 12.5: an sm_80-only object or an -dlto one for compute_80, a
// compute_90 one for compute_86). A plain cubin and a .ptx file are taken
// without a word.
//
// cudalink does not compile that PTX: nvcc wrote it for this target, and
// what nvlink's compile says (-Xptxas -v's lines) does not reach its
// outputs. The one compile that fails for PTX nvcc wrote is arch-specific
// PTX (code=compute_90a) for compute_90: ptxas refuses sm_90a PTX for
// sm_90, and nvlink stops ("elfLink fatbinary error", exit status 1, no
// --register-link-binaries file); so does this, reporting it (false).
// The compile nvlink runs leaves -w and -Werror without effect on the
// warnings after it, as in a full link (ptxasRan); a warning -Werror
// makes an error stops the link there (mergeWarnf).
func (ctx *linkContext) checkVirtualImage(name string, u *unit) bool {
	cfg := ctx.config
	if !u.container {
		if len(u.ptx) > 0 { // a .ptx file
			ctx.ptxasRan()
		}
		return true
	}
	p := u.ptxFor(cfg.Arch)
	switch {
	case p == nil:
		if !cfg.SuppressArchWarning && !u.member {
			ctx.mergeWarnf("SM Arch ('%s') not found in '%s'", cfg.archName(), name)
		}
		return true
	case p.entry.Flags&fatbin.FlagArchSpecific != 0 && !cfg.ArchSpecific:
		ctx.report(&linkError{file: name, msg: fmt.Sprintf(
			"cannot compile the %s PTX for %s: PTX with .target 'sm_%da' cannot be compiled for architecture '%s' (nvlink compiles the PTX it would JIT for a virtual target, and ptxas refuses arch-specific PTX for any other architecture)",
			p.archName(), cfg.smName(), p.sm, cfg.smName())})
		return false
	}
	// nvlink's built-in ptxas has run: -w and -Werror no longer apply
	// to its warnings (ptxasRan).
	ctx.ptxasRan()
	return true
}
