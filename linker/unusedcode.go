package linker

import (
	"cmp"
	"slices"
	"unsafe"

	"github.com/cudalink/cudalink/linker/cubin"
)

// releaseUnusedCode hands back the pages of the decompressed device images
// (fileMaps.imageBuffer) that hold only code no output section takes: the
// code of the weak copies that lost (resolveSymbols) and of the functions
// dead-code elimination removed. From "merge sections" on no pass reads a
// code section that is not in the output: relocation and the writer go by
// the output sections' members, and what the passes read of the functions
// they dropped (relocations, .nv.info, symbols) is in other sections,
// which stay, as do the file's headers. Their pages are handed back whole,
// and only where a run of such sections (and the padding between them)
// covers a page.
//
// The weak-template program of docs/benchmarks.md ("Shapes the harness does
// not have"; 40 host objects instantiating the same 150 templates) holds
// 8.7 MB of images, 3.4 MB of it the code of the 5,850 losing copies,
// which stayed resident to the end of the link. An input of nvcc -c -ewp
// (ET_CUDA_EWP) keeps all of its code: its functions are copied into its
// kernels.
func releaseUnusedCode(ctx *linkContext) {
	type span struct {
		at, end uintptr
		unused  bool
	}
	var spans []span
	for _, file := range ctx.files {
		data := file.ELF.Data
		if file.ELF.Header.Type == cubin.ET_CUDA_EWP || !ctx.maps.inArena(data) {
			continue
		}
		spans = spans[:0]
		for _, isec := range file.sections {
			b := isec.sec.Data
			if !within(b, data) {
				continue // no bytes, or not in the image (copyMetadata's)
			}
			s := isec.sec
			unused := isec.out == nil && s.Type == cubin.SHT_PROGBITS && s.Flags&cubin.SHF_EXECINSTR != 0
			spans = append(spans, span{addr(b), addr(b) + uintptr(len(b)), unused})
		}
		slices.SortFunc(spans, func(a, b span) int { return cmp.Compare(a.at, b.at) })
		// Each run of unused sections, from its first one's start to its
		// last one's end (what lies between them is padding, read by no
		// one; what lies around it may be the file's headers).
		var from, to, usedEnd uintptr
		run := false
		release := func(end uintptr) {
			if end > from {
				ctx.maps.releaseUnused(from, end-from)
			}
			run = false
		}
		for _, sp := range spans {
			switch {
			case sp.unused && !run:
				from, to, run = max(sp.at, usedEnd), sp.end, true
			case sp.unused:
				to = max(to, sp.end)
			default:
				if run {
					release(min(to, sp.at))
				}
				usedEnd = max(usedEnd, sp.end)
			}
		}
		if run {
			release(to)
		}
	}
}

// releaseSectionHeaders hands back the pages of the section header
// tables of objs' images that were decompressed into arenas
// (fileMaps.imageBuffer): parsing has read them (cubin.File.
// DropSectionHeaders keeps the offsets and entry sizes, all that is read
// of them later). On the weak-template program of docs/benchmarks.md, 470
// sections an image, 30 KB of each 212 KB image.
func releaseSectionHeaders(maps *fileMaps, objs []*Object) {
	for _, obj := range objs {
		if obj.ELF == nil || !maps.inArena(obj.ELF.Data) {
			continue
		}
		if n := obj.ELF.DropSectionHeaders(); n > 0 {
			end := addr(obj.ELF.Data) + uintptr(len(obj.ELF.Data))
			maps.releaseUnused(end, uintptr(n))
		}
	}
}

// addr is the address of a slice's first byte.
func addr(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }

// within says whether b has bytes and they all lie in a's.
func within(b, a []byte) bool {
	return len(b) > 0 && addr(b) >= addr(a) && addr(b)+uintptr(len(b)) <= addr(a)+uintptr(len(a))
}
