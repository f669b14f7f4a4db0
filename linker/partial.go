package linker

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"

	"github.com/cudalink/cudalink/linker/cubin"
)

// This file holds the passes of a partial link (-r) between symbol
// resolution and the metadata: which input sections the relocatable output
// keeps, where each lands, and every relocation moved to the output's
// sections and symbols. A partial link keeps what a final link needs to
// decide for itself: every function (no dead-code elimination), every
// relocation (none is applied), each function's own sections (no shared
// layout, no bank-2 folding), and the relocatable conventions of nvcc -dc
// -cubin (CUDA section types, st_value of a shared variable is its
// alignment, data symbols are STT_CUDA_OBJECT with their memory space).

// CheckRelocatable refuses a partial link combined with what only a final
// link makes: a fatbinary, the host-side registration file, several
// architectures, dead-code elimination by -kernels-used, a debug link or
// -preserve-relocs, and the link explanations, which are about what a
// final link keeps.
func CheckRelocatable(cfg *Config) error {
	refuse := func(what string) error {
		return fmt.Errorf("-r (--relocatable) writes a relocatable cubin for a later link; %s", what)
	}
	switch {
	case cfg.Fatbin != "" || cfg.EmbeddedFatbin != "":
		return refuse("--fatbin and --embedded-fatbin package a linked executable cubin: give them to the final link")
	case len(cfg.Archs) > 1:
		return refuse("it links one architecture: give one -arch, and make one partial link per architecture")
	case cfg.RegisterLinkBinaries != "":
		return refuse("--register-link-binaries names the objects of a final device link: give it to the final link")
	case len(cfg.KernelsUsed) > 0 || len(cfg.VariablesUsed) > 0:
		return refuse("-kernels-used and -variables-used remove code, which only the final link may do: give them to the final link")
	case cfg.DumpCallgraph || cfg.DumpCallgraphNoDemangle:
		return refuse("-dump-callgraph prints the call graph of a final link: give it to the final link")
	case cfg.Debug:
		// nvlink -g gives each input file an unnamed placeholder function
		// that its kernels' KPARAM_INFO records name, and lays debug
		// shared memory out per input: a partial output, one input,
		// would change both.
		return refuse("-g keeps per-input records that a partial output would merge: link debug objects (-G) with -g directly")
	case cfg.PreserveRelocs:
		// A partial link resolves nothing; and a final -preserve-relocs
		// link keeps the same per-input placeholder functions as -g.
		return refuse("-preserve-relocs keeps per-input records that a partial output would merge: link with -preserve-relocs directly")
	case cfg.MapFile != "" || len(cfg.WhyLive) > 0:
		return refuse("--map and --why-live explain what a final link keeps: give them to the final link")
	}
	return nil
}

// checkRelocatableInputs refuses a partial link of a -ewp image, and one
// with no device code to combine: every input was skipped, or only system
// libraries such as libcudadevrt were given, whose members join only when
// something needs them (give those to the final link).
func checkRelocatableInputs(ctx *linkContext) {
	for _, file := range ctx.files {
		if file.ELF.Header.Type == cubin.ET_CUDA_EWP {
			// Its kernels' shared memory is laid out with no symbol to
			// carry the layout, and its inlined copies live inside the
			// kernels: an ET_REL output cannot say so.
			ctx.report(&linkError{file: file.Name, msg: "a -ewp image (nvcc -c -ewp, ELF type 0xff00) cannot go through a partial link (-r); give it to the final link"})
		}
	}
	if len(ctx.files) == 0 && !ctx.failed() {
		ctx.errorf("nothing to link for sm_%d: no input holds device code the partial link needs", ctx.config.Arch)
	}
	warnHostNamedOutput(ctx)
}

// warnHostNamedOutput warns of a partial link's output named so that a
// final link of it (by nvlink of the release the link reproduces, and so
// by cudalink) would take it for a host object without device code and
// link none of it: any name but .cubin, and .o before CUDA 12 (addInputs).
func warnHostNamedOutput(ctx *linkContext) {
	out := ctx.config.Output
	ext := filepath.Ext(out)
	if out == "" || out == "-" || ext == ".cubin" || ext == ".o" && ctx.toolkit.cubinNamedO {
		return
	}
	which := "nvlink"
	if ext == ".o" {
		which = "nvlink " + ctx.toolkit.String()
	}
	ctx.ownWarnf("the partial link's output %s is not named .cubin: %s takes a relocatable cubin named so for a host object without device code, and a final link would link none of it; name it .cubin", out, which)
}

// mergeRelocatable maps every input section a relocatable output keeps to
// an output section. The sections of each function that won resolution
// (.text.f, .nv.info.f, .nv.constant0.f, .nv.constant2.f, .nv.shared.f,
// ...) stay sections of their own, whatever the function is; the
// module-wide memory spaces (.nv.global, .nv.global.init, .nv.constantN,
// .nv_debug.shared) and .debug_frame are merged by name in command-line
// order, keeping their CUDA section types. Sections of a weak function
// that lost resolution are dropped, as a full link drops them. The
// metadata sections are rebuilt by buildRelocatableMetadata.
func mergeRelocatable(ctx *linkContext) {
	// A local function whose code section has the name of another's (the
	// __assert_fail wrapper nvcc -G emits in each file) keeps sections of
	// its own with the same names, as nvcc's and nvlink's outputs do: ELF
	// ties a function's sections together by index (sh_info, sh_link),
	// and nvlink links such an input as it links the files apart.
	// A local met first gives its names up to a global function of the
	// same name met after it (a file's local __cuda_sm20_div_f64_slowpath_v2
	// beside another's global one, from nvcc -G).
	textOwner := map[string]*function{}
	for _, fn := range ctx.allFuncs { // a partial link keeps every function
		name := fn.text.sec.Name
		owner, taken := textOwner[name]
		switch {
		case !taken:
			textOwner[name] = fn
		case fn.sym.local:
			ctx.names.markDuplicate(fn)
		case owner.sym.local:
			ctx.names.markDuplicate(owner)
			textOwner[name] = fn
		}
	}
	var relAction *inputSection
	for _, file := range ctx.files {
		for _, isec := range file.sections {
			s := isec.sec
			switch {
			case isec.fn != nil && isec.file != isec.fn.text.file:
				// A losing weak copy's bank-2 constants, which a final link
				// appends to the kept copy's (buildFunctions): appended here.
				// When the kept copy has none, they make a section of the
				// function's own, tied to its code (sh_info) as nvcc ties
				// a function's bank 2, not to the lost copy's section index
				// in its input: nvlink takes a bank 2 tied to no code for
				// the module's (.nv.constant2).
				osec := ctx.outSection(ctx.names.sectionKey(isec), s.Type, s.Flags)
				if osec.fn == nil {
					osec.fn = isec.fn
				}
				osec.members = append(osec.members, isec)
				isec.out = osec
			case isec.fn != nil:
				osec := ctx.outSection(ctx.names.sectionKey(isec), s.Type, s.Flags)
				if len(osec.members) > 0 {
					ctx.report(&linkError{file: file.Name, section: s.Name, symbol: isec.fn.sym.name,
						msg:  "a global function has a section of the same name as another function; a relocatable cubin cannot hold both",
						refs: []string{"the other is in " + osec.members[0].file.Name}})
					continue
				}
				osec.flags = s.Flags
				osec.fn = isec.fn
				osec.members = []*inputSection{isec}
				isec.out = osec
			case s.Type == cubin.SHT_CUDA_RELOCINFO:
				// nvcc writes none; nvlink's table is the same for every
				// input, so one copy is kept.
				if relAction == nil {
					relAction = isec
					osec := ctx.outSection(s.Name, s.Type, s.Flags)
					osec.members = []*inputSection{isec}
					isec.out = osec
				}
			case isOrphanConstant2(s):
				// Bank-2 constants tied to no function: a final link places
				// each symbol at its own st_value in one module bank, in
				// input and symbol order (placeOrphanConstants), and checks
				// overlaps only along that order. Each section stays one of
				// its own, still tied to nothing, so that the final link sees
				// the same symbols in the same order at the same offsets.
				key := s.Name
				if osec := ctx.outByName.get(key); osec != nil {
					key += "\x00" + strconv.Itoa(file.index) + ":" + strconv.Itoa(int(s.Index))
				}
				osec := ctx.outSection(key, s.Type, s.Flags)
				osec.flags = s.Flags // SHF_INFO_LINK included, as ptxas 12.x sets it
				osec.members = []*inputSection{isec}
				isec.out = osec
			case file.lostStorage(isec):
				// Only weak copies that lost when met: dropped, as a full
				// link drops them.
			case classify(s) == classMerged || classify(s) == classShared:
				osec := ctx.outSection(s.Name, s.Type, s.Flags)
				if osec.typ != s.Type {
					ctx.report(&linkError{file: file.Name, section: s.Name,
						msg: fmt.Sprintf("section type 0x%x differs from 0x%x in %s; they cannot be merged", s.Type, osec.typ, osec.members[0].file.Name)})
					continue
				}
				if len(osec.members) == 0 {
					osec.flags = s.Flags
				}
				osec.members = append(osec.members, isec)
				isec.out = osec
			}
		}
	}
}

// warnUnnamedStorage warns about storage without file contents that a
// partial link keeps but no symbol of its output names: a definition in
// .nv.global that lost resolution (a same-size uninitialized definition
// after a common, a weak one). A final link by cudalink keeps it, as the
// direct link does; nvlink drops .nv.global storage that no symbol names,
// so data it allocates after it (commons) moves down.
func warnUnnamedStorage(ctx *linkContext) {
	for _, file := range ctx.files {
		for i, sym := range file.syms {
			if sym == nil || sym.local || sym.file == file || sym.isFunc() {
				continue
			}
			isec := file.sectionOf(file.ELF.Symbols[i].Shndx)
			if isec != nil && isec.out != nil && !cubin.HasFileData(isec.sec.Type) && isec.sec.Type != cubin.SHT_CUDA_SHARED {
				ctx.warnf("%s: the storage of %s's definition here (%s, 0x%x bytes), which lost resolution, stays in the partial output unnamed; nvlink drops such storage when it links the output",
					file.Name, sym.name, isec.name(), file.ELF.Symbols[i].Size)
			}
		}
	}
}

// layoutRelocatable places every contribution in its output section, in
// command-line order at its own alignment, as a final link would;
// placeSymbols then moves the value of every symbol defined in a merged
// section by where its input's contribution landed.
func layoutRelocatable(ctx *linkContext) {
	placeContributions(ctx)
	warnUnnamedStorage(ctx)
}

// retargetRelocations keeps every relocation of every kept section, in
// input order: the place moves by where its section's contribution landed,
// the symbol becomes the output's, and a section symbol's addend moves by
// where the input section landed in the merged one (for .rel entries the
// addend is the field's contents, which are patched, as a final link
// patches a relocation it keeps for the driver). Relocations inside weak
// data that lost resolution are dropped, as a final link drops them.
func retargetRelocations(ctx *linkContext) {
	var walk inputWalk // relocations are read from the inputs
	for _, file := range ctx.files {
		walk.visit(ctx, file)
		for _, rs := range file.ELF.Relocs {
			target := file.sections[rs.Target]
			osec := target.out
			if osec == nil {
				continue
			}
			out := osec.relocFor(ctx, rs.Rela)
			if rs.Len() == 0 {
				if ctx.keepEmpty == nil {
					ctx.keepEmpty = map[*outputSection]bool{}
				}
				ctx.keepEmpty[out] = true // nvcc writes some empty ones; so does -r
			}
			lost := lostRanges(target)
			for r := range rs.All() {
				if !keepsReloc(file, target.sec, lost, r) {
					continue
				}
				rr, toRela, ok := ctx.retarget(target, r)
				if ok && (r.Rela || toRela) {
					fillDebugField(target, r, rr)
				}
				switch {
				case !ok:
				case toRela:
					rela := osec.relocFor(ctx, true)
					rela.rel.relocs = append(rela.rel.relocs, rr)
				default:
					out.rel.relocs = append(out.rel.relocs, rr)
				}
			}
		}
	}
}

// fillDebugField writes, in a non-allocated (debug) section, the value a
// relocation against a section symbol will have when that section's
// contribution moved (it did not land at offset 0 of the merged section),
// rr being the relocation as kept (its addend explicit, moved): the
// .debug_frame CIE pointers and .debug_info's offsets into .debug_abbrev,
// .debug_line and .debug_loc. The relocation stays, so that a final link
// moves the field again; but readers of a relocatable cubin such as
// cuobjdump -elf decode .debug_info without applying relocations, and a
// later input's compilation unit must already point at its own
// abbreviations (without it cuobjdump -elf stops with "Memory allocation
// failure" or crashes). They are the values a full link writes there
// (nvlink -r is not a partial link but the full link: docs/partial.md). A
// contribution that did not move keeps its fields as nvcc wrote them, so
// that -r of one input gives that input. Fields against the -G placeholders
// of function-level shared variables (.nv_debug.shared) are left alone:
// their value is a shared-memory offset only the final link lays out.
func fillDebugField(isec *inputSection, r cubin.Reloc, rr outReloc) {
	if isec.sec.Flags&cubin.SHF_ALLOC != 0 || rr.sym == nil || rr.sym.typ() != cubin.STT_SECTION ||
		rr.sym.section == nil || rr.sym.section.outOff == 0 {
		return
	}
	how := cubin.HowToRelocate(r.Type)
	if len(how.Fields) == 0 || !isec.out.hasBytes() || uint64(rr.offset)+how.Span() > isec.out.byteLen() {
		return
	}
	isec.out.patch(uint64(rr.offset), r.Type, uint64(rr.addend), 0)
}

// retarget moves one relocation of isec to the output; toRela says that a
// .rel entry moves to .rela.
func (ctx *linkContext) retarget(isec *inputSection, r cubin.Reloc) (out outReloc, toRela, ok bool) {
	place := isec.outOff + uint64(r.Offset)
	if place > math.MaxUint32 {
		// Kept relocations hold 32-bit places (outReloc).
		ctx.report(&linkError{file: isec.file.Name, section: isec.name(),
			msg: fmt.Sprintf("%v at offset 0x%x: place past 4 GiB into its section", r.Type, r.Offset)})
		return out, false, false
	}
	out = outReloc{offset: uint32(place), typ: r.Type, addend: r.Addend}
	if r.Sym == 0 {
		return out, false, true
	}
	if int(r.Sym) >= len(isec.file.syms) {
		ctx.report(&linkError{file: isec.file.Name, section: isec.name(),
			msg: fmt.Sprintf("%v at offset 0x%x names symbol %d, out of range", r.Type, r.Offset, r.Sym)})
		return out, false, false
	}
	sym := isec.file.syms[r.Sym]
	out.sym = sym
	if sym.typ() != cubin.STT_SECTION || sym.section == nil || sym.section.outOff == 0 {
		return out, false, true
	}
	delta := sym.section.outOff
	if r.Rela {
		out.addend += int64(delta)
		return out, false, true
	}
	// A .rel entry's addend is the field's contents; the entry becomes a
	// .rela one with the addend explicit (in a debug section, the field
	// is written too: fillDebugField).
	how := cubin.HowToRelocate(r.Type)
	if len(how.Fields) == 0 || !isec.out.hasBytes() || place+how.Span() > isec.out.byteLen() {
		ctx.report(&linkError{file: isec.file.Name, section: isec.name(), symbol: sym.name,
			msg: fmt.Sprintf("%v at offset 0x%x: cannot read its implicit addend", r.Type, r.Offset)})
		return out, false, false
	}
	out.addend = int64(how.Extract(isec.out.read(place)) + delta)
	return out, true, true
}
