package linker

import "github.com/cudalink/cudalink/linker/cubin"

// A patch is a relocated field of a borrowed output section: the section's
// bytes are still the input's, so the value waits here and is written into
// a copy when the section is written out. Most relocated sections are
// functions' code, which would otherwise be copied whole to change a few
// fields.
type patch struct {
	off, value, bank uint64
	typ              cubin.RelocType
}

// fieldWindow bounds the bytes one relocated field spans (an instruction).
const fieldWindow = 16

// insert writes value (and a constant bank) into the field of type typ at
// off, as cubin.RelocHow.Insert does.
func (osec *OutputSection) insert(off uint64, typ cubin.RelocType, value, bank uint64) {
	if osec.borrowed {
		osec.patches = append(osec.patches, patch{off, value, bank, typ})
		return
	}
	cubin.HowToRelocate(typ).Insert(osec.Data[off:], value, bank)
}

// field returns the section's bytes from off, for reading a field's
// current contents (a .rel entry's implicit addend): a pending patch that
// may overlap the field is applied first.
func (osec *OutputSection) field(off uint64) []byte {
	for _, pt := range osec.patches {
		if pt.off < off+fieldWindow && off < pt.off+fieldWindow {
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
		applyPatches(b, osec.patches)
		osec.Data, osec.borrowed, osec.patches = b, false, nil
	}
	return osec.Data
}

// applyPatches writes every patch into b, in the order they were made.
func applyPatches(b []byte, patches []patch) {
	for _, pt := range patches {
		cubin.HowToRelocate(pt.typ).Insert(b[pt.off:], pt.value, pt.bank)
	}
}
