package linker

import (
	"fmt"
	"strings"

	"github.com/cudalink/cudalink/linker/cubin"
)

// mergeSections maps every input section that survives to an output
// section. Sections tied to a function (.text.f, .nv.info.f,
// .nv.constant0.f, .nv.shared.f, ...) become sections of their own; the
// module-wide memory spaces (.nv.global, .nv.global.init, .nv.constantN) and
// .debug_frame are merged by name in command-line order. Shared memory of
// non-kernel functions (.nv_debug.shared) is folded into the kernels by
// layoutShared.
func mergeSections(ctx *linkContext) {
	if ctx.outByName.len() == 0 && len(ctx.made) == 0 {
		// About one output section per input section, at most.
		n := 0
		for _, file := range ctx.files {
			n += len(file.sections)
		}
		ctx.made = make([]*outputSection, 0, n)
		if ctx.gc.off {
			ctx.outByName.reserve(n)
		}
		// Its slots for half as many, as registerNames sizes secOrder's:
		// doubling from 64 would leave every outgrown array resident
		// with the collector off, and re-hash every key with it on.
		ctx.outByName.rehash(n / 2)
	}
	for _, file := range ctx.files {
		for _, isec := range file.sections {
			if fn := isec.fn; fn != nil && ctx.isLive(fn) && isec == fn.text {
				ctx.addFunctionSections(fn)
			}
		}
		for _, isec := range file.sections {
			if isec.fn != nil {
				continue
			}
			s := isec.sec
			switch classify(s) {
			case classMerged:
				if file.lostStorage(isec) {
					continue
				}
				osec := ctx.outSection(s.Name, outputType(s.Type), s.Flags)
				osec.members = append(osec.members, isec)
				isec.out = osec
			}
		}
	}
	foldConstant2(ctx)
	allocateCommons(ctx)
	for _, file := range ctx.files {
		for _, rs := range file.ELF.Relocs {
			target := file.sections[rs.Target]
			if target.out == nil {
				continue
			}
			// The output relocation section is created in input order, even
			// if all its entries are resolved later; the writer drops empty ones.
			out := ctx.relSection(rs.Section.Name, target.out, rs.Rela)
			target.out.noteRelocSection(rs.Section.Name, rs.Rela, out)
		}
	}
	// What is not in the output: the functions dead-code elimination
	// removed, and the other symbols of sections that travel with a
	// function that is not kept.
	ctx.deleted = make([]bool, ctx.symbolIDs)
	for _, fn := range ctx.allFuncs {
		if !ctx.isLive(fn) {
			ctx.deleted[fn.sym.id] = true
		}
	}
	for _, sym := range ctx.symbols {
		if sym.section != nil && sym.section.out == nil && ctx.liveFunc(sym) == nil && classify(sym.section.sec) == classFunction {
			ctx.deleted[sym.id] = true
		}
	}
}

// isDeleted says whether sym is not in the output: a function dead-code
// elimination removed, or a symbol of a section that travels with a
// function not kept (mergeSections decides).
func (ctx *linkContext) isDeleted(sym *symbol) bool {
	return int(sym.id) < len(ctx.deleted) && ctx.deleted[sym.id]
}

// lostStorage says whether isec is .nv.global storage (no file contents)
// that nvlink never merges: every symbol defined in it is a weak copy that
// lost resolution when nvlink met it, such as an inline or template
// __device__ variable without initializer defined in an earlier input too.
// nvlink merges such a section when it first adds one of its symbols, so
// a weak copy met before the definition that wins keeps its storage
// (unused), and so does a section that also holds anything else (a static
// variable, another definition), losing copies included. Initialized data
// (.nv.global.init) is always merged.
func (file *inputFile) lostStorage(isec *inputSection) bool {
	if len(file.skippedData) == 0 || isec.sec.Type != cubin.SHT_CUDA_GLOBAL {
		return false
	}
	lost := false
	for i := 1; i < len(file.ELF.Symbols); i++ {
		esym := &file.ELF.Symbols[i]
		if esym.Shndx != isec.sec.Index || esym.Type() == cubin.STT_SECTION {
			continue
		}
		if !file.skippedData[uint32(i)] {
			return false
		}
		lost = true
	}
	return lost
}

// allocateCommons gives every common symbol still common after
// resolution its storage in .nv.global, after the inputs' contributions:
// one member each, last name first (nvlink's order), at the alignment of
// the first common of that name and the largest size. It records the
// storage in ctx.commons; placeSymbols moves the symbols there.
func allocateCommons(ctx *linkContext) {
	for i := len(ctx.symbols) - 1; i >= 0; i-- {
		sym := ctx.symbols[i]
		if sym.file == nil || sym.shndx != cubin.SHN_COMMON { // not a common (defRank)
			continue
		}
		osec := ctx.outSection(".nv.global", cubin.SHT_NOBITS, cubin.SHF_WRITE|cubin.SHF_ALLOC)
		isec := &inputSection{file: sym.file, out: osec,
			sec: &cubin.Section{Name: ".nv.global", Type: cubin.SHT_NOBITS, Flags: cubin.SHF_WRITE | cubin.SHF_ALLOC,
				Addralign: max(ctx.inputValue(sym), 1), Size: sym.size}}
		osec.members = append(osec.members, isec)
		ctx.commons = append(ctx.commons, commonStorage{sym: sym, isec: isec})
	}
}

// commonStorage is the .nv.global contribution allocateCommons made for
// a common symbol.
type commonStorage struct {
	sym  *symbol
	isec *inputSection
}

// Section classes.
const (
	classSkip     = iota // rebuilt by the linker (.symtab, .nv.info, ...) or dropped
	classFunction        // travels with a function
	classMerged          // merged by name across inputs
	classShared          // .nv_debug.shared: folded into kernels
)

// classify says what becomes of an input section not tied to a function.
func classify(s *cubin.Section) int {
	switch s.Type {
	case cubin.SHT_NULL, cubin.SHT_SYMTAB, cubin.SHT_STRTAB, cubin.SHT_REL, cubin.SHT_RELA,
		cubin.SHT_SYMTAB_SHNDX, cubin.SHT_CUDA_INFO, cubin.SHT_CUDA_CALLGRAPH,
		cubin.SHT_CUDA_PROTOTYPE, cubin.SHT_CUDA_RELOCINFO, cubin.SHT_CUDA_RESOLVED_RELA:
		return classSkip
	}
	switch {
	case s.Name == ".nv_debug.shared":
		return classShared
	case isOrphanConstant2(s):
		return classSkip // its symbols' bytes go to a bank nvlink never writes (placeOrphanConstants)
	case strings.HasPrefix(s.Name, ".text."), strings.HasPrefix(s.Name, ".nv.shared."),
		strings.HasPrefix(s.Name, ".nv.local."), isConstant(s.Type) && s.Info != 0:
		return classFunction
	}
	return classMerged
}

func isConstant(t uint32) bool {
	return t >= cubin.SHT_CUDA_CONSTANT_B0 && t <= cubin.SHT_CUDA_CONSTANT_B17 || t == cubin.SHT_CUDA_CONSTANT
}

// outputType is the section type nvlink writes for an input type: the CUDA
// memory-space types of allocated data become PROGBITS or NOBITS.
func outputType(t uint32) uint32 {
	switch {
	case isConstant(t), t == cubin.SHT_CUDA_GLOBAL_INIT:
		return cubin.SHT_PROGBITS
	case t == cubin.SHT_CUDA_GLOBAL, t == cubin.SHT_CUDA_SHARED, t == cubin.SHT_CUDA_LOCAL:
		return cubin.SHT_NOBITS
	}
	return t
}

// addFunctionSections creates the output sections of one live function.
func (ctx *linkContext) addFunctionSections(fn *function) {
	text := fn.text
	key := ctx.names.sectionKey
	osec := ctx.outSection(key(text), cubin.SHT_PROGBITS, text.sec.Flags)
	osec.fn = fn
	osec.members = []*inputSection{text}
	text.out = osec
	for _, isec := range fn.sections {
		s := isec.sec
		if !ctx.isEntry(fn.sym) && !ctx.demoted(fn) && !ctx.bank2.lostOnly.has(fn) && isConstant2(s) {
			continue // folded into the calling kernels by foldConstant2
		}
		var osec *outputSection
		if s.Type == cubin.SHT_CUDA_INFO {
			osec = ctx.outSection(key(isec), s.Type, s.Flags)
		} else {
			osec = ctx.outSection(key(isec), outputType(s.Type), s.Flags)
		}
		osec.fn = fn
		osec.members = append(osec.members, isec)
		isec.out = osec
	}
}

// sections are the output's sections as far as the link went:
// outSections once assignIndices has made them, made before.
func (ctx *linkContext) sections() []*outputSection {
	if ctx.outSections != nil {
		return ctx.outSections
	}
	return ctx.made
}

// outSection returns the output section with this key, creating it (in
// creation order) on first use. The key is the section's name, except for
// the sections of a duplicate local function (nameRegistry.funcKey).
func (ctx *linkContext) outSection(key string, typ uint32, flags uint64) *outputSection {
	if osec := ctx.outByName.get(key); osec != nil {
		return osec
	}
	osec := &outputSection{name: keyName(key), typ: typ, flags: flags &^ cubin.SHF_INFO_LINK, index: int32(len(ctx.made))}
	if key != osec.name {
		osec.more().key = key
	}
	if isRelocType(typ) {
		osec.rel = &relocList{}
	}
	ctx.outByName.put(osec)
	ctx.made = append(ctx.made, osec)
	return osec
}

// relSection returns the output relocation section called name for
// target (keyed like target).
func (ctx *linkContext) relSection(name string, target *outputSection, rela bool) *outputSection {
	typ := uint32(cubin.SHT_REL)
	if rela {
		typ = cubin.SHT_RELA
	}
	return ctx.relocSection(name+strings.TrimPrefix(target.key(), target.name), typ, target)
}

// relocSection returns the relocation section of type typ with this key,
// holding target's relocations, creating it on first use. A malformed
// input can have a section of another type by that name: that is an
// error, and the relocations go to a section of their own, which is never
// written.
func (ctx *linkContext) relocSection(key string, typ uint32, target *outputSection) *outputSection {
	osec := ctx.outSection(key, typ, 0)
	if osec.rel == nil {
		ctx.report(&linkError{section: osec.name,
			msg: fmt.Sprintf("holds the relocations of %s by its name, but is of type %#x", target.name, osec.typ)})
		osec = &outputSection{name: osec.name, typ: typ, rel: &relocList{}}
		if key != osec.name {
			osec.more().key = key // the index reads keys back from its entries
		}
		ctx.outByName.put(osec) // reported once
	}
	osec.rel.target = target
	return osec
}

// Output section groups, in nvlink's file order.
const (
	groupHeader   = iota // .shstrtab, .strtab, .symtab, .symtab_shndx
	groupDebug           // .debug_frame and other non-allocated data
	groupInfo            // .nv.info
	groupFuncInfo        // .nv.info.<f>
	groupCallgraph
	groupPrototype
	groupRelAction
	groupReloc
	groupConstant
	groupText
	groupData   // .nv.global.init and other allocated data with contents
	groupNoBits // .nv.shared.<k>, .nv.global, ...
)

func (osec *outputSection) group() int {
	switch {
	case osec.name == ".shstrtab" || osec.name == ".strtab" || osec.typ == cubin.SHT_SYMTAB || osec.typ == cubin.SHT_SYMTAB_SHNDX:
		return groupHeader
	case osec.typ == cubin.SHT_CUDA_INFO && osec.fn == nil:
		return groupInfo
	case osec.typ == cubin.SHT_CUDA_INFO:
		return groupFuncInfo
	case osec.typ == cubin.SHT_CUDA_CALLGRAPH:
		return groupCallgraph
	case osec.typ == cubin.SHT_CUDA_PROTOTYPE:
		return groupPrototype
	case osec.typ == cubin.SHT_CUDA_RELOCINFO:
		return groupRelAction
	case isRelocType(osec.typ):
		return groupReloc
	case osec.flags&cubin.SHF_ALLOC == 0:
		return groupDebug
	case strings.HasPrefix(osec.name, ".nv.constant"):
		return groupConstant
	case osec.flags&cubin.SHF_EXECINSTR != 0:
		return groupText
	case osec.typ == cubin.SHT_NOBITS:
		return groupNoBits
	}
	return groupData
}
