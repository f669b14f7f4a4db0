package linker

import (
	"cmp"
	"encoding/binary"
	"io"
	"math"
	"slices"
	"sort"

	"github.com/cudalink/cudalink/linker/cubin"
)

// An output section's bytes take one of three forms:
//
//   - owned: data is the section's own, made by the linker (a merged
//     section, .nv.info, the string tables, a copy);
//   - borrowed: data is the input section's own bytes, shared with the
//     parsed input, which the worker may have cached for other links and
//     the loader may have mapped read-only. Relocated fields wait in
//     patches and are written into a copy when the section is written
//     out; a pass that needs to write other bytes gets a copy first
//     (ownBytes);
//   - gathered: data was dropped after relocation, and the writer
//     rebuilds it from the members' bytes and the runs relocation changed
//     (changedRuns);
//   - composed: a section merged from several inputs whose bytes were
//     never copied together: they are the members' own, each at its
//     offset, with zeros between, and relocated fields wait in patches as
//     in a borrowed section. The writer assembles them a window at a time
//     (compose).
//
// Only the functions of this file touch outputSection.data, borrowed, and
// the side record's patches and runs; the passes use the operations
// below: setBytes, borrow, grow, hasBytes, byteLen, read, patch, ownBytes,
// compose, gatherSections and writeBytes. A borrowed input therefore cannot be
// written by mistake: nothing hands out its bytes for writing.

// setBytes makes b the section's own bytes and its size.
func (osec *outputSection) setBytes(b []byte) {
	osec.data, osec.borrowed, osec.size = b, false, uint64(len(b))
	if osec.ext != nil {
		osec.ext.patches, osec.ext.runs, osec.ext.composed, osec.ext.patchesUnsorted, osec.ext.patched = nil, nil, false, false, nil
	}
}

// compose makes the section's bytes its members' own, each at its
// outOff, with zeros between, and its size size, without copying them
// (see composed). The members must be in offset order and not overlap,
// none with more bytes than its section's size.
//
// A section merged from several inputs (a -G program's debug sections,
// .nv.global.init, .debug_frame) is not copied together at layout: the
// copy was most of that pass's time in a -G link (6 MB of inputs, 2.5 MB
// of merged debug sections), its pages were a sixth of the link's peak,
// and the writer then wrote it once more. Relocated fields wait as
// patches, and the writer reads the members' bytes where it would have
// read the copy.
func (osec *outputSection) compose(size uint64) {
	osec.data, osec.borrowed, osec.size = nil, false, size
	x := osec.more()
	x.patches, x.runs, x.composed, x.patchesUnsorted = nil, nil, true, false
	x.membersUnordered, x.lastMember = false, 0
	x.patched = make([]uint64, size/fieldWindow/64+1)
}

// composable says whether placeContributions can compose osec (see
// compose) rather than copy its members together: they are placed one
// after another, each holding no more bytes than its size.
func (osec *outputSection) composable() bool {
	if osec.fixedOffsets {
		return false
	}
	var end uint64
	for _, isec := range osec.members {
		if isec.outOff < end || uint64(len(isec.sec.Data)) > isec.sec.Size {
			return false
		}
		end = isec.outOff + isec.sec.Size
	}
	return true
}

// composed says whether osec's bytes are its members' (see compose).
func (osec *outputSection) composed() bool {
	return osec.ext != nil && osec.ext.composed
}

// borrow makes the input's bytes b the section's, shared until a pass
// needs its own (see ownBytes).
func (osec *outputSection) borrow(b []byte) {
	osec.data, osec.borrowed = b[:len(b):len(b)], true
	if osec.ext != nil {
		osec.ext.composed = false
	}
}

// grow extends the section's bytes with n zero bytes (its own from then
// on) and its size with them.
func (osec *outputSection) grow(n uint64) {
	data := osec.ownBytes()
	osec.data = append(data[:len(data):len(data)], make([]byte, n)...)
	osec.size = uint64(len(osec.data))
}

// hasBytes says whether the section has contents (in any form).
func (osec *outputSection) hasBytes() bool {
	return osec.data != nil || osec.gathered() || osec.composed()
}

// byteLen is the length of the section's contents, which a malformed input
// can make exceed its size (a gathered section's is its size).
func (osec *outputSection) byteLen() uint64 {
	if osec.gathered() || osec.composed() {
		return osec.size
	}
	return uint64(len(osec.data))
}

// A patch is a relocated field of a borrowed output section: the section's
// bytes are still the input's, so the value waits here and is written into
// a copy when the section is written out. Most relocated sections are
// functions' code, which would otherwise be copied whole to change a few
// fields. (A large link makes some hundred thousand: the fields are as
// narrow as their values allow, 16 bytes in all.)
type patch struct {
	value uint64
	off   uint32 // relocate refuses a place past 4 GiB
	typ   uint16 // the types that insert anything are below 256 (see insert)
	bank  uint8  // Insert keeps the low 5 bits: a bank field is 5 bits wide
}

// fieldWindow bounds the bytes one relocated field spans (an instruction).
const fieldWindow = 16

// patch writes value (and a constant bank) into the field of type typ at
// off, as cubin.RelocHow.Insert does: in a borrowed section, into a
// pending patch.
func (osec *outputSection) patch(off uint64, typ cubin.RelocType, value, bank uint64) {
	if osec.borrowed || osec.composed() {
		if typ > math.MaxUint16 {
			return // not in cubin's table: no field to insert into
		}
		x := osec.more()
		if n := len(x.patches); n > 0 && uint64(x.patches[n-1].off) > off {
			x.patchesUnsorted = true
		}
		if x.composed {
			if m := osec.memberAt(off); m < x.lastMember {
				x.membersUnordered = true
			} else {
				x.lastMember = m
			}
			for _, b := range [2]uint64{off / fieldWindow, (off + fieldWindow - 1) / fieldWindow} {
				if b/64 < uint64(len(x.patched)) {
					x.patched[b/64] |= 1 << (b % 64)
				}
			}
		}
		x.patches = append(x.patches, patch{value, uint32(off), uint16(typ), uint8(bank)})
		return
	}
	cubin.HowToRelocate(typ).Insert(osec.ownBytes()[off:], value, bank)
}

// read returns the section's bytes from off, for reading a field's
// current contents (a .rel entry's implicit addend), never for writing: a
// pending patch that may overlap the field is applied first.
func (osec *outputSection) read(off uint64) []byte {
	if osec.composed() {
		return osec.readComposed(off)
	}
	for _, pt := range osec.patches() {
		if at := uint64(pt.off); at < off+fieldWindow && off < at+fieldWindow {
			osec.ownBytes()
			break
		}
	}
	if osec.gathered() {
		osec.ownBytes()
	}
	return osec.data[off:]
}

// readIn is read for a field of member isec, at off in the section: in a
// composed section, the member's own bytes when no patch is near and the
// field lies within it, which readComposed would find by a binary search
// over the members (1 ms of a 35 ms link on the weak-template program of
// docs/benchmarks.md, 40 .debug_frame members).
func (osec *outputSection) readIn(isec *inputSection, off uint64) []byte {
	if osec.composed() && off >= isec.outOff && !osec.patchNear(off) {
		if end := min(off+fieldWindow, osec.size); end <= isec.outOff+uint64(len(isec.sec.Data)) {
			return isec.sec.Data[off-isec.outOff:]
		}
	}
	return osec.read(off)
}

// ownBytes returns the section's final bytes for writing, making them its
// own (a copy of the input's with every pending patch applied) if they are
// borrowed, and rebuilding them if they were gathered.
func (osec *outputSection) ownBytes() []byte {
	if osec.composed() {
		b := osec.assemble(nil, nil, nil, 0, osec.size, nil)
		applyPatches(b, 0, osec.patches())
		osec.data = b
		osec.ext.patches, osec.ext.composed, osec.ext.patchesUnsorted, osec.ext.patched = nil, false, false, nil
	}
	if osec.gathered() {
		osec.data = osec.assemble(nil, nil, nil, 0, osec.size, osec.ext.runs)
		osec.ext.runs = nil
	}
	if osec.borrowed {
		b := append([]byte(nil), osec.data...)
		applyPatches(b, 0, osec.patches())
		osec.data, osec.borrowed = b, false
		if osec.ext != nil {
			osec.ext.patches = nil
		}
	}
	return osec.data
}

// readComposed is read for a composed section: the field at off is a
// member's own bytes unless a patch is near it or it does not lie in one
// member, when the bytes around it are assembled, with the patches over
// them. (Materializing the section instead would read every member, and
// fields next to each other, a debug entry's attributes, are common.)
func (osec *outputSection) readComposed(off uint64) []byte {
	end := min(off+fieldWindow, osec.size)
	if osec.patchNear(off) {
		lo := off - min(off, fieldWindow)
		buf := osec.assembleComposed(lo, min(end+fieldWindow, osec.size))
		osec.applyPatchesIn(buf, lo, end)
		return buf[off-lo:]
	}
	if i := osec.memberAt(off); i >= 0 {
		if isec := osec.members[i]; end <= isec.outOff+uint64(len(isec.sec.Data)) {
			return isec.sec.Data[off-isec.outOff:]
		}
	}
	return osec.assembleComposed(off, end)
}

// memberAt is the index of the last member placed at or before off, -1
// if there is none: in a composed section, whose members are in offset
// order, the one member that may hold off.
func (osec *outputSection) memberAt(off uint64) int {
	i, _ := slices.BinarySearchFunc(osec.members, off+1, func(isec *inputSection, at uint64) int {
		return cmp.Compare(isec.outOff, at)
	})
	return i - 1
}

// assembleComposed is assemble for a few bytes of a composed section, [w0,
// w1): it copies only the members that overlap them, which lie from
// memberAt(w0) on (the members are in offset order and do not overlap).
// A relocated field is read so (readComposed), and assemble's walk over
// every member made relocating a composed section quadratic in its
// members: the flat 400-object program's .debug_frame (400 members, 3,200
// relocations) took half of "apply relocations".
func (osec *outputSection) assembleComposed(w0, w1 uint64) []byte {
	buf := make([]byte, w1-w0)
	for _, isec := range osec.members[max(osec.memberAt(w0), 0):] {
		if isec.outOff >= w1 {
			break
		}
		if end := isec.outOff + uint64(len(isec.sec.Data)); end > w0 {
			lo, hi := max(isec.outOff, w0), min(end, w1)
			copy(buf[lo-w0:hi-w0], isec.sec.Data[lo-isec.outOff:hi-isec.outOff])
		}
	}
	return buf
}

// patchNear says whether a pending patch's field may overlap the field at
// off, a composed section's (fields span at most fieldWindow bytes): two
// fields that overlap share a byte, whose fieldWindow-byte block the
// patch marked. Patches need not come in offset order (a member's .rel
// and .rela relocations come one list after the other).
func (osec *outputSection) patchNear(off uint64) bool {
	marked := osec.ext.patched
	for _, b := range [2]uint64{off / fieldWindow, (off + fieldWindow - 1) / fieldWindow} {
		if b/64 < uint64(len(marked)) && marked[b/64]&(1<<(b%64)) != 0 {
			return true
		}
	}
	return false
}

// patchIndex returns the index of the first of patches, sorted by offset,
// whose field may reach off or beyond (its offset is at least
// off-fieldWindow+1).
func patchIndex(patches []patch, off uint64) int {
	from := uint64(0)
	if off >= fieldWindow {
		from = off - fieldWindow + 1
	}
	i, _ := slices.BinarySearchFunc(patches, from, func(pt patch, at uint64) int {
		return cmp.Compare(uint64(pt.off), at)
	})
	return i
}

// applyPatchesIn writes into buf, which holds the section's bytes from
// lo, the patches whose fields start in [lo, hi), in the order they were
// made.
func (osec *outputSection) applyPatchesIn(buf []byte, lo, hi uint64) {
	patches := osec.patches()
	sorted := osec.ext == nil || !osec.ext.patchesUnsorted
	if sorted {
		patches = patches[patchIndex(patches, lo+fieldWindow-1):]
	} else if x := osec.ext; x.composed && !x.membersUnordered && lo < hi {
		patches = osec.memberPatchRange(lo, hi)
	}
	for _, pt := range patches {
		at := uint64(pt.off)
		if at >= hi {
			if sorted {
				break
			}
			continue
		}
		if at < lo {
			continue
		}
		cubin.HowToRelocate(cubin.RelocType(pt.typ)).Insert(buf[at-lo:], pt.value, uint64(pt.bank))
	}
}

// memberPatchRange returns the run of a composed section's patches that
// holds every patch whose field starts in [lo, hi), when the patches were
// made member after member in offset order (not membersUnordered), if not
// in offset order within a member: relocation reads each field's current
// contents (readComposed), and a scan of every patch for each read made
// it quadratic in the patches (see assembleComposed). memberAt grows with
// the offset, so the patches whose fields start in the members from
// memberAt(lo) to memberAt(hi-1), and only those, start in [lo, hi) or
// near it, and they follow one another in the list.
func (osec *outputSection) memberPatchRange(lo, hi uint64) []patch {
	patches := osec.patches()
	first, last := osec.memberAt(lo), osec.memberAt(hi-1)
	from := sort.Search(len(patches), func(k int) bool { return osec.memberAt(uint64(patches[k].off)) >= first })
	to := from + sort.Search(len(patches)-from, func(k int) bool { return osec.memberAt(uint64(patches[from+k].off)) > last })
	return patches[from:to]
}

// patches are the pending writes to a borrowed section's bytes.
func (osec *outputSection) patches() []patch {
	if osec.ext == nil {
		return nil
	}
	return osec.ext.patches
}

// clipPatches gives the patch list an array of its own length (see
// clipped), once relocation is done.
func (osec *outputSection) clipPatches() {
	if osec.ext != nil {
		osec.ext.patches = clipped(osec.ext.patches)
	}
}

// applyPatches writes every patch into b, which holds the section's bytes
// from offset from, in the order they were made.
func applyPatches(b []byte, from uint64, patches []patch) {
	for _, pt := range patches {
		cubin.HowToRelocate(cubin.RelocType(pt.typ)).Insert(b[uint64(pt.off)-from:], pt.value, uint64(pt.bank))
	}
}

// A gathered section is one that merges several inputs (placeContributions
// copied their bytes together) whose bytes were dropped once relocation
// was done (gatherSections): the writer rebuilds them from the members'
// own bytes, which the parsed inputs hold anyway, and the runs of bytes
// that relocation changed. A large link's .debug_frame and .nv.global.init
// take megabytes; the changed runs, a few bytes each, some thousands.
//
// The runs are encoded one after another in offset order, each as the
// uvarint gap from the end of the previous one, its uvarint length and
// its bytes.
type changedRuns struct {
	b   []byte
	end uint64 // where the last run ends
}

// add appends the run b at off, which is not before the last run's end.
func (c *changedRuns) add(off uint64, b []byte) {
	c.b = binary.AppendUvarint(c.b, off-c.end)
	c.b = binary.AppendUvarint(c.b, uint64(len(b)))
	c.b = append(c.b, b...)
	c.end = off + uint64(len(b))
}

// addChanged adds the bytes of data that differ from base (both from off
// in the section); changes fewer than 4 bytes apart make one run.
func (c *changedRuns) addChanged(off uint64, base, data []byte) {
	for i := 0; i < len(data); {
		if base[i] == data[i] {
			i++
			continue
		}
		end := i + 1
		for j := end; j < len(data) && j < end+4; j++ {
			if base[j] != data[j] {
				end = j + 1
			}
		}
		c.add(off+uint64(i), data[i:end])
		i = end
	}
}

// each calls f with every run, in offset order, until f returns false.
func (c *changedRuns) each(f func(off uint64, b []byte) bool) {
	var end uint64
	for b := c.b; len(b) > 0; {
		gap, n := binary.Uvarint(b)
		size, m := binary.Uvarint(b[n:])
		b = b[n+m:]
		off := end + gap
		if !f(off, b[:size]) {
			return
		}
		b, end = b[size:], off+size
	}
}

// gatherInputBytes is the size of inputs from which a link gathers its
// merged sections (see gatherSections): the large 400-object benchmark
// program (40 MB) gathers, the large 100-object one (10 MB) does not.
const gatherInputBytes = 16 << 20

// gatheredWindow is how much of a gathered section is rebuilt at a time.
const gatheredWindow = 64 << 10

// gatherSections drops the assembled bytes of every section built from
// its members, keeping the runs that differ from them, in a link of
// gatherInputBytes of inputs or more. Composed sections (compose) never
// had assembled bytes: what is left to gather are sections whose members
// placeContributions had to copy together (bank-2 overlays at fixed
// offsets, members that overlap).
//
// A smaller link keeps the bytes: there the gathering costs more than it
// saves. It walks every input once per gathered section, and the writer
// walks them all again to rebuild the bytes, each walk faulting in the
// inputs' pages and handing them back (a -G program's dozen debug
// sections span every input); and the heap it frees is not given back to
// the system before the link's peak, which it does not lower. Measured
// side by side, 7 runs each (CPU = user + system, median): -G 100 objects
// 72.8 -> 54.3 ms, flat 400 116 -> 104 ms, flat 100 20.8 -> 19.2 ms, peak
// RSS the same or up to 0.4 MiB lower; large 100 (9.9 MB) the same.
func gatherSections(ctx *linkContext) {
	if inputBytes(ctx.files) < ctx.gatherFrom {
		return
	}
	var walk inputWalk
	var base []byte
	for _, osec := range ctx.made {
		if osec.borrowed || len(osec.members) == 0 || osec.size == 0 || uint64(len(osec.data)) != osec.size ||
			!cubin.HasFileData(osec.typ) || osec.typ == cubin.SHT_CUDA_INFO { // .nv.info is rebuilt
			continue
		}
		var runs changedRuns
		for w0 := uint64(0); w0 < osec.size; w0 += gatheredWindow {
			w1 := min(w0+gatheredWindow, osec.size)
			base = osec.assemble(ctx, &walk, base, w0, w1, nil)
			runs.addChanged(w0, base, osec.data[w0:w1])
		}
		runs.b = clipped(runs.b)
		osec.data, osec.more().runs = nil, &runs
	}
}

// writeBytes writes the section's contents to w: a gathered section is
// rebuilt from the inputs a window at a time, a borrowed one's patches go
// into a copy. It returns how many bytes it wrote and scratch, a buffer
// reused from one section to the next. walk, if not nil, releases the
// inputs' mappings once read.
func (osec *outputSection) writeBytes(ctx *linkContext, walk *inputWalk, w io.Writer, scratch []byte) (uint64, []byte) {
	written := uint64(len(osec.data))
	switch {
	case osec.composed():
		// Each window is assembled with fieldWindow bytes on either side,
		// for the patches whose fields cross its edges.
		for w0 := uint64(0); w0 < osec.size; w0 += gatheredWindow {
			w1 := min(w0+gatheredWindow, osec.size)
			lo, hi := w0-min(w0, fieldWindow), min(w1+fieldWindow, osec.size)
			scratch = osec.assemble(ctx, walk, scratch, lo, hi, nil)
			osec.applyPatchesIn(scratch, lo, w1)
			w.Write(scratch[w0-lo : w1-lo])
		}
		written = osec.size
	case osec.gathered():
		for w0 := uint64(0); w0 < osec.size; w0 += gatheredWindow {
			scratch = osec.assemble(ctx, walk, scratch, w0, min(w0+gatheredWindow, osec.size), osec.ext.runs)
			w.Write(scratch)
		}
		written = osec.size
	case len(osec.patches()) > 0:
		// A borrowed section with relocated fields: patch a copy, in the
		// writer's buffer when it fits there (most functions' code), by
		// the outPipe's goroutine when there is one.
		if pw, ok := w.(*outPipe); ok && len(osec.data) <= pw.Size() {
			pw.writePatched(osec.data, osec.patches())
			break
		}
		if iw, ok := w.(imageWriter); ok && len(osec.data) <= iw.Size() {
			if len(osec.data) > iw.Available() {
				iw.Flush()
			}
			b := append(iw.AvailableBuffer(), osec.data...)
			applyPatches(b, 0, osec.patches())
			iw.Write(b)
			break
		}
		if sw, ok := w.(stableWriter); ok {
			buf := sw.buffer(len(osec.data))
			copy(buf, osec.data)
			applyPatches(buf, 0, osec.patches())
			sw.writeStable(buf, true)
			break
		}
		scratch = append(scratch[:0], osec.data...)
		applyPatches(scratch, 0, osec.patches())
		w.Write(scratch)
	default:
		if sw, ok := w.(stableWriter); ok && len(osec.data) >= sw.Size() {
			// Nothing changes the section's bytes from now on.
			sw.writeStable(osec.data, false)
			break
		}
		w.Write(osec.data)
	}
	if osec.borrowed && walk != nil && len(osec.members) > 0 {
		walk.visit(ctx, osec.members[0].file)
	}
	return written, scratch
}

// memberPatches splits a composed section's patches by member (each
// member's are those whose fields lie within its bytes, in order), for a
// writer that writes the members one by one (composer). It says
// false when they cannot be split so: patches made neither in offset order
// nor member after member (membersUnordered), members out of order or
// overlapping, a member of no input, a patch outside every member or
// crossing a member's end. Patches made member after member, as relocation
// makes them, split so even when they are out of offset order within a
// member: a member's patches are the run of them before the next member's.
func (osec *outputSection) memberPatches() ([][]patch, bool) {
	if x := osec.ext; x != nil && x.patchesUnsorted && x.membersUnordered {
		return nil, false
	}
	patches := osec.patches()
	split := make([][]patch, len(osec.members))
	var end uint64 // where the members so far end
	for j, isec := range osec.members {
		start := isec.outOff
		if isec.file == nil || start < end {
			return nil, false
		}
		end = start + uint64(len(isec.sec.Data))
		n := 0
		for n < len(patches) && uint64(patches[n].off) < end {
			pt := patches[n]
			if uint64(pt.off) < start || uint64(pt.off)+cubin.HowToRelocate(cubin.RelocType(pt.typ)).Span() > end {
				return nil, false
			}
			n++
		}
		split[j], patches = patches[:n], patches[n:]
	}
	if len(patches) > 0 {
		return nil, false // patches past the last member
	}
	return split, true
}

// gathered says whether osec's bytes are to be rebuilt from its members
// (see changedRuns).
func (osec *outputSection) gathered() bool {
	return osec.data == nil && osec.ext != nil && osec.ext.runs != nil
}

// assemble returns in buf the section's bytes [w0, w1): each member's
// bytes at its offset (later members over earlier ones, as
// placeContributions copies them), zeros between, and the changed runs
// over them. walk, if not nil, releases each input's mapping once read.
func (osec *outputSection) assemble(ctx *linkContext, walk *inputWalk, buf []byte, w0, w1 uint64, runs *changedRuns) []byte {
	buf = slices.Grow(buf[:0], int(w1-w0))[:w1-w0]
	clear(buf)
	put := func(at uint64, b []byte) {
		if end := at + uint64(len(b)); at < w1 && end > w0 {
			lo, hi := max(at, w0), min(end, w1)
			copy(buf[lo-w0:hi-w0], b[lo-at:hi-at])
		}
	}
	for _, isec := range osec.members {
		if walk != nil && isec.outOff < w1 && isec.outOff+uint64(len(isec.sec.Data)) > w0 {
			walk.visit(ctx, isec.file)
		}
		put(isec.outOff, isec.sec.Data)
	}
	if runs != nil {
		runs.each(func(off uint64, b []byte) bool {
			put(off, b)
			return off < w1
		})
	}
	return buf
}
