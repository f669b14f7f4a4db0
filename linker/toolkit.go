package linker

import (
	"fmt"

	"github.com/cudalink/cudalink/linker/cubin"
	"slices"
	"strconv"
	"strings"
)

// toolkit is the CUDA release whose nvlink a link reproduces, and what that
// nvlink does differently from the others. It is chosen once, when the
// inputs are loaded (chooseToolkit), and the passes consult its fields
// rather than the version, so every difference between releases is listed
// here and nowhere else.
//
// Every cubin records the release of the tool that wrote it in e_version:
// major*10+minor (0x76 = 118 for CUDA 11.8, 0x7c = 124, 0x7d = 125), the
// same number EIATTR_CUDA_API_VERSION carries. nvlink writes its own release
// there, and refuses an input newer than itself ("newer than toolkit (124
// vs 118)").
type toolkit struct {
	// version is major*10+minor: 118, 124, 125.
	version uint32

	// infoLink: SHF_INFO_LINK (0x40) is set on every section whose sh_info
	// is a section index (.nv.info.f, .rel/.rela, .nv.shared.f,
	// .nv.constant0.f, ...), as 12.x tools write them; 11.8 clears it.
	infoLink bool
	// relAction is the .nv.rel.action table the linker writes.
	relAction []byte
	// indirectGroup: .nv.callgraph has a fourth group (marker -4) after
	// -3 that lists the targets of indirect calls (11.8 puts them in group
	// -1) and device-side launch edges.
	indirectGroup bool
	// indirectEdges: an indirect call site becomes a call edge in
	// .nv.callgraph to every address-taken function of its prototype
	// (11.8). 12.x writes none: the calls are still followed for liveness
	// and resources, but the output lists only the inputs' group -4.
	indirectEdges bool
	// cloneBrackets: --dump-callgraph names a function an -ewp image
	// copied into a kernel ($kernel$function) "[clone kernel] function"
	// (12.x); 11.8 writes "kernel::function".
	cloneBrackets bool
	// propagateTextRegs: a function's .text sh_info register byte is
	// raised to its callees' maximum (11.8). 12.x keeps the input's byte.
	propagateTextRegs bool
	// unifiedTables: the weak undefined __UFT, __UDT and their _OFFSET,
	// _CANONICAL and _END variants, which every 12.x sm_90 object has, are
	// the driver's (unified function and data tables): never an error.
	unifiedTables bool
	// compactStrings: .strtab holds only the names the output uses, in
	// three groups (compactStrings); 11.8 keeps every name it created.
	compactStrings bool
	// debugPrivateShared: with debug symbols (-g without
	// -suppress-debug-info), the shared variables private to one kernel
	// keep their symbols in the kernel's .nv.shared section, with st_other
	// 0 (12.x); 11.8 keeps them only for -preserve-relocs, marked 1.
	debugPrivateShared bool
	// fatbinHeaderPad: this release's fatbinary (--fatbin,
	// --embedded-fatbin) writes 0x48-byte ELF entry headers (12.4 only:
	// 11.8 and 12.5 write 0x40).
	fatbinHeaderPad bool
	// archSharedLimits: a kernel's static shared memory is checked
	// against the target's limit (staticSharedLimit: 0x29000 on sm_80
	// and sm_90, 0x10000 on sm_75, ...); 11.8 allows 48 KiB everywhere.
	archSharedLimits bool
	// nvvmOptions: nvlink's own -Xnvvm, --split-compile and
	// --split-compile-extended exist (12.x); nvlink 11.8 stops at them as
	// unknown options.
	nvvmOptions bool
	// xptxasList: -Xptxas is a list option: every -Xptxas adds its
	// options, split at commas, and ptxas gets them all, without an
	// "incompatible redefinition" warning (12.x); 11.8 keeps the last
	// and warns (chooseXptxas).
	xptxasList bool
	// rebuildsBank3: a bank 3 whose first merge passes 64 KiB is laid out
	// again variable by variable, pruned links keeping only the variables
	// something kept uses, before the limit is checked
	// (rebuildConstantBank; 12.x). 11.8 checks the first merge, or the
	// second when it prunes (remergeConstants).
	rebuildsBank3 bool
	// undefinedBeforeCallgraph: the undefined references are reported
	// before the call graph is printed (--dump-callgraph) and before the
	// register limit errors (12.x); 11.8 reports them after both. All go
	// to standard error.
	undefinedBeforeCallgraph bool
	// deviceGraphAPI: the device graph functions (isDeviceGraphFunction:
	// cudaGraphLaunch, cudaGraphSetConditional, cudaGraphKernelNodeSet*),
	// which the driver provides, may stay undefined (12.x); nvlink 11.8
	// reports them undefined.
	deviceGraphAPI bool
	// minSM90Version: an sm_90 input older than this (12.0) must be
	// recompiled; 0 for none.
	minSM90Version uint32
	// archSpecific: nvlink knows the arch-specific targets (sm_90a,
	// compute_90a, lto_90a; 12.x); 11.8 refuses the value ("Value
	// 'sm_90a' is not defined for option 'arch'").
	archSpecific bool
	// cubinNamedO: a relocatable cubin named .o is linked as a cubin
	// (12.x); nvlink 11.8 takes it for a host object with no device code
	// (parseInput, addInputs).
	cubinNamedO bool
	// headerFirst: a cubin that does not parse (cut short, corrupt) is
	// refused for the architecture, then the release, its ELF header
	// gives before it is for being broken (11.8: brokenCubinError); 12.4
	// and 12.5 skip it without a word, which cudalink does not copy.
	headerFirst bool
}

// toolkits are the releases cudalink reproduces, oldest first.
var toolkits = []*toolkit{
	{version: 118, relAction: relActionTable118, indirectEdges: true, propagateTextRegs: true, headerFirst: true},
	{version: 124, infoLink: true, debugPrivateShared: true, archSharedLimits: true, relAction: relActionTable12, indirectGroup: true, unifiedTables: true, compactStrings: true, minSM90Version: 120, fatbinHeaderPad: true, cloneBrackets: true, nvvmOptions: true, xptxasList: true, rebuildsBank3: true, undefinedBeforeCallgraph: true, deviceGraphAPI: true, archSpecific: true, cubinNamedO: true},
	{version: 125, infoLink: true, debugPrivateShared: true, archSharedLimits: true, relAction: relActionTable12, indirectGroup: true, unifiedTables: true, compactStrings: true, minSM90Version: 120, cloneBrackets: true, nvvmOptions: true, xptxasList: true, rebuildsBank3: true, undefinedBeforeCallgraph: true, deviceGraphAPI: true, archSpecific: true, cubinNamedO: true},
}

// String gives the release as CUDA spells it: "12.4".
func (tk *toolkit) String() string { return versionString(tk.version) }

// versionString spells the release v (major*10+minor) as CUDA does:
// "12.4". It does without fmt: linker/cli's option table calls it at
// every start, and a link that reports nothing runs no other fmt code (each
// page of the code the process runs is a fault of its own, see
// cmd/cudalink/internal/start).
func versionString(v uint32) string {
	return strconv.FormatUint(uint64(v/10), 10) + "." + strconv.FormatUint(uint64(v%10), 10)
}

// SupportedToolkits lists the releases --cuda-version accepts: "11.8 12.4 12.5".
func SupportedToolkits() string {
	var s []string
	for _, tk := range toolkits {
		s = append(s, tk.String())
	}
	return strings.Join(s, " ")
}

// ParseToolkit returns the major*10+minor number of a --cuda-version value
// ("12.4"), or an error naming the supported releases.
func ParseToolkit(s string) (uint32, error) {
	major, minor, ok := strings.Cut(s, ".")
	ma, err1 := strconv.Atoi(major)
	mi, err2 := strconv.Atoi(minor)
	if ok && err1 == nil && err2 == nil && mi >= 0 && mi < 10 && ma > 0 {
		v := uint32(ma*10 + mi)
		if slices.ContainsFunc(toolkits, func(tk *toolkit) bool { return tk.version == v }) {
			return v, nil
		}
	}
	return 0, fmt.Errorf("--cuda-version=%s: unsupported CUDA version (supported: %s)", s, SupportedToolkits())
}

// toolkitFor returns the newest release cudalink reproduces that is not
// newer than v (the oldest for anything older).
func toolkitFor(v uint32) *toolkit {
	chosen := toolkits[0]
	for _, tk := range toolkits {
		if tk.version <= v {
			chosen = tk
		}
	}
	return chosen
}

// chooseToolkit picks the nvlink release to reproduce: Config.CUDAVersion if
// given, else the newest release any input was written by (a link of 11.8
// and 12.4 objects is what nvlink 12.4 makes of it: 11.8's refuses the
// 12.4 ones). Inputs nothing is linked from count too, by their images
// for other architectures and their whole-program code, and so do the
// library members the link did not need (nvcc -dlink gives its own
// toolkit's libcudadevrt, and nvlink 11.8 refuses 12.4's even unused).
// Inputs that tell nothing (g++ objects alone) are linked as 11.8's nvlink
// links them. It then checks every input image against the release, as
// that nvlink does: the first one newer than it, in command-line order, is
// a fatal error ("Input file 'b.cubin' newer than toolkit (124 vs 118)"),
// and so is an -ewp image of an older release ("linking with -ewp objects
// requires using current toolkit").
func chooseToolkit(ctx *linkContext) {
	files := ctx.added
	ctx.toolkit = ctx.toolkitSoFar(nil) // every input is in by now
	tk := ctx.toolkit
	if opts := ctx.config.CUDA12Options; len(opts) > 0 && !tk.nvvmOptions && !ctx.cuda12LTO() {
		// nvlink 11.8 stops at the first while it reads its command line.
		ctx.report(fmt.Errorf("unknown option '%s' for nvlink %s, the release this link reproduces: it is an option of nvlink 12.x; link CUDA 12 objects, or give --cuda-version=12.4 or later", opts[0], tk))
		return
	}
	if cfg := ctx.config; (cfg.ArchSpecific || cfg.FatbinArchSpecific) && !tk.archSpecific && ctx.releaseTold() {
		ctx.refuseArchSpecific(tk)
		return
	}
	// Each is a refusal: nvlink stops at the first input it refuses for
	// any reason, in command-line order (refusal.go). Old sm_90 code is
	// refused only in the inputs linked, before the release of an -ewp
	// image is looked at (an 11.8 -ewp object for sm_90 in a 12.4 link:
	// "must be recompiled"); the search of ctx.files runs for such code
	// only.
	linked := func(obj *Object) bool {
		return slices.ContainsFunc(ctx.files, func(file *inputFile) bool { return file.Object == obj })
	}
	for _, file := range files {
		if err := releaseMismatch(file.Object, file.unit.member, tk, linked); err != nil {
			ctx.refuse(file.seq, refuseRelease, err)
			return
		}
	}
}

// releaseMismatch is the error for an image that nvlink tk refuses for the
// release that wrote it, in nvlink's order: newer than tk, old sm_90 code
// (of an image linked), an -ewp image of another release; nil for one it
// takes. member: the image is an archive member's; linked: whether the
// link takes the image, asked for old sm_90 code only (nil: every image
// is taken).
func releaseMismatch(obj *Object, member bool, tk *toolkit, linked func(*Object) bool) error {
	h := obj.ELF.Header
	fv := h.Version
	switch {
	case fv > tk.version:
		return newerThanToolkit(memberColonName(obj.Name, member), fv, tk)
	case tk.minSM90Version != 0 && h.SM() == 90 && fv < tk.minSM90Version &&
		(linked == nil || linked(obj)):
		return &linkError{file: obj.Name, msg: fmt.Sprintf("input must be recompiled with toolkit >= Cuda %s (it was written by CUDA %s; nvlink %s refuses sm_90 code of older releases)", versionString(tk.minSM90Version), versionString(fv), tk)}
	case fv != tk.version && h.Type == cubin.ET_CUDA_EWP:
		// nvlink links an -ewp image of its own release only (12.4
		// and 12.5: an 11.8 or 12.4 image in a 12.5 link), checked
		// as it reads each input.
		return &linkError{file: memberColonName(obj.Name, member), msg: fmt.Sprintf("linking with -ewp objects requires using current toolkit: this -ewp image was written by CUDA %s, and nvlink %s links only its own release's; rebuild it with CUDA %s", versionString(fv), tk, tk)}
	}
	return nil
}

// newerThanToolkit says that the input name, written by release v, is
// newer than tk.
func newerThanToolkit(name string, v uint32, tk *toolkit) error {
	return &linkError{file: name, msg: fmt.Sprintf("input file newer than toolkit (%d vs %d): link it with CUDA %s or later, or drop --cuda-version", v, tk.version, versionString(v))}
}

// refuseArchSpecific reports an arch-specific target (sm_90a, compute_90a)
// of a link reproducing tk, a release that does not know it: nvlink 11.8
// stops while it reads its command line ("Value 'compute_90a' is not
// defined for option 'arch'").
func (ctx *linkContext) refuseArchSpecific(tk *toolkit) {
	ctx.report(fmt.Errorf("value '%s' is not defined for option 'arch' by nvlink %s, the release this link reproduces: it is a target of nvlink 12.x; link CUDA 12 objects, or give --cuda-version=12.4 or later", ctx.config.archName(), tk))
}

// releaseTold says whether the link's release comes from somewhere:
// --cuda-version, or an input that records the release that wrote it
// (inputsRelease). Inputs that tell nothing are linked as 11.8 links them,
// but are no reason to refuse what only 12.x knows.
func (ctx *linkContext) releaseTold() bool {
	return ctx.config.CUDAVersion != 0 || ctx.inputsRelease() != 0
}

// isUnifiedTableName says whether name is one of the driver's unified
// function and data tables, which every 12.x sm_90 object declares weak
// and undefined.
func isUnifiedTableName(name string) bool {
	switch name {
	case "__UFT", "__UFT_OFFSET", "__UFT_CANONICAL", "__UFT_END", "__UDT", "__UDT_OFFSET",
		"__UDT_CANONICAL", "__UDT_END":
		return true
	}
	return false
}

// isUnifiedTable says whether sym is one of the unified tables a 12.x
// nvlink resolves without a word and writes no symbol for: weak, undefined
// in every input, and named as isUnifiedTableName says.
func (ctx *linkContext) isUnifiedTable(sym *symbol) bool {
	return ctx.toolkit.unifiedTables && sym.file == nil && sym.bind() == cubin.STB_WEAK && isUnifiedTableName(sym.name)
}

// collectUnifiedTables lists the unified tables the inputs declare, in
// first-seen order: their symbols are not written, but their names stay
// in .strtab (compactStrings).
func collectUnifiedTables(ctx *linkContext) {
	for _, sym := range ctx.symbols {
		if ctx.isUnifiedTable(sym) {
			ctx.unifiedTables = append(ctx.unifiedTables, sym)
		}
	}
}

// relActionTable118 is the .nv.rel.action section nvlink 11.8 writes for
// every architecture: base type R_CUDA_ABS55_16_34, then one 8-byte record
// per type from 75 to 101 saying how the driver applies it.
var relActionTable118 = mustHex("4b000000000000000002020810" +
	"0a2f22000000080000000000000808000000000000100800000000000018080000000000002008000000000000" +
	"2808000000000000300800000000000038080000000001000008000000000100080800000000010010080000000001" +
	"0018080000000001002008000000000100280800000000010030080000000001003808000000000200000800000000" +
	"0200080800000000020010080000000002001808000000000200200800000000020028080000000002003008000000" +
	"000200380800000000000000142c0000000300000c00000000")

// relActionTable12 is the 16-byte .nv.rel.action nvlink 12.4 and 12.5
// write for every architecture (base type 0x73, one record).
var relActionTable12 = mustHex("73000000000000000000001125000536")
