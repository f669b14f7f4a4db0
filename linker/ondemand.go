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
	defined, undefined := map[string]bool{}, map[string]bool{}
	take := func(i int) {
		linked[i] = true
		for _, esym := range added[i].ELF.Symbols {
			if esym.Bind() == cubin.STB_LOCAL || esym.Name == "" {
				continue
			}
			if esym.Shndx == cubin.SHN_UNDEF {
				undefined[esym.Name] = true
			} else {
				defined[esym.Name] = true
			}
		}
	}
	// Most links have no on-demand input: they build no name sets (in a
	// 100-object link, 0.1 MB of maps that are garbage at once).
	if !slices.ContainsFunc(added, onDemand) {
		return added
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
					undefined[esym.Name] && !defined[esym.Name] {
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
				if len(wanted) == 0 && definesAny(file, defined) {
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

// definesAny says whether file defines a global name that defined holds.
func definesAny(file *inputFile, defined map[string]bool) bool {
	return slices.ContainsFunc(file.ELF.Symbols, func(esym cubin.Symbol) bool {
		return esym.Bind() != cubin.STB_LOCAL && esym.Shndx != cubin.SHN_UNDEF && defined[esym.Name]
	})
}
