package linker

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
)

// writeHostSide writes what the host side of an nvcc -dlink build needs
// besides the cubin: --register-link-binaries, the list of modules the
// host's link.stub registers. It runs only once the cubin is written, so a
// failed link leaves neither file (nvlink writes this one even when the
// link fails).
func writeHostSide(ctx *linkContext) error {
	path := ctx.config.RegisterLinkBinaries
	if path == "" {
		return nil
	}
	// The linked inputs, and in their places those with relocatable
	// device code but no image for the target, which nvlink lists too;
	// libcudadevrt's (on sm_53, sm_62, ... it has none) only when nvlink
	// took it where it came (chooseDevrt: a call left undefined, which
	// only dead code makes, or -keep-system-libraries).
	var ids []string
	unlinked := ctx.unlinked
	for i := 0; i <= len(ctx.files); i++ {
		for len(unlinked) > 0 && (i == len(ctx.files) || unlinked[0].seq < ctx.files[i].seq) {
			if u := unlinked[0]; u.host != nil && (!u.system || ctx.devrt[u.unit] == devrtTaken) && (u.hasELF || len(u.ptx) > 0) {
				ids = append(ids, u.host.moduleID)
			}
			unlinked = unlinked[1:]
		}
		if i == len(ctx.files) {
			break
		}
		if h := ctx.files[i].unit.host; h != nil {
			ids = append(ids, h.moduleID)
		} else {
			ids = append(ids, cubinModuleID(ctx.files[i].Name))
		}
	}
	var b bytes.Buffer
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
