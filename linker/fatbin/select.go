package fatbin

import "github.com/cudalink/cudalink/linker/cubin"

// Select returns the cubin nvlink 11.8 links for -arch=sm_<sm>: the ELF
// entry for exactly that SM, else the ELF entry of the same major
// architecture with the highest lower minor (sm_80 for sm_86, sm_70 for
// sm_75), else none. A cubin of a higher minor or of another major is never
// chosen. Among equal candidates the first in file order wins. 32-bit
// entries are ignored, as nvlink -m64 does.
//
// PTX is not considered: whether PTX could be JIT-compiled instead is
// answered by HasPTX and SelectPTX.
func Select(entries []Entry, sm int) (Entry, bool) {
	best := -1
	for i, e := range entries {
		if e.Kind != KindELF || !e.Is64Bit() || !cubin.ArchCompatible(e.SM, sm) {
			continue
		}
		if best < 0 || e.SM > entries[best].SM {
			best = i
		}
	}
	if best < 0 {
		return Entry{}, false
	}
	return entries[best], true
}

// HasPTX reports whether any entry is PTX.
func HasPTX(entries []Entry) bool {
	for _, e := range entries {
		if e.Kind == KindPTX {
			return true
		}
	}
	return false
}

// SelectPTX returns the PTX entry that could be compiled for sm_<sm>: the
// one with the highest virtual architecture not above sm (PTX for
// compute_70 can be compiled for sm_80, not the reverse). Among equal
// candidates the first in file order wins.
func SelectPTX(entries []Entry, sm int) (Entry, bool) {
	best := -1
	for i, e := range entries {
		if e.Kind != KindPTX || !e.Is64Bit() || e.SM > sm {
			continue
		}
		if best < 0 || e.SM > entries[best].SM {
			best = i
		}
	}
	if best < 0 {
		return Entry{}, false
	}
	return entries[best], true
}
