package linker

import (
	"encoding/binary"
	"math"
	"slices"

	"github.com/cudalink/cudalink/linker/cubin"
)

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

// insert writes value (and a constant bank) into the field of type typ at
// off, as cubin.RelocHow.Insert does.
func (osec *outputSection) insert(off uint64, typ cubin.RelocType, value, bank uint64) {
	if osec.borrowed {
		if typ > math.MaxUint16 {
			return // not in cubin's table: no field to insert into
		}
		x := osec.more()
		x.patches = append(x.patches, patch{value, uint32(off), uint16(typ), uint8(bank)})
		return
	}
	cubin.HowToRelocate(typ).Insert(osec.Data[off:], value, bank)
}

// field returns the section's bytes from off, for reading a field's
// current contents (a .rel entry's implicit addend): a pending patch that
// may overlap the field is applied first.
func (osec *outputSection) field(off uint64) []byte {
	for _, pt := range osec.patches() {
		if at := uint64(pt.off); at < off+fieldWindow && off < at+fieldWindow {
			osec.contents()
			break
		}
	}
	return osec.Data[off:]
}

// contents returns the section's final bytes, making them its own (a copy
// of the input's with every pending patch applied) if they are borrowed.
func (osec *outputSection) contents() []byte {
	if osec.gathered() {
		osec.Data = osec.assemble(nil, nil, nil, 0, osec.Size, osec.ext.runs)
		osec.ext.runs = nil
	}
	if osec.borrowed {
		b := append([]byte(nil), osec.Data...)
		applyPatches(b, osec.patches())
		osec.Data, osec.borrowed = b, false
		if osec.ext != nil {
			osec.ext.patches = nil
		}
	}
	return osec.Data
}

// applyPatches writes every patch into b, in the order they were made.
func applyPatches(b []byte, patches []patch) {
	for _, pt := range patches {
		cubin.HowToRelocate(cubin.RelocType(pt.typ)).Insert(b[pt.off:], pt.value, uint64(pt.bank))
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

// gatheredWindow is how much of a gathered section is rebuilt at a time.
const gatheredWindow = 64 << 10

// gatherSections drops the assembled bytes of every section built from
// its members, keeping the runs that differ from them.
func gatherSections(ctx *linkContext) {
	var walk inputWalk
	var base []byte
	for _, osec := range ctx.OutSections {
		if osec.borrowed || len(osec.Members) == 0 || osec.Size == 0 || uint64(len(osec.Data)) != osec.Size ||
			!cubin.HasFileData(osec.Type) || osec.Type == cubin.SHT_CUDA_INFO { // .nv.info is rebuilt
			continue
		}
		var runs changedRuns
		for w0 := uint64(0); w0 < osec.Size; w0 += gatheredWindow {
			w1 := min(w0+gatheredWindow, osec.Size)
			base = osec.assemble(ctx, &walk, base, w0, w1, nil)
			runs.addChanged(w0, base, osec.Data[w0:w1])
		}
		runs.b = clipped(runs.b)
		osec.Data, osec.more().runs = nil, &runs
	}
}

// gathered says whether osec's bytes are to be rebuilt from its members
// (see changedRuns).
func (osec *outputSection) gathered() bool {
	return osec.Data == nil && osec.ext != nil && osec.ext.runs != nil
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
	for _, isec := range osec.Members {
		if walk != nil && isec.OutOff < w1 && isec.OutOff+uint64(len(isec.Sec.Data)) > w0 {
			walk.visit(ctx, isec.File)
		}
		put(isec.OutOff, isec.Sec.Data)
	}
	if runs != nil {
		runs.each(func(off uint64, b []byte) bool {
			put(off, b)
			return off < w1
		})
	}
	return buf
}
