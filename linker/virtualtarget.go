package linker

// linkVirtual is the "link" for a virtual target (-arch=compute_NN): nvlink
// 11.8, 12.4 and 12.5 link no device code for it. They read the inputs (an
// input that cannot be read still fails), write --register-link-binaries,
// and exit 0 without writing -o: no symbol is resolved, so a reference no
// input defines or a name two inputs define is no error. nvcc -dlink runs
// nvlink so (with no -o) for objects built with only PTX for the target
// (-gencode arch=compute_NN,code=compute_NN, CMake's NN-virtual); the
// driver JIT-links the PTX at run time.
func linkVirtual(ctx *linkContext) error {
	ctx.run("read inputs", readInputs)          // as a full link
	ctx.run("list modules", listVirtualModules) // every input with device code, in command-line order
	if ctx.checkpoint() {
		return ErrFailed
	}
	return ctx.runErr("write host side", writeHostSide) // --register-link-binaries
}

// listVirtualModules lists, for a virtual target, the module ids
// --register-link-binaries names: every unit (a host object, an archive
// member, a cubin) with relocatable device code for any architecture (an
// ELF image, PTX or NVVM IR), in command-line order and -l libraries
// after the files as for a full link, libcudadevrt whenever -lcudadevrt
// finds it (a full link lists it only when it takes it), and an input
// given twice twice. Whole-program objects (nvcc -c) and host objects
// without device code are not listed (measured with 11.8, 12.4, 12.5).
func listVirtualModules(ctx *linkContext) {
	read := ctx.read
	ctx.read = nil
	if read == nil {
		return
	}
	prelinked, err := prelinkedModules(ctx.config, read.objs)
	if err != nil {
		ctx.report(err)
		return
	}
	ids := []string{}
	for i, path := range read.paths {
		if path == "" && read.errs[i] == nil { // a -l library not found, an archive given again
			continue
		}
		if !ctx.inputReadable(path, read.errs[i]) {
			continue
		}
		for group := range unitGroups(ctx.dropPrelinked(read.objs[i], prelinked)) {
			u := group[0].unit
			if u == nil || !u.hasELF && len(u.ptx) == 0 && len(u.nvvm) == 0 {
				continue
			}
			if u.host != nil {
				ids = append(ids, u.host.moduleID)
			} else {
				ids = append(ids, cubinModuleID(group[0].Name))
			}
		}
	}
	ctx.virtualModules = ids
}
