package linker

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/cudalink/cudalink/linker/cubin"
)

// stringTable builds an ELF string table; equal strings share one entry.
type stringTable struct {
	buf []byte
	at  map[string]uint32
}

func (t *stringTable) add(s string) uint32 {
	if t.at == nil {
		t.at = map[string]uint32{}
		t.buf = []byte{0}
	}
	if s == "" {
		return 0
	}
	if off, ok := t.at[s]; ok {
		return off
	}
	off := uint32(len(t.buf))
	t.buf = append(append(t.buf, s...), 0)
	t.at[s] = off
	return off
}

// writeOutput lays out the executable cubin (ELF header, section contents,
// section headers, then program headers, as nvlink orders them) and writes
// it to a temporary file beside the output, renamed into place only once
// complete, so a failed link never leaves a partial file.
func writeOutput(ctx *Context) error {
	data := ctx.buildImage()
	if ctx.checkpoint() {
		return ErrFailed // errors, or cancelled: write nothing
	}
	ctx.output = data
	if ctx.Config.Output == "" {
		return nil // only the fatbinary outputs were asked for
	}
	if err := writeFileAtomic(ctx.Config.Output, data); err != nil {
		ctx.report(&LinkError{File: ctx.Config.Output, Msg: "cannot write output: " + err.Error()})
		return ErrFailed
	}
	return nil
}

// buildImage returns the bytes of the output file.
func (ctx *Context) buildImage() []byte {
	// Drop relocation sections whose entries were all resolved.
	kept := ctx.OutSections[:0]
	for _, osec := range ctx.OutSections {
		if osec.isReloc() {
			// nvlink keeps no relocation, and preserves no resolution,
			// against a symbol the output does not have (a non-kernel's
			// bank-2 constants, folded away).
			osec.Relocs = slices.DeleteFunc(osec.Relocs, func(r outReloc) bool {
				return r.Sym != nil && ctx.outSymIndex(r.Sym) == 0
			})
		}
		if osec.isReloc() && len(osec.Relocs) == 0 {
			continue
		}
		if osec.Type == cubin.SHT_CUDA_PROTOTYPE && osec.Size == 0 {
			continue
		}
		if osec.Type == cubin.SHT_CUDA_INFO && osec.Func == nil && osec.Size == 0 {
			continue // no function survived: nvlink writes no empty .nv.info
		}
		kept = append(kept, osec)
	}
	ctx.OutSections = kept
	shstrtab := &OutputSection{Name: ".shstrtab", Type: cubin.SHT_STRTAB, Addralign: 1}
	strtab := &OutputSection{Name: ".strtab", Type: cubin.SHT_STRTAB, Addralign: 1}
	symtab := &OutputSection{Name: ".symtab", Type: cubin.SHT_SYMTAB, Addralign: 8, Entsize: 24}
	header := []*OutputSection{shstrtab, strtab, symtab}
	// Past 65,279 sections, section indices no longer fit st_shndx: they
	// go to .symtab_shndx, and e_shnum/e_shstrndx to section 0.
	var symtabShndx *OutputSection
	if len(ctx.OutSections)+len(header)+2 >= cubin.SHN_LORESERVE {
		symtabShndx = &OutputSection{Name: ".symtab_shndx", Type: cubin.SHT_SYMTAB_SHNDX, Addralign: 4, Entsize: 4}
		header = append(header, symtabShndx)
	}
	ctx.OutSections = append(header, ctx.OutSections...)
	sortOutputSections(ctx)
	symtab.Link = uint32(strtab.Index)
	symtab.Info = uint32(ctx.firstGlobal)

	// Section contents that depend on final indices.
	for _, osec := range ctx.OutSections {
		switch {
		case osec.isReloc():
			osec.Data = ctx.encodeRelocs(osec)
			osec.Size = uint64(len(osec.Data))
			osec.Link, osec.Info = uint32(symtab.Index), uint32(osec.Target.Index)
			osec.Addralign, osec.Entsize = 8, 16
			if osec.Rela {
				osec.Entsize = 24
			}
		case osec.Type == cubin.SHT_CUDA_INFO || osec.Type == cubin.SHT_CUDA_CALLGRAPH || osec.Type == cubin.SHT_CUDA_PROTOTYPE:
			osec.Link = uint32(symtab.Index)
		}
		if fn := osec.Func; fn != nil {
			if osec == fn.Text.Out {
				// The register byte is rewritten only when a callee raised
				// the count: sm_90 inputs leave it 0, and so does nvlink
				// unless propagation changed it.
				regs := fn.Text.Sec.Info >> 24
				if fn.Regs > fn.ownRegs {
					regs = uint32(fn.Regs)
				}
				osec.Info = regs<<24 | fn.Sym.outIndex
				osec.Link = uint32(symtab.Index)
				osec.Flags = osec.Flags&^(0xff<<20) | uint64(fn.Barriers)<<20
			} else {
				osec.Info = uint32(fn.Text.Out.Index)
			}
		}
	}
	var shndxWords []byte
	symtab.Data, shndxWords = ctx.encodeSymbols()
	symtab.Size = uint64(len(symtab.Data))
	if symtabShndx != nil {
		symtabShndx.Data, symtabShndx.Size = shndxWords, uint64(len(shndxWords))
		symtabShndx.Link = uint32(symtab.Index)
	}
	strtab.Data, strtab.Size = ctx.strtab.buf, uint64(len(ctx.strtab.buf))
	names := &ctx.names.shstrtab
	nameOff := make([]uint32, len(ctx.OutSections))
	for i, osec := range ctx.OutSections {
		nameOff[i] = names.add(osec.Name)
	}
	shstrtab.Data, shstrtab.Size = names.buf, uint64(len(names.buf))

	// File layout.
	off := uint64(64)
	offsets := make([]uint64, len(ctx.OutSections))
	for i, osec := range ctx.OutSections {
		off = alignTo(off, max(osec.Addralign, 1))
		offsets[i] = off
		if cubin.HasFileData(osec.Type) {
			off += osec.Size
		}
	}
	shoff := alignTo(off, 8)
	shnum := len(ctx.OutSections) + 1
	phoff := shoff + uint64(shnum)*64
	phdrs := ctx.programHeaders(offsets, phoff)
	total := phoff + uint64(len(phdrs))*cubin.PhdrSize

	out := make([]byte, total)
	for i, osec := range ctx.OutSections {
		if cubin.HasFileData(osec.Type) {
			copy(out[offsets[i]:], osec.Data)
		}
	}
	// ELF header.
	copy(out, "\x7fELF")
	out[4], out[5], out[6], out[7], out[8] = 2, 1, 1, cubin.ELFOSABI_CUDA, 7
	le.PutUint16(out[16:], cubin.ET_EXEC)
	le.PutUint16(out[18:], cubin.EM_CUDA)
	le.PutUint32(out[20:], ctx.Files[0].ELF.Header.Version)
	le.PutUint64(out[32:], phoff)
	le.PutUint64(out[40:], shoff)
	flags := ctx.Files[0].ELF.Header.Flags&^(cubin.EF_CUDA_SM_MASK|cubin.EF_CUDA_VIRTUAL_MASK) |
		uint32(ctx.Config.Arch) | uint32(ctx.virtualSM)<<cubin.EF_CUDA_VIRTUAL_SHIFT
	le.PutUint32(out[48:], flags)
	le.PutUint16(out[52:], 64)
	le.PutUint16(out[54:], cubin.PhdrSize)
	le.PutUint16(out[56:], uint16(len(phdrs)))
	le.PutUint16(out[58:], 64)
	if shnum < cubin.SHN_LORESERVE {
		le.PutUint16(out[60:], uint16(shnum))
	} else {
		le.PutUint64(out[shoff+32:], uint64(shnum)) // section 0's sh_size
	}
	if shstrtab.Index < cubin.SHN_LORESERVE {
		le.PutUint16(out[62:], uint16(shstrtab.Index))
	} else {
		le.PutUint16(out[62:], cubin.SHN_XINDEX)
		le.PutUint32(out[shoff+40:], uint32(shstrtab.Index)) // section 0's sh_link
	}
	for i, osec := range ctx.OutSections {
		b := out[shoff+uint64(osec.Index)*64:]
		le.PutUint32(b[0:], nameOff[i])
		le.PutUint32(b[4:], osec.Type)
		le.PutUint64(b[8:], osec.Flags)
		le.PutUint64(b[24:], offsets[i])
		le.PutUint64(b[32:], osec.Size)
		le.PutUint32(b[40:], osec.Link)
		le.PutUint32(b[44:], osec.Info)
		le.PutUint64(b[48:], osec.Addralign)
		le.PutUint64(b[56:], osec.Entsize)
	}
	for i, ph := range phdrs {
		b := out[phoff+uint64(i)*cubin.PhdrSize:]
		le.PutUint32(b[0:], ph.typ)
		le.PutUint32(b[4:], ph.flags)
		le.PutUint64(b[8:], ph.off)
		le.PutUint64(b[32:], ph.filesz)
		le.PutUint64(b[40:], ph.memsz)
		le.PutUint64(b[48:], 8)
	}
	return out
}

type phdr struct {
	typ, flags         uint32
	off, filesz, memsz uint64
}

const (
	ptLoad = 1
	ptPhdr = 6
	pfR    = 4
	pfW    = 2
	pfX    = 1
)

// programHeaders returns nvlink's program headers: PT_PHDR, a read-execute
// PT_LOAD over the constant banks and code, a read-write PT_LOAD over
// initialised data whose memory size also covers every NOBITS section, and a
// read-execute PT_LOAD that repeats the PT_PHDR range.
func (ctx *Context) programHeaders(offsets []uint64, phoff uint64) []phdr {
	var codeStart, codeEnd uint64
	haveCode := false
	var dataOff, dataSize, nobits, nobitsAlign uint64
	haveInit := false
	haveData := false
	for i, osec := range ctx.OutSections {
		switch osec.group() {
		case groupConstant, groupText:
			if !haveCode {
				codeStart, haveCode = offsets[i], true
			}
			codeEnd = offsets[i] + osec.Size
		case groupData:
			if !haveData {
				dataOff, haveData = offsets[i], true
			}
			haveInit = true
			dataSize = offsets[i] + osec.Size - dataOff
		case groupNoBits:
			if !haveData {
				dataOff, haveData = offsets[i], true
			}
			nobitsAlign = max(nobitsAlign, osec.Addralign)
			nobits = alignTo(nobits, max(osec.Addralign, 1)) + osec.Size
		}
	}
	var phs []phdr
	n := uint64(2)
	if haveCode {
		n++
	}
	if haveData {
		n++
	}
	phs = append(phs, phdr{typ: ptPhdr, flags: pfR | pfX, off: phoff, filesz: n * cubin.PhdrSize, memsz: n * cubin.PhdrSize})
	if haveCode {
		phs = append(phs, phdr{typ: ptLoad, flags: pfR | pfX, off: codeStart, filesz: codeEnd - codeStart, memsz: codeEnd - codeStart})
	}
	if haveData {
		// Where NOBITS sections follow, the file part is padded to the
		// largest of their alignments.
		if haveInit {
			dataSize = alignTo(dataOff+dataSize, nobitsAlign) - dataOff
		}
		phs = append(phs, phdr{typ: ptLoad, flags: pfR | pfW, off: dataOff, filesz: dataSize, memsz: dataSize + nobits})
	}
	phs = append(phs, phdr{typ: ptLoad, flags: pfR | pfX, off: phoff, filesz: n * cubin.PhdrSize, memsz: n * cubin.PhdrSize})
	return phs
}

// encodeRelocs writes a relocation section. nvlink emits entries in the
// reverse of the order it processed them.
func (ctx *Context) encodeRelocs(osec *OutputSection) []byte {
	var b []byte
	for i := len(osec.Relocs) - 1; i >= 0; i-- {
		r := osec.Relocs[i]
		var symIdx uint32
		if r.Sym != nil {
			symIdx = ctx.outSymIndex(r.Sym)
		}
		b = le.AppendUint64(b, r.Offset)
		b = le.AppendUint64(b, uint64(symIdx)<<32|uint64(r.Type))
		if osec.Rela {
			b = le.AppendUint64(b, uint64(r.Addend))
		}
	}
	return b
}

// encodeSymbols writes .symtab, fills the string table with names, and
// returns the .symtab_shndx words: each symbol's real section index, where
// st_shndx holds SHN_XINDEX for indices past SHN_LORESERVE.
func (ctx *Context) encodeSymbols() (symtab, shndxWords []byte) {
	b := make([]byte, 0, len(ctx.symtab)*24)
	b = append(b, make([]byte, 24)...)
	words := make([]byte, 4, len(ctx.symtab)*4)
	for _, sym := range ctx.symtab[1:] {
		var name uint32
		var shndx uint32
		var value, size uint64
		info, other := sym.outInfo(), sym.outOther()
		if sym.debugShared && ctx.Config.PreserveRelocs && !ctx.debugSymbols() {
			other = 1 // as nvlink marks the shared variables it keeps for -preserve-relocs
		}
		name = ctx.strtab.add(sym.Name)
		if sym.placeholder {
			name = ctx.names.emptyOff
		}
		special := false
		if sym.outSec != nil {
			shndx = uint32(sym.outSec.Index)
		} else if sym.debugDynamic {
			shndx, value = uint32(ctx.outByName[".nv_debug.shared"].Index), sym.Value+ctx.dynamicSharedShift
		} else {
			value, size = sym.Value, sym.Size
			if sym.debugShared {
				value += ctx.sharedReserve()
			}
			switch {
			case sym.Section != nil && sym.Section.Out != nil:
				shndx = uint32(sym.Section.Out.Index)
			case sym.Shndx == cubin.SHN_ABS || sym.Shndx == cubin.SHN_COMMON:
				shndx, special = sym.Shndx, true
			default:
				value = 0
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

// writeFileAtomic writes data to a temporary file in path's directory and
// renames it to path. While it exists, the temporary file is registered so
// that RemoveTempFiles (called on SIGINT/SIGTERM) can delete it.
func writeFileAtomic(path string, data []byte) error {
	if path == "" {
		return fmt.Errorf("no output file named")
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	tempFiles.Store(name, struct{}{})
	defer tempFiles.Delete(name)
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(name, 0o644)
	}
	if werr == nil {
		werr = os.Rename(name, path)
	}
	if werr != nil {
		os.Remove(name)
	}
	return werr
}

// tempFiles holds the temporary output files being written. It is the one
// piece of process-wide state: a signal ends the whole process, whichever
// link wrote the file.
var tempFiles sync.Map

// RemoveTempFiles deletes every temporary output file still being written,
// so an interrupted link leaves nothing behind. The command calls it when
// SIGINT or SIGTERM arrives, before exiting.
func RemoveTempFiles() {
	tempFiles.Range(func(name, _ any) bool {
		os.Remove(name.(string))
		return true
	})
}
