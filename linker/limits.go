package linker

import "fmt"

// Hardware limits nvlink checks once the layout is fixed. ptxas checks each
// file on its own; only the link sees what several files add up to.
const (
	maxConstantBank3 = 0x10000 // __constant__ data of the whole program (bank 3)
	maxStaticShared  = 0xc000  // static __shared__ memory of one kernel, its callees' included
)

// checkLimits reports what exceeds a hardware limit, in nvlink's words:
// the module's constant bank 3, then every kernel's static shared memory
// (without sm_90's reserved KiB, as nvlink counts it). nvlink reports these
// as errors rather than fatal ones, so alone they exit 255 as undefined
// references do.
func checkLimits(ctx *linkContext) {
	if osec := ctx.outByName.get(".nv.constant3"); osec != nil && osec.Size > maxConstantBank3 {
		ctx.report(&linkError{Section: osec.Name, nonFatal: true,
			Msg: fmt.Sprintf("File uses too much global constant data (0x%x bytes, 0x%x max)", osec.Size, maxConstantBank3)})
	}
	for _, k := range ctx.Funcs {
		if !k.Sym.IsEntry() {
			continue
		}
		if size := k.staticShared(ctx); size > maxStaticShared {
			ctx.report(&linkError{File: k.Text.File.Name, Symbol: k.Sym.Name, nonFatal: true,
				Msg: fmt.Sprintf("entry function uses too much shared data (0x%x bytes, 0x%x max)", size, maxStaticShared)})
		}
	}
}

// staticShared is a kernel's static shared memory as nvlink checks it:
// without the KiB sm_90 reserves.
func (k *function) staticShared(ctx *linkContext) uint64 {
	size := ctx.sharedOf(k).size
	if ctx.Config.Arch >= 90 && size >= sharedReserve90 {
		return size - sharedReserve90
	}
	return size
}
