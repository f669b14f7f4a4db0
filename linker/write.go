package linker

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/cudalink/cudalink/linker/cubin"
)

// writeOutput lays out the executable cubin (ELF header, section contents,
// section headers, then program headers, as nvlink orders them) and writes
// it to a temporary file beside the output, renamed into place only once
// complete, so a failed link never leaves a partial file. The image is
// streamed to the file section by section; it is assembled in memory only
// when a fatbinary or the caller needs its bytes.
func writeOutput(ctx *linkContext) error {
	img := ctx.layoutImage()
	if ctx.checkpoint() {
		return ErrFailed // errors, or cancelled: write nothing
	}
	cfg := ctx.config
	if cfg.needImage() {
		var b bytes.Buffer
		b.Grow(int(img.total))
		img.writeTo(&b)
		ctx.output = b.Bytes()
	}
	if cfg.Output == "" {
		return nil // only the fatbinary outputs were asked for
	}
	var err error
	if ctx.output != nil {
		err = cfg.writeFileAtomic(cfg.Output, ctx.output)
	} else {
		err = cfg.writeFileAtomicWith(cfg.Output, img.writeTo)
	}
	if err != nil {
		ctx.report(&linkError{file: cfg.Output, msg: "cannot write output: " + err.Error()})
		return ErrFailed
	}
	return nil
}

// image is the layout of the output file: where each section goes, the
// section names' offsets in .shstrtab, and the program headers.
type image struct {
	ctx      *linkContext
	offsets  []uint64 // file offset of each output section, in section order
	shoff    uint64
	phoff    uint64
	phdrs    []phdr
	total    uint64
	shstrtab *outputSection
	nameOffs []uint32 // each section's name's offset in .shstrtab, in section order
	// .symtab and .symtab_shndx (nil if none), encoded as written.
	symtabSec, shndxSec *outputSection
	// symNames are the offsets in .strtab of the symbols' names, in
	// .symtab order (outSymbolName).
	symNames []uint32
	// Indices of .symtab and .strtab, which other sections link to.
	symtab, strtab int32
}

// layoutImage encodes the sections whose contents depend on the final
// indices (relocations, symbols, string tables) and computes the file
// layout. assignIndices has run.
func (ctx *linkContext) layoutImage() *image {
	shstrtab, strtab, symtab, symtabShndx := ctx.tables.shstrtab, ctx.tables.strtab, ctx.tables.symtab, ctx.tables.symtabShndx

	// Section contents that depend on final indices (sh_link and sh_info
	// are computed as the headers are written: see linkInfo).
	for _, osec := range ctx.outSections {
		if osec.isReloc() {
			// Encoded as they are written (image.writeTo): entries are
			// 16 or 24 bytes, so the size is known now.
			osec.addralign = 8
			osec.size = uint64(len(osec.rel.relocs)) * osec.entsize()
		}
		if fn := osec.fn; fn != nil && osec == fn.text.out {
			osec.flags = osec.flags&^(0xff<<20) | uint64(ctx.resourcesOf(fn).barriers)<<20
		}
	}
	if ctx.toolkit.compactStrings {
		compactStrings(ctx)
	}
	// .symtab and .symtab_shndx are encoded as they are written
	// (image.writeTo); every symbol's name goes in .strtab now, before the
	// table's size is fixed, and its offset is kept for the writer, which
	// then need not look each name up again (flat 400 objects: 13,600
	// lookups, 1.2% of the link's instructions, docs/benchmarks.md perf24).
	symNames := make([]uint32, len(ctx.symtab.entries))
	for i, e := range ctx.symtab.entries {
		symNames[i] = ctx.outSymbolName(e)
	}
	symtab.size = uint64(len(ctx.symtab.entries)) * 24
	if symtabShndx != nil {
		symtabShndx.size = uint64(len(ctx.symtab.entries)) * 4
	}
	strtab.setBytes(ctx.strtab.buf)
	// Every section's name goes in .shstrtab now, at the offset its
	// header gives (looked up once: a large link has tens of thousands).
	names := &ctx.names.shstrtab
	nameOffs := make([]uint32, len(ctx.outSections))
	for i, osec := range ctx.outSections {
		nameOffs[i] = names.add(osec.name)
	}
	shstrtab.setBytes(names.buf)
	img := &image{ctx: ctx, shstrtab: shstrtab, symtabSec: symtab, shndxSec: symtabShndx, symtab: symtab.index, strtab: strtab.index, nameOffs: nameOffs, symNames: symNames}

	// A section's contents never exceed its size; a malformed input can
	// break that (a section named for a memory space without file
	// contents, of a type that has them), and the file is then not written.
	for _, osec := range ctx.outSections {
		if cubin.HasFileData(osec.typ) && !osec.isReloc() && osec.byteLen() > osec.size {
			err := &linkError{section: osec.name, msg: fmt.Sprintf("contents of %d bytes do not fit the section's size of %d (section type %#x)", osec.byteLen(), osec.size, osec.typ)}
			if len(osec.members) > 0 {
				err.file = osec.members[0].file.Name
			}
			ctx.report(err)
		}
	}
	img.offsets, img.shoff = layoutFile(ctx.outSections)
	shnum := len(ctx.outSections) + 1
	img.phoff = img.shoff + uint64(shnum)*64
	img.phdrs = ctx.programHeaders(img.offsets, img.phoff)
	img.total = img.phoff + uint64(len(img.phdrs))*cubin.PhdrSize
	return img
}

// headerFields are the output's e_version and e_flags: the first input's,
// with the target and the lowest virtual architecture of the inputs. A link
// with no device code for the target (only host objects, whole-program
// objects or images for other architectures) gets what nvlink writes then:
// CUDA 11.8's ELF version, 64-bit addresses, unified texture mode, and the
// target as its own virtual architecture.
func (ctx *linkContext) headerFields() (version, flags uint32) {
	version, flags = cubinVersion, cubin.EF_CUDA_64BIT_ADDRESS|cubin.EF_CUDA_TEXMODE_UNIFIED
	virtual := ctx.config.Arch
	if len(ctx.files) > 0 {
		h := ctx.files[0].ELF.Header
		flags = h.Flags &^ (cubin.EF_CUDA_SM_MASK | cubin.EF_CUDA_VIRTUAL_MASK | cubin.EF_CUDA_ARCH_SPECIFIC)
		virtual = ctx.virtualSM
	}
	if ctx.toolkit != nil {
		version = ctx.toolkit.version // nvlink writes its own release
	}
	if ctx.config.ArchSpecific {
		flags |= cubin.EF_CUDA_ARCH_SPECIFIC // whatever the inputs: nvlink 12.x links sm_90 and sm_90a code together
	}
	return version, flags | uint32(ctx.config.Arch) | uint32(virtual)<<cubin.EF_CUDA_VIRTUAL_SHIFT
}

// cubinVersion is the e_version of every cubin CUDA 11.8 writes.
const cubinVersion = 0x76

// writeTo writes the image in file order: the ELF header, every section's
// contents (zeros fill the alignment gaps), the section headers and the
// program headers.
func (img *image) writeTo(w io.Writer) (err error) {
	ctx := img.ctx
	var bw imageWriter
	var pipe *outPipe
	if f, ok := w.(*os.File); ok && img.total >= ctx.pipeFrom {
		off, err := f.Seek(0, io.SeekCurrent)
		if err != nil {
			return err
		}
		pipe = newOutPipe(f, off, ctx.pipeChunk)
		defer func() {
			if cerr := pipe.close(); err == nil {
				err = cerr
			}
		}()
		bw = pipe
	} else {
		bw = bufio.NewWriterSize(w, writeBufferBytes)
	}
	var scratch []byte
	// encode writes what fn appends, n bytes, and returns its length: fn
	// appends into the writer's free buffer when n bytes fit there, else
	// into scratch.
	encode := func(n int, fn func([]byte) []byte) uint64 {
		if n > bw.Available() && n <= bw.Size() {
			bw.Flush()
		}
		b := scratch[:0]
		if n <= bw.Available() {
			b = bw.AvailableBuffer()
		} else {
			b = slices.Grow(b, n) // at once: appending would grow it by doubling
		}
		b = fn(b)
		if n > bw.Size() {
			scratch = b
		}
		bw.Write(b)
		return uint64(len(b))
	}
	var walk inputWalk // borrowed sections are read from the inputs
	// A file's composed sections are written input by input (see
	// composer): here the writer only steps over them.
	var file composedTarget
	if inputBytes(ctx.files) >= ctx.composedFrom {
		// Only then: the assertion builds the interface's table for
		// *os.File, pages of the binary a small link has no other use for.
		if pipe != nil {
			file = pipe
		} else {
			file, _ = w.(composedTarget)
		}
	}
	// The composed sections to step over, known before the first is
	// reached: in a one-shot link (no outPipe) their members are written
	// as the walk over the borrowed sections (code, constant banks) enters
	// their inputs, while the inputs' pages are in, not on a walk of their
	// own at the end (see composer).
	var comp *composer
	if file != nil {
		var later []laterSection
		for i, osec := range ctx.outSections {
			if cubin.HasFileData(osec.typ) && osec.composed() {
				if pieces, ok := osec.memberPatches(); ok {
					later = append(later, laterSection{i, pieces})
				}
			}
		}
		if len(later) > 0 {
			comp = img.newComposer(file, later, &walk)
		}
	}
	var zeros [64]byte
	pad := func(n uint64) {
		for n > 0 {
			k := min(n, uint64(len(zeros)))
			if _, err := bw.Write(zeros[:k]); err != nil {
				return // the writer keeps the error: Flush returns it
			}
			n -= k
		}
	}
	hdr := make([]byte, 64)
	copy(hdr, "\x7fELF")
	hdr[4], hdr[5], hdr[6], hdr[7], hdr[8] = 2, 1, 1, cubin.ELFOSABI_CUDA, 7
	le.PutUint16(hdr[16:], cubin.ET_EXEC)
	le.PutUint16(hdr[18:], cubin.EM_CUDA)
	version, flags := ctx.headerFields()
	le.PutUint32(hdr[20:], version)
	le.PutUint64(hdr[32:], img.phoff)
	le.PutUint64(hdr[40:], img.shoff)
	le.PutUint32(hdr[48:], flags)
	le.PutUint16(hdr[52:], 64)
	le.PutUint16(hdr[54:], cubin.PhdrSize)
	le.PutUint16(hdr[56:], uint16(len(img.phdrs)))
	le.PutUint16(hdr[58:], 64)
	shnum := len(ctx.outSections) + 1
	sh0 := make([]byte, 64)
	putSectionCounts(hdr, sh0, shnum, int(img.shstrtab.index))
	bw.Write(hdr)
	at := uint64(64)
	for i, osec := range ctx.outSections {
		if !cubin.HasFileData(osec.typ) {
			continue
		}
		pad(img.offsets[i] - at)
		var written uint64
		switch {
		case osec.isReloc():
			n := len(osec.rel.relocs) * int(osec.entsize())
			written = encode(n, func(b []byte) []byte { return ctx.appendRelocs(b, osec, true) })
		case osec == img.symtabSec || osec == img.shndxSec:
			size := 4 // a .symtab_shndx entry
			if osec == img.symtabSec {
				size = 24
			}
			for i := 0; i < len(ctx.symtab.entries); i += symbolsPerWrite {
				entries := ctx.symtab.entries[i:min(i+symbolsPerWrite, len(ctx.symtab.entries))]
				names := img.symNames[i:]
				encode(len(entries)*size, func(b []byte) []byte {
					for k, e := range entries {
						if s := ctx.outSymbol(e, names[k]); osec == img.symtabSec {
							b = appendSymbol(b, s)
						} else {
							b = le.AppendUint32(b, ctx.shndxWord(s))
						}
					}
					return b
				})
			}
			written = osec.size
		default:
			if comp != nil && comp.stepsOver(i) {
				if err := bw.Flush(); err != nil {
					return err
				}
				if _, err := file.Seek(int64(osec.size), io.SeekCurrent); err != nil {
					return err
				}
				written = osec.size
				break
			}
			if comp != nil && pipe == nil && osec.borrowed && len(osec.members) > 0 && osec.members[0].file != nil {
				// The composed members of the inputs up to this one, this
				// one's last, where the walk goes next.
				if err := comp.upTo(osec.members[0].file.index); err != nil {
					return err
				}
			}
			written, scratch = osec.writeBytes(ctx, &walk, bw, scratch)
		}
		if written > osec.size {
			return fmt.Errorf("section %s: wrote %d bytes into %d (internal error)", osec.name, written, osec.size)
		}
		pad(osec.size - written)
		at = img.offsets[i] + osec.size
	}
	pad(img.shoff - at)
	// Section headers, by index: section order is index order
	// (sortOutputSections).
	bw.Write(sh0)
	h := make([]byte, 64)
	for i, osec := range ctx.outSections {
		if int(osec.index) != i+1 {
			return fmt.Errorf("section %s: index %d in place %d (internal error)", osec.name, osec.index, i+1)
		}
		link, info := ctx.linkInfo(osec, img.symtab, img.strtab, false)
		name := img.nameOffs[i]
		var flags uint64
		if ctx.toolkit.infoLink && ctx.infoLink(osec) {
			flags = cubin.SHF_INFO_LINK
		}
		putSectionHeader(h, osec, headerFields{name: name, link: link, info: info, offset: img.offsets[i], entsize: osec.entsize(), flags: flags})
		bw.Write(h)
	}
	ph := make([]byte, cubin.PhdrSize)
	for _, p := range img.phdrs {
		clear(ph)
		le.PutUint32(ph[0:], p.typ)
		le.PutUint32(ph[4:], p.flags)
		le.PutUint64(ph[8:], p.off)
		le.PutUint64(ph[32:], p.filesz)
		le.PutUint64(ph[40:], p.memsz)
		le.PutUint64(ph[48:], 8)
		bw.Write(ph)
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if comp == nil {
		return nil
	}
	return comp.upTo(math.MaxInt) // the members of the inputs left
}

// composedByInputBytes is the size of inputs from which writeTo writes
// composed sections input by input (composer): with fewer, the
// inputs are not handed back between passes (fileMaps' batches), and the
// writes of each member on its own cost more than they save. Side by
// side (fork+wait4, medians of CPU = user + system): -G 100 objects (6.3
// MB) 39.4 -> 38.5 ms over 40 runs, large 400 (39.7 MB) 381 -> 355 ms
// over 8; the 100-object flat program (1.6 MB) 17.0 -> 17.8 ms and 10
// objects 0.2 MiB more at their peak (the writer's code for it, faulted
// in), were it not for this limit.
const composedByInputBytes = 4 << 20

// imageWriter is what writeTo writes through: a bufio.Writer, or an
// outPipe for a large file.
type imageWriter interface {
	io.Writer
	Flush() error
	Available() int
	AvailableBuffer() []byte
	Size() int
}

// composedTarget is an output writeTo can write out of order: a file.
type composedTarget interface {
	io.WriterAt
	io.Seeker
}

// laterSection is a composed section writeTo steps over: its index in
// the output and, member by member, the patches in each.
type laterSection struct {
	index   int
	patches [][]patch
}

// composer writes the composed sections writeTo steps over, input by
// input: every such section's members from the first input, then from
// the second, and so on, each member patched and written at its place.
// Section by section, as writeBytes writes them, each composed section
// walked every input, and each walk faulted the inputs' pages in again
// after the walk before had handed them back (fileMaps): a -G program's
// dozen debug sections each span every input. The bytes are the same:
// the members do not overlap, every patch lies within one, and what lies
// between them is zeros, as the file's gaps read. The members of a run
// of inputs are gathered in a buffer in file order (composedGroupBytes at
// a time), so that those that follow one another in the file, a
// section's members from consecutive inputs, are one write instead of
// one each.
//
// writeTo has it gather an input's members when its walk over the
// borrowed sections (a function's code, a kernel's constant bank) enters
// the input (upTo), while its pages are in: on a walk of its own after
// the others, the writer entered each input of the flat 400-object
// program three times, with it twice.
type composer struct {
	img     *image
	file    io.WriterAt
	walk    *inputWalk
	pieces  []composedPiece // by input, in the order of the members of each
	stepped []bool          // by output section: stepped over

	next       int // the next piece to gather
	start, end int // the current group: pieces[start:end]
	buf        []byte
	where      []int // each piece of the group's place in buf
	runs       []composedRun
}

// composedPiece is a member of a composed section.
type composedPiece struct {
	isec    *inputSection
	at      uint64 // the member's offset in the output file
	patches []patch
}

// composedRun is a stretch of a group's buffer written at once.
type composedRun struct {
	at   uint64 // where in the file
	size int
}

// newComposer prepares the composed sections later for writing.
func (img *image) newComposer(file io.WriterAt, later []laterSection, walk *inputWalk) *composer {
	c := &composer{img: img, file: file, walk: walk, stepped: make([]bool, len(img.ctx.outSections))}
	for _, l := range later {
		c.stepped[l.index] = true
		osec := img.ctx.outSections[l.index]
		for j, isec := range osec.members {
			if len(isec.sec.Data) > 0 {
				c.pieces = append(c.pieces, composedPiece{isec, img.offsets[l.index] + isec.outOff, l.patches[j]})
			}
		}
	}
	c.pieces = byInput(c.pieces, len(img.ctx.files), func(p composedPiece) int { return p.isec.file.index })
	return c
}

// stepsOver says whether writeTo steps over output section i.
func (c *composer) stepsOver(i int) bool { return c.stepped[i] }

// upTo gathers the members of the inputs up to the index-th, and writes
// each group once it is complete.
func (c *composer) upTo(index int) error {
	for c.next < len(c.pieces) && c.pieces[c.next].isec.file.index <= index {
		if c.next == c.end {
			c.plan()
		}
		p := c.pieces[c.next]
		c.walk.visit(c.img.ctx, p.isec.file)
		k := c.where[c.next-c.start]
		b := c.buf[k : k+len(p.isec.sec.Data)]
		copy(b, p.isec.sec.Data)
		applyPatches(b, p.isec.outOff, p.patches)
		c.next++
		if c.next == c.end {
			if err := c.write(); err != nil {
				return err
			}
		}
	}
	return nil
}

// plan makes the group that starts at the next piece: up to
// composedGroup bytes of pieces, their places in buf by file offset, and
// the runs of them that follow one another in the file.
func (c *composer) plan() {
	pieces := c.pieces
	start := c.next
	end, size := start+1, len(pieces[start].isec.sec.Data)
	for end < len(pieces) && size+len(pieces[end].isec.sec.Data) <= c.img.ctx.composedGroup {
		size += len(pieces[end].isec.sec.Data)
		end++
	}
	group := pieces[start:end]
	byAt := make([]int, 0, len(group))
	for i := range group {
		byAt = append(byAt, i)
	}
	slices.SortFunc(byAt, func(a, b int) int { return cmp.Compare(group[a].at, group[b].at) })
	c.where = slices.Grow(c.where[:0], len(group))[:len(group)]
	c.runs = c.runs[:0]
	n := 0
	for _, i := range byAt {
		p := group[i]
		if k := len(c.runs) - 1; k < 0 || c.runs[k].at+uint64(c.runs[k].size) != p.at {
			c.runs = append(c.runs, composedRun{at: p.at})
		}
		c.where[i] = n
		n += len(p.isec.sec.Data)
		c.runs[len(c.runs)-1].size += len(p.isec.sec.Data)
	}
	c.buf = slices.Grow(c.buf[:0], n)[:n]
	c.start, c.end = start, end
}

// write writes the current group's runs.
func (c *composer) write() error {
	n := 0
	for _, r := range c.runs {
		if _, err := c.file.WriteAt(c.buf[n:n+r.size], int64(r.at)); err != nil {
			return err
		}
		n += r.size
	}
	return nil
}

// composedGroupBytes is how many bytes of composed sections' members
// the composer gathers before it writes them. One write per member was
// 900 pwrite calls in a link of the 100-object -G benchmark program, 153
// with 64 KiB groups (36 with 256 KiB); side by side (21 interleaved runs
// each, medians, load 12 to 13) CPU 28.1 -> 26.7 ms and peak RSS 12096
// -> 12172 KiB with 64 KiB, 26.7 ms and 12240 KiB with 256 KiB.
const composedGroupBytes = 64 << 10

// layoutFile places the sections' contents after the 64-byte ELF header,
// each at its alignment, and returns their file offsets and where the
// section headers go.
func layoutFile(sections []*outputSection) (offsets []uint64, shoff uint64) {
	off := uint64(64)
	offsets = make([]uint64, len(sections))
	for i, osec := range sections {
		off = alignTo(off, max(osec.addralign, 1))
		offsets[i] = off
		if cubin.HasFileData(osec.typ) {
			off += osec.size
		}
	}
	return offsets, alignTo(off, 8)
}

// putSectionCounts writes e_shnum and e_shstrndx into the ELF header hdr.
// Past SHN_LORESERVE they do not fit: e_shnum goes to section 0's sh_size
// and e_shstrndx, then SHN_XINDEX, to its sh_link (sh0 is section 0's
// header).
func putSectionCounts(hdr, sh0 []byte, shnum, shstrndx int) {
	if shnum < cubin.SHN_LORESERVE {
		le.PutUint16(hdr[60:], uint16(shnum))
	} else {
		le.PutUint64(sh0[32:], uint64(shnum))
	}
	if shstrndx < cubin.SHN_LORESERVE {
		le.PutUint16(hdr[62:], uint16(shstrndx))
	} else {
		le.PutUint16(hdr[62:], cubin.SHN_XINDEX)
		le.PutUint32(sh0[40:], uint32(shstrndx))
	}
}

// headerFields are the fields of a section header that the writer
// computes rather than the section holding them.
type headerFields struct {
	name, link, info uint32
	offset, entsize  uint64
	flags            uint64 // added to the section's own (SHF_INFO_LINK)
}

// putSectionHeader encodes osec's ELF64 section header into h.
func putSectionHeader(h []byte, osec *outputSection, f headerFields) {
	le.PutUint32(h[0:], f.name)
	le.PutUint32(h[4:], osec.typ)
	le.PutUint64(h[8:], osec.flags|f.flags)
	le.PutUint64(h[24:], f.offset)
	le.PutUint64(h[32:], osec.size)
	le.PutUint32(h[40:], f.link)
	le.PutUint32(h[44:], f.info)
	le.PutUint64(h[48:], osec.addralign)
	le.PutUint64(h[56:], f.entsize)
}

// linkInfo returns a section's sh_link and sh_info, which hold final
// indices and so are computed as its header is written. .symtab links to
// .strtab; relocations, .nv.info*, .nv.callgraph, .nv.prototype,
// .symtab_shndx and code link to .symtab. sh_info is the first global
// symbol for .symtab, the patched section for relocations, the function's
// symbol (with its register count) for code, and the code section for a
// function's other sections. A partial link's output (relocatable) keeps
// a contribution's own sh_info, and the register byte as the input had it.
func (ctx *linkContext) linkInfo(osec *outputSection, symtab, strtab int32, relocatable bool) (link, info uint32) {
	switch {
	case osec.typ == cubin.SHT_SYMTAB:
		link, info = uint32(strtab), uint32(ctx.firstGlobal)
	case osec.typ == cubin.SHT_SYMTAB_SHNDX:
		link = uint32(symtab)
	case osec.isReloc():
		link, info = uint32(symtab), uint32(osec.rel.target.index)
	case osec.typ == cubin.SHT_CUDA_INFO || osec.typ == cubin.SHT_CUDA_CALLGRAPH || osec.typ == cubin.SHT_CUDA_PROTOTYPE:
		link = uint32(symtab)
	case relocatable && len(osec.members) > 0:
		info = osec.members[0].sec.Info
	}
	fn := osec.fn
	switch {
	case fn == nil:
	case osec != fn.text.out:
		info = uint32(fn.text.out.index)
	case relocatable:
		// The register byte stays the input's: a final link propagates
		// it through the call graph.
		link, info = uint32(symtab), fn.text.sec.Info&0xff000000|ctx.symtab.indexOf(fn.sym)
	default:
		// The register byte is rewritten only when a callee raised the
		// count: sm_90 inputs leave it 0, and so does nvlink unless
		// propagation changed it. nvlink 12.x keeps the input's byte.
		regs := fn.text.sec.Info >> 24
		if use := ctx.resourcesOf(fn); use.regs > fn.regs && ctx.toolkit.propagateTextRegs {
			regs = uint32(use.regs)
		}
		link, info = uint32(symtab), regs<<24|ctx.symtab.indexOf(fn.sym)
	}
	return link, info
}

// infoLink says whether nvlink 12.x sets SHF_INFO_LINK on osec: on every
// section whose sh_info is a section index (relocations: the section they
// patch; a function's sections but its code: the code section, as
// linkInfo computes it), except that a kernel's parameter bank
// (.nv.constant0.f) keeps its input's flag (an 11.8 input has none), and
// a weak kernel's that of its first copy when a later one replaced it
// (weakFirstBankLink). Bank 2 (.nv.constant2.f), which the linker rebuilds
// from the function's and its callees' constants, gets the flag whatever
// its inputs carry. The relocations of the texture and surface slots the
// linker adds to a kernel's bank 0 (.rel.nv.constant0.f, assignBindlessSlots)
// get none: nvlink 12.x links an 11.8 object's texture references so.
func (ctx *linkContext) infoLink(osec *outputSection) bool {
	if osec.isReloc() {
		return !strings.HasPrefix(osec.rel.target.name, ".nv.constant0.")
	}
	if osec.fn == nil || osec == osec.fn.text.out {
		return false
	}
	if strings.HasPrefix(osec.name, ".nv.constant2.") && ctx.bank2.lostOnly.has(osec.fn) && len(osec.members) > 0 {
		// A weak function's bank made of losing copies' constants alone
		// (its kept copy had none) is the first loser's section, flag
		// included (none for an 11.8 input).
		return osec.members[0].sec.Flags&cubin.SHF_INFO_LINK != 0
	}
	if strings.HasPrefix(osec.name, ".nv.constant0.") && len(osec.members) > 0 {
		if first, ok := ctx.weakFirstBankLink[osec.fn.sym]; ok {
			return first
		}
		return osec.members[0].sec.Flags&cubin.SHF_INFO_LINK != 0
	}
	return true
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
func (ctx *linkContext) programHeaders(offsets []uint64, phoff uint64) []phdr {
	var codeStart, codeEnd uint64
	haveCode := false
	var dataOff, dataSize, nobits, nobitsAlign uint64
	haveData := false
	for i, osec := range ctx.outSections {
		switch osec.group() {
		case groupConstant, groupText:
			if !haveCode {
				codeStart, haveCode = offsets[i], true
			}
			codeEnd = offsets[i] + osec.size
		case groupData:
			if !haveData {
				dataOff, haveData = offsets[i], true
			}
			dataSize = offsets[i] + osec.size - dataOff
		case groupNoBits:
			if !haveData {
				dataOff, haveData = offsets[i], true
			}
			nobitsAlign = max(nobitsAlign, osec.addralign)
			nobits = alignTo(nobits, max(osec.addralign, 1)) + osec.size
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
		// largest of their alignments, also when it holds no initialised
		// data (only .nv.global and .nv_debug.shared, aligned to 16, once
		// -variables-used alone removed every kernel: 8 bytes).
		dataSize = alignTo(dataOff+dataSize, nobitsAlign) - dataOff
		phs = append(phs, phdr{typ: ptLoad, flags: pfR | pfW, off: dataOff, filesz: dataSize, memsz: dataSize + nobits})
	}
	phs = append(phs, phdr{typ: ptLoad, flags: pfR | pfX, off: phoff, filesz: n * cubin.PhdrSize, memsz: n * cubin.PhdrSize})
	return phs
}

// appendRelocs appends a relocation section's entries to b, in the order
// they were kept or, reversed, in the reverse of it: nvlink emits an
// executable's entries in the reverse of the order it processed them.
func (ctx *linkContext) appendRelocs(b []byte, osec *outputSection, reversed bool) []byte {
	relocs := osec.rel.relocs
	for i := range relocs {
		r := relocs[i]
		if reversed {
			r = relocs[len(relocs)-1-i]
		}
		var symIdx uint32
		if r.sym != nil {
			symIdx = ctx.outSymIndex(r.sym)
		}
		b = le.AppendUint64(b, uint64(r.offset))
		b = le.AppendUint64(b, uint64(symIdx)<<32|uint64(r.typ))
		if osec.rela() {
			b = le.AppendUint64(b, uint64(r.addend))
		}
	}
	return b
}

// elfSym is an output symbol's .symtab fields.
type elfSym struct {
	name  uint32
	shndx uint32 // the real section index: see appendSymbol
	info  uint8
	other uint8
	// special: shndx is SHN_ABS or SHN_COMMON, not a section index
	special     bool
	value, size uint64
}

// outSymbolName adds the name of an entry of ctx.symtab.entries to the
// string table and returns the offset its st_name gets (the null
// symbol's, 0; a placeholder's, the empty name's, though its name goes in
// the table too).
func (ctx *linkContext) outSymbolName(e outSym) uint32 {
	switch {
	case e.sec != nil:
		return ctx.strtab.add(e.sec.name)
	case e.sym == nil:
		return 0
	}
	off := ctx.strtab.add(e.sym.name)
	if e.sym.isPlaceholder() {
		return ctx.strtab.empty
	}
	return off
}

// outSymbol returns the .symtab fields of an entry of ctx.symtab.entries
// (index 0 is the null symbol), whose name is at offset name in the string
// table (outSymbolName).
func (ctx *linkContext) outSymbol(e outSym, name uint32) elfSym {
	s := elfSym{name: name}
	switch {
	case e.sec != nil:
		s.info, s.shndx = cubin.STT_SECTION, uint32(e.sec.index)
	case e.sym == nil:
		s.value = ctx.null.value()
	default:
		sym := e.sym
		how := ctx.debugLayout.of(sym)
		s.info, s.other = sym.outInfo(), sym.outOther(how)
		if how != notPublished && ctx.config.PreserveRelocs && (how == preservedShared || !ctx.debugSymbols()) {
			// As nvlink marks the shared variables it keeps for
			// -preserve-relocs; those -g publishes anyway keep 0.
			s.other = 1
		}
		if ctx.unusedConstant(sym) {
			s.other = 1 // a variable the rebuild of bank 3 left out (rebuildConstantBank)
		}
		at := ctx.placed(sym)
		if how == publishedDynamic {
			s.shndx, s.value = uint32(ctx.outByName.get(".nv_debug.shared").index), at.value+ctx.debugLayout.dynamicShift
			break
		}
		s.value, s.size = at.value, sym.size
		switch {
		case how != publishedShared && how != preservedShared:
		case !ewpDebugShared(sym):
			// sm_90's reserve moves the shared variables, but not those
			// a -ewp -G image names in its .nv_debug.shared: its
			// file-scope variables stay, and its extern __shared__ array
			// (its one global there) moves as the other extern arrays.
			s.value += ctx.sharedReserve()
		case !sym.local:
			s.value += ctx.debugLayout.dynamicShift
		}
		switch {
		case at.out != nil:
			s.shndx = uint32(at.out.index)
		case sym.shndx == cubin.SHN_ABS || sym.shndx == cubin.SHN_COMMON:
			s.shndx, s.special = sym.shndx, true
		default:
			s.value = 0
		}
	}
	return s
}

// shndxWord is s's .symtab_shndx entry: its section index when
// st_shndx cannot hold it (SHN_XINDEX). For an index st_shndx holds, no
// reader looks at the entry, and nvlink leaves there the number it gave
// the section when it made it: its place in nvlink's creation order after
// the null section and the four tables nvlink makes first (.shstrtab,
// .strtab, .symtab, .symtab_shndx). Measured on the 1,600-object large
// benchmark program (124,817 sections), whose only such symbols are those
// of .debug_frame (section 5, entry 51), .nv.callgraph, .nv.prototype and
// .nv.rel.action (28,808-28,810; entries 144,015-144,017).
func (ctx *linkContext) shndxWord(s elfSym) uint32 {
	if s.special || s.shndx == 0 || s.shndx >= cubin.SHN_LORESERVE {
		return s.shndx
	}
	if order := ctx.names.secOrder.index(ctx.outSections[s.shndx-1].key()); order >= 0 {
		return uint32(order + 1 + ctx.tables.count()) // after the null section and the tables
	}
	return s.shndx
}

// appendSymbol appends s's .symtab entry to b. Past SHN_LORESERVE a
// section index does not fit st_shndx, which holds SHN_XINDEX: the index
// is in .symtab_shndx.
func appendSymbol(b []byte, s elfSym) []byte {
	st := uint16(s.shndx)
	if !s.special && s.shndx >= cubin.SHN_LORESERVE {
		st = cubin.SHN_XINDEX
	}
	b = le.AppendUint32(b, s.name)
	b = append(b, s.info, s.other)
	b = le.AppendUint16(b, st)
	b = le.AppendUint64(b, s.value)
	return le.AppendUint64(b, s.size)
}

// symbolsPerWrite is how many symbols image.writeTo encodes at a time.
const symbolsPerWrite = 1024

// writeBufferBytes is the size of image.writeTo's buffer, into which it
// also encodes the relocation sections and the symbol table (when a
// section, or symbolsPerWrite symbols, fit). A 256 KiB buffer and a
// scratch buffer grown to the largest such section, as before, were 0.5 MB
// of the 100-object flat benchmark program's 4.9 MB of allocations, at
// its peak; 64 KiB is 19 writes of its 1.2 MB output.
const writeBufferBytes = 64 << 10

// writeFileAtomic writes data to a temporary file in path's directory and
// renames it to path, so a reader sees either the old file or the whole new
// one, and an interrupted link leaves nothing behind (see tempOutput).
func (cfg *Config) writeFileAtomic(path string, data []byte) error {
	return cfg.writeFileAtomicWith(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteOutputFile writes data to path as a link writes its outputs
// (writeFileAtomic): a temporary file in path's directory renamed into
// place, with nvlink's mode, through a symbolic link, in place for a
// device; nothing is left on failure. linker/cli writes -ghls's host
// linker script with it.
func WriteOutputFile(path string, data []byte) error {
	return (&Config{}).writeFileAtomic(path, data)
}

// writeFileAtomicWith is writeFileAtomic for contents that write
// produces.
// The file is recorded in cfg.written, so that a link that panics later
// can remove it (Run). A path that names no regular file is written as
// outputTarget says: through a symbolic link, or into a device in place.
func (cfg *Config) writeFileAtomicWith(path string, write func(io.Writer) error) (werr error) {
	if path == "" {
		return fmt.Errorf("no output file named")
	}
	target, inPlace, err := outputTarget(path)
	if err != nil {
		return err
	}
	if inPlace {
		return writeInPlace(target, write)
	}
	path = target
	existing, err := writableIfExists(path)
	if err != nil {
		// nvlink opens an existing output for writing, so one it may not
		// write (read-only to the user, a running executable) stops the
		// link; the rename below would replace it.
		return outputError(path, err)
	}
	tmp, err := createTempOutput(tempNames(path))
	if err != nil {
		return outputError(path, err)
	}
	done := false
	defer func() {
		if !done { // an error, or a panic in write
			tmp.discard()
		}
	}()
	werr = write(tmp.f)
	if werr == nil {
		werr = keepMode(tmp.f, existing)
	}
	if werr == nil {
		werr = tmp.replace(path, existing.exists)
	}
	if werr != nil {
		return outputError(path, werr)
	}
	done = true
	cfg.written.add(path)
	return nil
}

// outputTarget says where the output named path goes, as nvlink's opening
// of path for writing would put it: a symbolic link is followed to the
// file it names (which is then written, or created, in its own directory,
// the link left as it is); a device, FIFO or socket (-o /dev/null,
// /dev/stdout, a pipe) is written in place, neither replaced by a regular
// file nor ever removed; a directory is an error. Else the output is the
// regular file path, new or replaced.
func outputTarget(path string) (target string, inPlace bool, err error) {
	if fi, err := os.Stat(path); err == nil {
		switch {
		case fi.IsDir():
			return "", false, fmt.Errorf("%s is a directory", path)
		case !fi.Mode().IsRegular():
			return path, true, nil
		}
	}
	name := path
	for range 40 { // the kernel's limit on symbolic links in a path
		fi, err := os.Lstat(name)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			// A regular file, a new one, or one that cannot be reached,
			// which creating the output then reports.
			return name, false, nil
		}
		dest, err := os.Readlink(name)
		if err != nil {
			return "", false, outputError(path, err)
		}
		if !filepath.IsAbs(dest) {
			// Relative to the link's directory, not cleaned: a ".."
			// after a linked directory is the kernel's to resolve.
			dest = name[:strings.LastIndexByte(name, '/')+1] + dest
		}
		name = dest
	}
	return "", false, outputError(path, syscall.ELOOP)
}

// writeInPlace writes the output into the file that is not a regular one
// at path (a device, a FIFO), as nvlink does: nothing replaces it, and a
// failure leaves it, since it is not the link's to remove.
func writeInPlace(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return outputError(path, err)
	}
	// Handed over as a plain writer, not the *os.File: writeTo then
	// writes it in order through bufio, neither through an outPipe at
	// offsets nor seeking past composed sections, which a FIFO refuses.
	err = write(struct{ io.Writer }{f})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return outputError(path, err)
	}
	return nil
}

// outputError is err, from creating, writing or naming the output path,
// as a message about path: the system's reason without the temporary
// file's name, which the user never gave.
func outputError(path string, err error) error {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return err
	}
	if _, err := os.Stat(filepath.Dir(path)); errno == syscall.ENOENT && err != nil {
		return fmt.Errorf("directory %s does not exist", filepath.Dir(path))
	}
	return fmt.Errorf("%s: %v", path, errno)
}

// ewpDebugShared says whether sym is one a -ewp -G image defines in its
// .nv_debug.shared (its file-scope __shared__ variables and extern
// __shared__ array).
func ewpDebugShared(sym *symbol) bool {
	return sym.file != nil && sym.file.inEWPDebugShared(sym.shndx)
}

// tempNames gives the directory and the name pattern (os.CreateTemp's) of
// the temporary files an output at path is written to before it replaces
// path: ".<name>.tmp*" beside it, so that the rename stays in one file
// system.
func tempNames(path string) (dir, pattern string) {
	return filepath.Dir(path), "." + filepath.Base(path) + ".tmp*"
}

// existingOutput is what writableIfExists found at the output's path.
type existingOutput struct {
	exists  bool
	regular bool        // a regular file, whose permissions are perm
	perm    os.FileMode // its permission bits
}

// keepMode gives the new output f the permissions of the regular file it
// replaces (existing), as nvlink's writing over that file in place keeps
// them; a new output keeps the mode it was created with, 0666 less the
// umask, as nvlink's.
func keepMode(f *os.File, existing existingOutput) error {
	if !existing.regular {
		return nil
	}
	return f.Chmod(existing.perm)
}

// A tempOutput is an output file being written. Where the system allows it
// (Linux, a file system with O_TMPFILE) the file has no name until it is
// finished, so a link that is interrupted leaves nothing behind without
// any signal handling; else it is a named temporary file in the same
// directory, registered in tempFiles while it exists.
type tempOutput struct {
	f    *os.File
	name string // "" while the file is unnamed
}

// discard closes and removes an unfinished output.
func (t *tempOutput) discard() {
	t.f.Close()
	if t.name != "" {
		os.Remove(t.name)
		unregisterTemp(t.name)
	}
}

// replace closes the finished output and moves it to path (replaceFile);
// exists says a file was there when the link looked (writableIfExists).
func (t *tempOutput) replace(path string, exists bool) error {
	if t.name == "" {
		return t.publish(path, exists)
	}
	defer unregisterTemp(t.name)
	err := t.f.Close()
	if err == nil {
		err = replaceFile(t.name, path)
	}
	if err != nil {
		os.Remove(t.name)
	}
	return err
}

// newNamedTemp creates a named temporary output file and registers it.
func newNamedTemp(dir, pattern string) (*tempOutput, error) {
	f, err := createTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	registerTemp(f.Name())
	return &tempOutput{f: f, name: f.Name()}, nil
}

// tempFiles holds the named temporary output files being written, and
// watchSignals starts, with the first of them, the goroutine that removes
// them on SIGINT or SIGTERM. They are the one piece of process-wide state:
// a signal ends the whole process, whichever link wrote the file. Watching
// for signals costs the runtime two threads (os/signal), a tenth of a
// 10-object link's CPU time, so it starts only when a named file exists.
var (
	tempFiles    sync.Map
	watchSignals sync.Once
)

func registerTemp(name string) {
	tempFiles.Store(name, struct{}{})
	watchSignals.Do(func() {
		signals := make(chan os.Signal, 1)
		signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
		go func() {
			sig := <-signals
			RemoveTempFiles()
			endBySignal(sig)
		}()
	})
}

func unregisterTemp(name string) { tempFiles.Delete(name) }

// RemoveTempFiles deletes every named temporary output file still being
// written, so an interrupted link leaves nothing behind. It runs when
// SIGINT or SIGTERM arrives while one exists.
func RemoveTempFiles() {
	tempFiles.Range(func(name, _ any) bool {
		os.Remove(name.(string))
		return true
	})
}
