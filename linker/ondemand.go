package linker

import (
	"slices"
	"strings"

	"github.com/cudalink/cudalink/linker/cubin"
)

// extractOnDemand decides which on-demand inputs join the link: members of
// -lcudadevrt (unless -keep-system-libraries), as nvlink does, and with
// --archive-mode=on-demand every archive member. libcudadevrt's member
// joins when addInputs found it needed where it came (chooseDevrt: nvlink
// also links it when some function the inputs before it call stays
// undefined, though the member does not define it: one only dead code
// calls, no error then, of an -ewp image or an -dc object alike, brings
// the member and so every one of its kernels into the output; 11.8, 12.4,
// 12.5; a partial link given libcudadevrt takes it so too, as a full link
// of its inputs would). Another member joins when it defines a symbol
// that what is already linked leaves undefined; a member that joins may
// need others, so this repeats to a fixed point. Members are visited in
// input order, so the choice never depends on scheduling. Under -v each
// extracted member is reported with the symbols it was extracted for.
//
// It is the one writer of ctx.files, the files linked from here on, and
// of their index: addInputs's list, ctx.added, is left as it is.
func extractOnDemand(ctx *linkContext) {
	ctx.files = ctx.linkedFiles()
	for i, file := range ctx.files {
		file.index = i
	}
}

// linkedFiles returns the files of ctx.added that the link takes: all of
// them, or all but the on-demand members nothing needs.
func (ctx *linkContext) linkedFiles() []*inputFile {
	added := ctx.added
	linked := make([]bool, len(added))
	members := false
	for i, file := range added {
		switch {
		case file.unit.system:
			linked[i] = ctx.devrt[file.unit] == devrtTaken
		case ctx.onDemandMember(file):
			members = true
		default:
			linked[i] = true
		}
	}
	// Only --archive-mode=on-demand needs the names here: a link with
	// -lcudadevrt alone (every nvcc -dlink link) builds no name sets but
	// chooseDevrt's.
	if members {
		ctx.extractMembers(linked)
	}
	n := 0
	for _, l := range linked {
		if l {
			n++
		}
	}
	if n == len(added) {
		return added
	}
	// ctx.added stays for chooseToolkit; the kept files go to a list of
	// their own rather than over it.
	kept := make([]*inputFile, 0, n)
	for i, file := range added {
		if linked[i] {
			kept = append(kept, file)
		}
	}
	return kept
}

// onDemandMember says whether file is an archive member that
// --archive-mode=on-demand links only if the link needs it.
func (ctx *linkContext) onDemandMember(file *inputFile) bool {
	return file.unit.member && ctx.config.ArchiveMode == "on-demand" && !file.unit.system
}

// extractMembers marks in linked the --archive-mode=on-demand members that
// the linked files need, to a fixed point.
func (ctx *linkContext) extractMembers(linked []bool) {
	added := ctx.added
	// names: the global names of the files linked so far.
	names := make(globalNames, distinctNames(added, func(file *inputFile) bool { return ctx.onDemandMember(file) || file.unit.system }))
	take := func(i int) {
		linked[i] = true
		names.fold(added[i], nil)
	}
	for i := range added {
		if linked[i] {
			take(i)
		}
	}
	for changed := true; changed; {
		changed = false
		for i, file := range added {
			if linked[i] || file.unit.system {
				continue
			}
			var wanted []string
			for _, esym := range file.ELF.Symbols {
				if esym.Bind() != cubin.STB_LOCAL && esym.Shndx != cubin.SHN_UNDEF &&
					names[esym.Name] == nameUndefined {
					wanted = append(wanted, esym.Name)
				}
			}
			if len(wanted) == 0 {
				continue
			}
			take(i)
			changed = true
			if ctx.config.Verbose && ctx.config.Stdout != nil {
				// Only for --archive-mode=on-demand: nvlink's -v says
				// nothing of the libcudadevrt members it links.
				slices.Sort(wanted)
				info(reportWriter{ctx.config.Stdout, reportArch(ctx.config)}, "linking archive member "+file.Name+" for "+strings.Join(wanted, ", "))
			}
		}
	}
}

// globalNames is what chooseDevrt and extractMembers know of each global
// name: an input linked so far defines it (nameDefined), refers to it
// undefined (nameUndefined), or both. One map, not two, sized once
// (distinctNames).
type globalNames map[string]uint8

const (
	nameDefined uint8 = 1 << iota
	nameUndefined
)

// fold adds file's global names to n. firstUndefined, when not nil, sees
// each undefined reference to a name no input folded before referred to
// undefined.
func (n globalNames) fold(file *inputFile, firstUndefined func(esym *cubin.Symbol)) {
	for i := range file.ELF.Symbols {
		esym := &file.ELF.Symbols[i]
		switch {
		case esym.Bind() == cubin.STB_LOCAL || esym.Name == "":
		case esym.Shndx != cubin.SHN_UNDEF:
			n[esym.Name] |= nameDefined
		default:
			if firstUndefined != nil && n[esym.Name]&nameUndefined == 0 {
				firstUndefined(esym)
			}
			n[esym.Name] |= nameUndefined
		}
	}
}

// anyUndefined says whether some name of n is referred to and defined
// by no file folded.
func (n globalNames) anyUndefined() bool {
	for _, v := range n {
		if v == nameUndefined {
			return true
		}
	}
	return false
}

// distinctNames estimates how many global names the files not on demand
// have, to size the maps of chooseDevrt and extractMembers: their strong
// definitions (one each) or their undefined references (mostly to those
// definitions), whichever are more, and their weak definitions once in
// every file (a template's functions are in every file that instantiates
// it: 40 files of the same 150 weak functions have 6,000).
func distinctNames(files []*inputFile, onDemand func(*inputFile) bool) int {
	strong, undefined, weak, n := 0, 0, 0, 0
	for _, file := range files {
		if onDemand(file) {
			continue
		}
		n++
		for i := range file.ELF.Symbols {
			esym := &file.ELF.Symbols[i]
			switch {
			case esym.Bind() == cubin.STB_LOCAL || esym.Name == "":
			case esym.Shndx == cubin.SHN_UNDEF:
				undefined++
			case esym.Bind() == cubin.STB_WEAK:
				weak++
			default:
				strong++
			}
		}
	}
	return max(strong, undefined) + weak/max(n, 1)
}
