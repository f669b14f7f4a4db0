package linker

import (
	"cmp"
	"slices"
	"sort"

	"github.com/cudalink/cudalink/linker/cubin"
)

// outputTables are the sections assignIndices adds to the output, which
// the writer fills: the section-name and symbol-name string tables, the
// symbol table and, past 65,279 sections, .symtab_shndx (else nil).
// assignIndices is their one writer (assignRelocatableIndices for -r).
type outputTables struct {
	shstrtab, strtab, symtab, symtabShndx *outputSection
}

// count is how many tables the output has: nvlink makes them, in that
// order, before any other section (see shndxWord).
func (t outputTables) count() int {
	if t.symtabShndx != nil {
		return 4
	}
	return 3
}

// assignIndices is where symbol and section indices become final. It
// builds the symbol table (buildSymbolTable), then makes the output's
// section list, linkContext.outSections, from the sections made: it drops
// the relocation sections whose entries were all resolved, adds the
// string and symbol tables, and numbers the sections in nvlink's order. Every section the output has exists by now:
// the metadata sections buildNVInfo fills afterwards were created, only
// when they will hold something, by createMetadataSections.
func assignIndices(ctx *linkContext) {
	buildSymbolTable(ctx)
	kept := ctx.made[:0] // in place: made is not read from here on
	for _, osec := range ctx.made {
		if ctx.bank2.unwritten(osec) || ctx.bank3Dropped(osec) {
			// A kernel bank nvlink made for a function's emptied bank-2
			// constants (makeKernelBanks) and left empty: named, not
			// written; so is a rebuilt bank 3 left with no variable.
			continue
		}
		// Drop relocation sections whose entries were all resolved.
		if osec.isReloc() {
			// nvlink keeps no relocation, and preserves no resolution,
			// against a symbol the output does not have (a non-kernel's
			// bank-2 constants, folded away).
			osec.rel.relocs = slices.DeleteFunc(osec.rel.relocs, func(r outReloc) bool {
				return r.sym != nil && ctx.outSymIndex(r.sym) == 0
			})
		}
		if osec.isReloc() && len(osec.rel.relocs) == 0 {
			continue
		}
		kept = append(kept, osec)
	}
	ctx.made = nil
	var header []*outputSection
	ctx.tables, header = newOutputTables(len(kept))
	ctx.outSections = slices.Insert(kept, 0, header...) // in place: the array has room
	sortOutputSections(ctx)
}

// newOutputTables makes the string and symbol tables of an output with n
// other sections and, past 65,279 sections in all, .symtab_shndx: section
// indices then no longer fit st_shndx, so they go to .symtab_shndx, and
// e_shnum/e_shstrndx to section 0. It also returns them in the order they
// come before the other sections.
func newOutputTables(n int) (outputTables, []*outputSection) {
	t := outputTables{
		shstrtab: &outputSection{name: ".shstrtab", typ: cubin.SHT_STRTAB, addralign: 1},
		strtab:   &outputSection{name: ".strtab", typ: cubin.SHT_STRTAB, addralign: 1},
		symtab:   &outputSection{name: ".symtab", typ: cubin.SHT_SYMTAB, addralign: 8},
	}
	header := []*outputSection{t.shstrtab, t.strtab, t.symtab}
	if n+len(header)+2 >= cubin.SHN_LORESERVE {
		t.symtabShndx = &outputSection{name: ".symtab_shndx", typ: cubin.SHT_SYMTAB_SHNDX, addralign: 4}
		header = append(header, t.symtabShndx)
	}
	return t, header
}

// sectionCreated is osec's place in nvlink's creation order (sections it
// never named come after, in cudalink's creation order).
func (ctx *linkContext) sectionCreated(osec *outputSection) uint64 {
	order := ctx.names.secOrder.index(osec.key())
	if order < 0 {
		order = ctx.names.secOrder.len() + int(osec.index)
	}
	return uint64(order)
}

// sortOutputSections puts the output sections in nvlink's order: by group,
// then by creation order, and numbers them. The sections come mostly in
// creation order within a group already, so they are dealt into their
// groups (stably) and a group is sorted only if it is not in order: a
// stable sort of the whole list, merging and rotating where nothing was
// out of place, took 2% of a flat 100-object link's instructions and 3%
// of a -G one's (callgrind, docs/benchmarks.md perf23).
func sortOutputSections(ctx *linkContext) {
	type keyed struct {
		order uint64 // sectionCreated
		osec  *outputSection
	}
	groups := make([]uint8, len(ctx.outSections))
	var start [groupNoBits + 2]int
	for i, osec := range ctx.outSections {
		groups[i] = uint8(osec.group())
		start[groups[i]+1]++
	}
	for g := 1; g < len(start); g++ {
		start[g] += start[g-1]
	}
	keys := make([]keyed, len(ctx.outSections))
	next := start
	for i, osec := range ctx.outSections {
		g := groups[i]
		keys[next[g]] = keyed{ctx.sectionCreated(osec), osec}
		next[g]++
	}
	byOrder := func(a, b keyed) int { return cmp.Compare(a.order, b.order) }
	for g := range groupNoBits + 1 {
		if group := keys[start[g]:start[g+1]]; !slices.IsSortedFunc(group, byOrder) {
			slices.SortStableFunc(group, byOrder)
		}
	}
	for i, k := range keys {
		ctx.outSections[i] = k.osec
		k.osec.index = int32(i + 1) // 0 is the null section
	}
}

// assignRelocatableIndices is assignIndices for a partial link (-r): it
// builds the symbol table (buildRelocatableSymtab), makes the module
// .nv.info when some input record survives, drops the relocation sections
// left empty (but those an input had empty: keepEmpty), adds the string
// and symbol tables and numbers the sections as nvcc orders them: by
// group (relocatableGroup), in creation order within a group, which is
// the inputs' order. Symbol and section indices are final from here on.
func assignRelocatableIndices(ctx *linkContext) {
	buildRelocatableSymtab(ctx)
	if ctx.moduleInfoKept() {
		ctx.outSection(".nv.info", cubin.SHT_CUDA_INFO, 0)
	}
	kept := ctx.made[:0] // in place: made is not read from here on
	for _, osec := range ctx.made {
		if (osec.typ == cubin.SHT_REL || osec.typ == cubin.SHT_RELA) && len(osec.rel.relocs) == 0 && !ctx.keepEmpty[osec] {
			continue
		}
		kept = append(kept, osec)
	}
	ctx.made = nil
	var header []*outputSection
	ctx.tables, header = newOutputTables(len(kept))
	sort.SliceStable(kept, func(i, j int) bool {
		return kept[i].relocatableGroup() < kept[j].relocatableGroup()
	})
	ctx.outSections = append(header, kept...)
	for i, osec := range ctx.outSections {
		osec.index = int32(i + 1)
	}
}
