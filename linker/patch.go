package linker

import (
	"math"

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
func (osec *OutputSection) insert(off uint64, typ cubin.RelocType, value, bank uint64) {
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
func (osec *OutputSection) field(off uint64) []byte {
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
func (osec *OutputSection) contents() []byte {
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
