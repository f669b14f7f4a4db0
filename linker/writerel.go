package linker

import (
	"github.com/cudalink/cudalink/linker/cubin"
)

// writeRelocatable writes the output of a partial link: a relocatable cubin
// (ET_REL) laid out as nvcc -dc -cubin lays one out: ELF header, section
// contents, then the section headers; no program headers. As with
// writeOutput, the file appears only once complete.
func writeRelocatable(ctx *linkContext) error {
	data := ctx.buildRelocatableImage()
	if ctx.checkpoint() {
		return ErrFailed
	}
	ctx.output = data
	if err := ctx.config.writeFileAtomic(ctx.config.Output, data); err != nil {
		ctx.report(&linkError{file: ctx.config.Output, msg: "cannot write output: " + err.Error()})
		return ErrFailed
	}
	return nil
}

// relocatableGroup orders the sections of a relocatable cubin as nvcc
// does: string and symbol tables, non-allocated data (.debug_frame),
// .nv.info, .nv.info.f, .nv.callgraph, .nv.prototype, relocations, then
// constant banks, code, initialised data and data without file contents.
func (osec *outputSection) relocatableGroup() int {
	if osec.flags&cubin.SHF_ALLOC != 0 && !cubin.HasFileData(osec.typ) {
		return groupNoBits
	}
	return osec.group()
}

// buildRelocatableImage returns the bytes of the relocatable output.
func (ctx *linkContext) buildRelocatableImage() []byte {
	shstrtab, strtab, symtab, symtabShndx := ctx.tables.shstrtab, ctx.tables.strtab, ctx.tables.symtab, ctx.tables.symtabShndx
	// sh_link and sh_info are computed as the headers are written (see
	// linkInfo); the barrier count in the code's flags stays the input's.
	for _, osec := range ctx.outSections {
		if osec.typ == cubin.SHT_REL || osec.typ == cubin.SHT_RELA {
			osec.setBytes(ctx.appendRelocs(nil, osec, false))
			osec.addralign = 8
		}
	}
	var shndxWords []byte
	var symWords []byte
	symWords, shndxWords = ctx.encodeRelocatableSymbols()
	symtab.setBytes(symWords)
	if symtabShndx != nil {
		symtabShndx.setBytes(shndxWords)
	}
	strtab.setBytes(ctx.strtab.buf)
	var names stringTable
	names.add(".shstrtab")
	nameOff := make([]uint32, len(ctx.outSections))
	for i, osec := range ctx.outSections {
		nameOff[i] = names.add(osec.name)
	}
	shstrtab.setBytes(names.buf)

	offsets, shoff := layoutFile(ctx.outSections)
	shnum := len(ctx.outSections) + 1
	out := make([]byte, shoff+uint64(shnum)*64)
	for i, osec := range ctx.outSections {
		if cubin.HasFileData(osec.typ) {
			copy(out[offsets[i]:], osec.ownBytes())
		}
	}
	first := ctx.files[0].ELF.Header
	copy(out, "\x7fELF")
	out[4], out[5], out[6], out[7], out[8] = 2, 1, 1, first.OSABI, first.ABIVersion
	le.PutUint16(out[16:], cubin.ET_REL)
	le.PutUint16(out[18:], cubin.EM_CUDA)
	// e_version: the newest release among the inputs, which a final link
	// of the output must reproduce as it would the inputs (chooseToolkit).
	version := first.Version
	for _, file := range ctx.files {
		version = max(version, file.ELF.Header.Version)
	}
	le.PutUint32(out[20:], version)
	le.PutUint64(out[40:], shoff)
	flags := first.Flags&^(cubin.EF_CUDA_SM_MASK|cubin.EF_CUDA_VIRTUAL_MASK) |
		uint32(ctx.config.Arch) | uint32(ctx.virtualSM)<<cubin.EF_CUDA_VIRTUAL_SHIFT
	le.PutUint32(out[48:], flags)
	le.PutUint16(out[52:], 64)
	// e_phentsize as nvcc writes it for the architecture: 56, or 0 on
	// sm_90; the first input's.
	if raw := ctx.files[0].ELF.Data; len(raw) >= 64 {
		copy(out[54:56], raw[54:56])
	}
	le.PutUint16(out[58:], 64)
	putSectionCounts(out, out[shoff:], shnum, int(shstrtab.index))
	for i, osec := range ctx.outSections {
		link, info := ctx.linkInfo(osec, symtab.index, strtab.index, true)
		// The relocation sections are the link's own: 12.x marks their
		// sh_info as a section (the others keep the inputs' flags).
		var flags uint64
		if ctx.toolkit.infoLink && osec.isReloc() {
			flags = cubin.SHF_INFO_LINK
		}
		putSectionHeader(out[shoff+uint64(osec.index)*64:], osec,
			headerFields{name: nameOff[i], link: link, info: info, offset: offsets[i], entsize: relocatableEntsize(osec), flags: flags})
	}
	return out
}

// relocatableEntsize is a section's sh_entsize in a partial link's output:
// as in a final link (see entsize), but a contribution keeps its own.
func relocatableEntsize(osec *outputSection) uint64 {
	switch {
	case osec.isReloc(), osec.typ == cubin.SHT_CUDA_INFO || osec.typ == cubin.SHT_CUDA_CALLGRAPH || osec.typ == cubin.SHT_CUDA_PROTOTYPE:
	case len(osec.members) > 0:
		return osec.members[0].file.ELF.Entsize(osec.members[0].sec)
	}
	return osec.entsize()
}

// encodeRelocatableSymbols writes .symtab for a relocatable output: the
// inputs' st_info and st_other as they are (CUDA object types and memory
// spaces included), and the .symtab_shndx words.
func (ctx *linkContext) encodeRelocatableSymbols() (symtab, shndxWords []byte) {
	b := make([]byte, 24, len(ctx.symtab.entries)*24)
	words := make([]byte, 4, len(ctx.symtab.entries)*4)
	for _, e := range ctx.symtab.entries[1:] {
		var name, shndx uint32
		var value, size uint64
		var info, other uint8
		special := false
		if osec := e.sec; osec != nil {
			name, info, shndx = ctx.strtab.add(osec.name), cubin.STT_SECTION, uint32(osec.index)
		} else {
			sym := e.sym
			name, info, other = ctx.strtab.add(sym.name), sym.info, sym.other
			at := ctx.placed(sym)
			value, size = at.value, sym.size
			switch {
			case at.out != nil:
				shndx = uint32(at.out.index)
			case sym.defined() && sym.shndx >= cubin.SHN_LORESERVE && sym.section == nil:
				shndx, special = sym.shndx, true // SHN_ABS, SHN_COMMON
			default:
				value = 0 // undefined
			}
		}
		st := uint16(shndx)
		if !special && shndx >= cubin.SHN_LORESERVE {
			st = cubin.SHN_XINDEX
		}
		words = le.AppendUint32(words, shndx)
		b = le.AppendUint32(b, name)
		b = append(b, info, other)
		b = le.AppendUint16(b, st)
		b = le.AppendUint64(b, value)
		b = le.AppendUint64(b, size)
	}
	return b, words
}
