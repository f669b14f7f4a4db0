package linker

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// writeHostSide writes what the host side of an nvcc -dlink build needs
// besides the cubin: --register-link-binaries, the list of modules the
// host's link.stub registers. It runs only once the cubin is written, so a
// failed link leaves neither file (nvlink writes this one even when the
// link fails). nvlink (11.8, 12.4, 12.5), given libcudadevrt that it does
// not take, leaves a regular file already at the path as it is, stale;
// cudalink leaves it only when it registers the same modules as this
// link's list (keepRegisterFile), and replaces it otherwise
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
	if ctx.keepRegisterFile(path, b.Bytes()) {
		return nil
	}
	if err := ctx.config.writeFileAtomic(path, b.Bytes()); err != nil {
		ctx.report(&linkError{file: path, msg: "cannot write register-link-binaries file: " + err.Error()})
		return ErrFailed
	}
	return nil
}

// keepRegisterFile reports whether the --register-link-binaries file at
// path stays as it is instead of list, the link's. nvlink (11.8, 12.4,
// 12.5) given libcudadevrt (an input whose path holds "cudadevrt") keeps
// a regular file there when it
// does not take the library, and when it takes it, keeps one that holds
// "_cuda_device_runtime_" (libcudadevrt's module id) anywhere, a string
// search; otherwise, and without libcudadevrt, it rewrites the file
// (measured by hand on devrt-between-objects-taken-sm61 and
// devrt-named-object-on-demand, and on every case of
// TestRegisterFileSameModulesKept). cudalink keeps the file only where
// nvlink does and the file registers the same modules as list, in any
// order: nvcc -dlink with several targets (-gencode for sm_80 and sm_90a)
// gives every nvlink run the same path, and a later run that leaves the
// file keeps the first run's order, which differs from its own when one
// run linked a whole LTO program (listed in reverse) and the other a
// partial one. A file of other modules, which nvlink may leave, is
// replaced (TestRegisterFileExisting, docs/toolkits.md).
func (ctx *linkContext) keepRegisterFile(path string, list []byte) bool {
	given, taken := len(ctx.devrt) > 0, false
	for _, choice := range ctx.devrt {
		taken = taken || choice == devrtTaken
	}
	if ctx.lto.executable != nil {
		// ptxas linked the whole program; libcudadevrt, given, is
		// among the LTO inputs, and never taken.
		given = slices.ContainsFunc(ctx.lto.program.inputs, func(in ltoInput) bool { return in.u.system })
		taken = false
	}
	if ctx.config.Virtual || !given {
		return false
	}
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	data, err := os.ReadFile(path)
	if err != nil || taken && !bytes.Contains(data, []byte("_cuda_device_runtime_")) {
		return false
	}
	return sameLinesAfterFirst(data, list)
}

// sameLinesAfterFirst says whether a and b have the same first line and
// the same other lines in any order (a final newline or none alike): two
// register-link-binaries files with the same count and modules.
func sameLinesAfterFirst(a, b []byte) bool {
	la := strings.Split(strings.TrimSuffix(string(a), "\n"), "\n")
	lb := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(la) != len(lb) || la[0] != lb[0] {
		return false
	}
	slices.Sort(la[1:])
	slices.Sort(lb[1:])
	return slices.Equal(la, lb)
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
	// nvlink 11.8 lists a libcudadevrt without an image for the target
	// (sm_53, sm_62, sm_72, sm_87) last, wherever it came, when it links
	// the relocatable cubin -dlto compiled of 11.8 IR; without -dlto, or
	// with an image it does not take, it lists none (measured with 11.8 on
	// sm_87 and sm_72: lto-devrt-without-target-image-sm87,
	// lto-devrt-first-without-target-image-sm72).
	if p := ctx.lto.program; p != nil && !p.jit && len(ctx.lto.objs) > 0 {
		for _, u := range ctx.unlinked {
			if u.system && ctx.devrt[u.unit] != devrtTaken && u.hasELF {
				if id := skippedModuleID(u.unit); id != "" {
					ids = append(ids, id)
				}
			}
		}
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
