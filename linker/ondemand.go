package linker

import (
	"slices"
	"strings"

	"github.com/cudalink/cudalink/linker/cubin"
)

// extractOnDemand decides which on-demand inputs join the link: members of
// -lcudadevrt (unless -keep-system-libraries), as nvlink does, and with
// --archive-mode=on-demand every archive member. Such a member joins when
// it defines a symbol that what is already linked leaves undefined; a
// libcudadevrt member when addInputs found it needed where it came
// (devrtNeeded); a member that joins may need others, so this repeats to
// a fixed point.
// Members are visited in input order, so the choice never depends on
// scheduling. Under -v each extracted member is reported with the symbols
// it was extracted for.
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
	onDemand := func(file *inputFile) bool {
		return file.unit.system && !ctx.config.KeepSystemLibraries ||
			file.unit.member && ctx.config.ArchiveMode == "on-demand"
	}
	linked := make([]bool, len(added))
	// present: libcudadevrt members left out because the link has their
	// definitions already (a partial output that took them), not as
	// unneeded.
	present := make([]bool, len(added))
	// Most links have no on-demand input: they build no name sets (in a
	// 100-object link, 0.1 MB of maps that are garbage at once).
	if !slices.ContainsFunc(added, onDemand) {
		return added
	}
	// names says of each global name whether an input linked so far
	// defines it (nameDefined) and whether one refers to it undefined
	// (nameUndefined): one map, not two, sized once (distinctNames).
	// nvcc -dlink always passes -lcudadevrt, so every link of nvcc's
	// objects builds it: 20 objects of 200 __device__ and 200 __constant__
	// arrays each, every one also declared extern in another, took 2.2 MB
	// in two maps grown step by step, 0.9 MB with this one.
	names := make(map[string]uint8, distinctNames(added, onDemand))
	take := func(i int) {
		linked[i] = true
		for _, esym := range added[i].ELF.Symbols {
			if esym.Bind() == cubin.STB_LOCAL || esym.Name == "" {
				continue
			}
			if esym.Shndx == cubin.SHN_UNDEF {
				names[esym.Name] |= nameUndefined
			} else {
				names[esym.Name] |= nameDefined
			}
		}
	}
	for i, file := range added {
		if !onDemand(file) {
			take(i)
		}
	}
	for changed := true; changed; {
		changed = false
		for i, file := range added {
			if linked[i] {
				continue
			}
			var wanted []string
			for _, esym := range file.ELF.Symbols {
				if esym.Bind() != cubin.STB_LOCAL && esym.Shndx != cubin.SHN_UNDEF &&
					names[esym.Name] == nameUndefined {
					wanted = append(wanted, esym.Name)
				}
			}
			// libcudadevrt's member is taken or skipped where it comes
			// among the inputs (devrtNeeded): nvlink also links it when
			// some function the inputs before it call stays undefined,
			// though the member does not define it: one only dead code
			// calls (no error then), of an -ewp image or an -dc object
			// alike, brings the member and so every one of its kernels
			// into the output (11.8, 12.4, 12.5). A partial link given
			// libcudadevrt takes it so too, as a full link of its inputs
			// would (its undefined names are the same). A member whose
			// definitions the link has already (a partial output that
			// took it) is not taken again.
			if file.unit.system {
				if !ctx.systemTaken[file.unit] {
					continue
				}
				if len(wanted) == 0 && definesAny(file, names) {
					present[i] = true
					continue
				}
			} else if len(wanted) == 0 {
				continue
			}
			take(i)
			changed = true
			if ctx.config.Verbose && ctx.config.Stdout != nil && !file.unit.system {
				// Only for --archive-mode=on-demand: nvlink's -v says
				// nothing of the libcudadevrt members it links.
				slices.Sort(wanted)
				info(reportWriter{ctx.config.Stdout, reportArch(ctx.config)}, "linking archive member "+file.Name+" for "+strings.Join(wanted, ", "))
			}
		}
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
		} else if !present[i] {
			ctx.droppedSystem = ctx.droppedSystem || file.unit.system
		}
	}
	return kept
}

// What linkedFiles knows of a global name: an input linked so far defines
// it, refers to it undefined, or both.
const (
	nameDefined uint8 = 1 << iota
	nameUndefined
)

// definesAny says whether file defines a global name that names says is
// defined.
func definesAny(file *inputFile, names map[string]uint8) bool {
	return slices.ContainsFunc(file.ELF.Symbols, func(esym cubin.Symbol) bool {
		return esym.Bind() != cubin.STB_LOCAL && esym.Shndx != cubin.SHN_UNDEF && names[esym.Name]&nameDefined != 0
	})
}

// distinctNames estimates how many global names the files not on demand
// have, to size the maps of linkedFiles and devrtNeeded: their strong
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
