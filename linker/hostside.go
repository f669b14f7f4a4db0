package linker

import (
	"bytes"
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// writeHostSide writes what the host side of an nvcc -dlink build needs
// besides the cubin: --register-link-binaries, the list of modules the
// host's link.stub registers. It runs only once the cubin is written, so a
// failed link leaves neither file (nvlink writes this one even when the
// link fails). A file already at the path is replaced. nvlink (11.8,
// 12.4, 12.5), given libcudadevrt that it does not take, leaves a regular
// file there as it is, stale; cudalink deliberately does not copy that
// (docs/toolkits.md): the host would register another link's modules.
func writeHostSide(ctx *linkContext) error {
	path := ctx.config.RegisterLinkBinaries
	if path == "" {
		return nil
	}
	var b bytes.Buffer
	ids := hostSideModules(ctx)
	fmt.Fprintf(&b, "#define NUM_PRELINKED_OBJECTS %d\n", len(ids))
	for _, id := range ids {
		fmt.Fprintf(&b, "DEFINE_REGISTER_FUNC(%s)\n", id)
	}
	if err := ctx.config.writeFileAtomic(path, b.Bytes()); err != nil {
		ctx.report(&linkError{file: path, msg: "cannot write register-link-binaries file: " + err.Error()})
		return ErrFailed
	}
	return nil
}

// hostSideModules are the module ids --register-link-binaries lists, in
// nvlink's order: the linked inputs, and in their places those with
// relocatable device code but no image for the target, which nvlink lists
// too; libcudadevrt's (on sm_53, sm_62, ... it has none) only when nvlink
// took it where it came (chooseDevrt: a call left undefined, which only
// dead code makes, or -keep-system-libraries). With -dlto, each input whose
// IR went to libnvvm is listed at its own place, not the cubin made of
// them; when ptxas linked the whole program (the LTO inputs and
// libcudadevrt alone, which nvlink drops), nvlink lists the LTO inputs,
// and those with nothing for the target among them, in reverse
// command-line order (measured with 11.8, 12.4 and 12.5; for the
// skipped: 12.4 and 12.5, util.o plain.o stats.o main.o with plain.o's
// only image sm_90a's linked for sm_90 list main, stats, plain, util;
// skippedModuleID).
func hostSideModules(ctx *linkContext) (ids []string) {
	if ctx.config.Virtual {
		return ctx.virtualModules
	}
	moduleID := func(u *unit, name string) string {
		if u.host != nil {
			return u.host.moduleID
		}
		return cubinModuleID(name)
	}
	if ctx.lto.executable != nil {
		in := ctx.lto.program.inputs
		for i := len(in) - 1; i >= 0; i-- {
			switch {
			case in[i].ir != nil:
				ids = append(ids, moduleID(in[i].u, in[i].name))
			case in[i].skipped && !in[i].u.system:
				if id := skippedModuleID(in[i].u); id != "" {
					ids = append(ids, id)
				}
			}
		}
		return ids
	}
	// Each unit has its place among the units loaded (seq): the three
	// lists, each in that order, interleave by it.
	type placed struct {
		seq int
		id  string
	}
	var all []placed
	for _, f := range ctx.files {
		if !slices.Contains(ctx.lto.objs, f.Object) {
			all = append(all, placed{f.seq, moduleID(f.unit, f.Name)})
		}
	}
	for _, u := range ctx.unlinked {
		if (!u.system || ctx.devrt[u.unit] == devrtTaken) && (u.hasELF || len(u.ptx) > 0 || len(u.nvvm) > 0) {
			if id := skippedModuleID(u.unit); id != "" {
				all = append(all, placed{u.seq, id})
			}
		}
	}
	for _, p := range ctx.lto.listed {
		all = append(all, placed{p.seq, moduleID(p.u, p.name)})
	}
	slices.SortFunc(all, func(a, b placed) int { return cmp.Compare(a.seq, b.seq) })
	for _, p := range all {
		ids = append(ids, p.id)
	}
	return ids
}

// skippedModuleID is how --register-link-binaries names a unit with
// device code of which nothing is linked: a host object by its module id;
// a .fatbin file, which has none, as "(null)" (nvlink prints a null
// string; measured with 11.8 and 12.5, with -dlto and without:
// fatbin-skipped-listed-null-sm86); "" for what nvlink does not list.
func skippedModuleID(u *unit) string {
	switch {
	case u.host != nil:
		return u.host.moduleID
	case u.container && !u.member:
		return "(null)"
	}
	return ""
}

// cubinModuleID is the module id nvlink makes up for a plain cubin: its
// absolute path with every character but letters and digits turned to '_'.
func cubinModuleID(name string) string {
	if abs, err := filepath.Abs(name); err == nil {
		name = abs
	}
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, name)
}
