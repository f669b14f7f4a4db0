package cli

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cudalink/cudalink/linker"
)

// An option is one entry of nvlink 11.8's option table, with what cudalink
// does with it. Spellings follow nvlink exactly: the long name only after
// "--", the short name only after "-"; a value follows as the next argument
// or after "=", and for glue options also directly after the short name.
type option struct {
	long  string // name after "--"; "" when there is no long form
	short string // name after "-"; "" when there is no short form
	arg   string // placeholder for the value in --help; "" for a flag
	list  bool   // the value is a comma-separated list; repeats accumulate
	// repeat: each occurrence adds one value, commas and all (a demangled
	// C++ name has commas); no "incompatible redefinition" warning.
	repeat bool
	glue   bool   // the value may follow the short name directly: -L<dir>, -lm, -m64
	help   string // one-line description for --help
	// allowed lists the values --help shows: those cudalink accepts; set
	// does the checking. refused names the values nvlink 11.8 also takes
	// that cudalink refuses: --help names them in its closing note.
	allowed []string
	refused []string
	// notYet marks an option that changes what nvlink writes (the output,
	// another file, or its messages) but that the linker does not honour
	// yet: cudalink refuses the link rather than silently producing
	// something else. --help names it only in its closing note, since
	// it lists what is accepted. Drop the mark once the linker acts on
	// the option's Config field.
	notYet bool
	// set checks one value ("" for a flag; each element for a list) and
	// stores it. name is the option as the user spelt it, for messages. For
	// an option with a single value it returns the value's canonical form:
	// a later different one is an "incompatible redefinition".
	set func(p *parser, name, v string) (string, error)
}

// name is the option as nvlink's "incompatible redefinition" warning names
// it: the long name, else the short one, without dashes.
func (o *option) name() string {
	if o.long != "" {
		return o.long
	}
	return o.short
}

// flag returns a set function that turns a bool on.
func flag(field func(p *parser) *bool) func(*parser, string, string) (string, error) {
	return func(p *parser, _, _ string) (string, error) {
		*field(p) = true
		return "", nil
	}
}

// fileNamed refuses an empty value for an option that names a file to
// write (an unset variable in a build script, -o "$OUT"): there is no
// file to write, and the link would otherwise write nothing and succeed.
// nvlink 11.8, 12.4 and 12.5 stop with exit status 1 (nvlinkSays, or ""
// for an option nvlink does not have): "Cannot open file" for -time
// before the link, "Could not open output file" for -o and
// --register-link-binaries when they write (after a link's undefined
// references, which make -o's exit status 255), each with the empty name
// in quotes.
func fileNamed(name, v, nvlinkSays string) error {
	if v != "" {
		return nil
	}
	msg := name + ": the file name is empty; name the file to write"
	if nvlinkSays != "" {
		msg += " (nvlink: " + nvlinkSays + ")"
	}
	return errors.New(msg)
}

// appendTo returns a set function for a list option that collects values.
func appendTo(field func(p *parser) *[]string) func(*parser, string, string) (string, error) {
	return func(p *parser, _, v string) (string, error) {
		*field(p) = append(*field(p), v)
		return "", nil
	}
}

// options is nvlink 11.8's --help in its order, plus the three undocumented
// options nvcc 11.8 passes to nvlink (--host-ccbin, --host-relocatable-link,
// --shared).
var options = []*option{
	// nvlink 11.8 keeps the last -Xptxas, with an "incompatible
	// redefinition" warning for each different one; nvlink 12.x adds them
	// all, split at commas, without a word. The parser does not know the
	// release, so the link decides (Config.PtxasOptions) and warns.
	{long: "Xptxas", short: "Xptxas", arg: "<options>", repeat: true,
		help: "Ptxas options, for the PTX that cudalink compiles with ptxas: PTX inputs and LTO (split at white space; as the release's nvlink does, the last -Xptxas wins for 11.8, all of them, split at commas too, for 12.x).",
		set: func(p *parser, name, v string) (string, error) {
			if n := len(p.cfg.PtxasOptions); n > 0 && p.cfg.PtxasOptions[n-1] != v {
				p.cfg.XptxasRedefined = append(p.cfg.XptxasRedefined, "Xptxas")
			}
			p.cfg.PtxasOptions = append(p.cfg.PtxasOptions, v)
			return v, nil
		}},
	{long: "arch", short: "arch", arg: "<gpu architecture name>",
		help:    "Specify the 'sm_' name of the target architecture ('compute_' links nothing and writes only --register-link-binaries, as nvlink does; with --fatbin or --embedded-fatbin, several values are nvcc -dlink's targets: the 'sm_' ones are linked, 'compute_' ones alone give a fatbinary with no image).",
		allowed: append(smNames(), "sm_90a"),
		refused: []string{"lto_<N>"},
		set:     setArch},
	{long: "cpu-arch", short: "cpu-arch", arg: "<cpu architecture name>",
		help:    "Specify the name of the cpu target architecture (default 'unknown').",
		allowed: []string{"X86_64", "unknown"},
		refused: []string{"AARCH64", "ARMv7", "PPC64LE", "X86"},
		set:     setCPUArch},
	{long: "debug", short: "g",
		help: "Specify that this was a debug compile.",
		set:  flag(func(p *parser) *bool { return &p.cfg.Debug })},
	{long: "disable-warnings", short: "w",
		help: "Inhibit all warning messages.",
		set:  flag(func(p *parser) *bool { return &p.cfg.NoWarn })},
	{long: "dlto", short: "dlto",
		help: "Do link-time optimization, alias for -lto.",
		set:  flag(func(p *parser) *bool { return &p.lto })},
	{long: "dump-callgraph", short: "dump-callgraph",
		help: "Dump callgraph information (on stderr, as nvlink prints it).",
		set:  flag(func(p *parser) *bool { return &p.cfg.DumpCallgraph })},
	{long: "dump-callgraph-no-demangle", short: "dump-callgraph-no-demangle",
		help: "Dump callgraph information without demangling (nvlink 11.8 demangles all the same, and so does cudalink).",
		set:  flag(func(p *parser) *bool { return &p.cfg.DumpCallgraphNoDemangle })},
	// nvlink's --help shows a value, but nvlink 11.8 takes -emit-ptx as a
	// flag: the PTX goes to -o, and a following name is an input.
	{long: "emit-ptx", short: "emit-ptx",
		help: "Emit ptx file if LTO is used: libnvvm's PTX is written to -o and nothing is linked.",
		set:  flag(func(p *parser) *bool { return &p.emitPTX })},
	{long: "extra-warnings", short: "extrawarn",
		help: "Emit extra warnings about possible problems (nvlink 11.8's one: an address-taken function nothing calls).",
		set:  flag(func(p *parser) *bool { return &p.cfg.ExtraWarnings })},
	// Not in nvlink's --help, but accepted by 11.8, 12.4 and 12.5
	// (docs/ptx-and-lto.md).
	{long: "force-partial-lto", short: "force-partial-lto",
		help: "With -dlto, compile the IR as for a partial LTO (libnvvm's --device-c --force-device-c, ptxas -c) and link the result with the other inputs, as if one had no IR.",
		set:  flag(func(p *parser) *bool { return &p.cfg.ForcePartialLTO })},
	{long: "force-whole-lto", short: "force-whole-lto",
		help: "With -dlto, compile IR-only inputs as a whole program (ptxas without -c), as with libcudadevrt; nvlink then stops with 'expected libcudadevrt object' when it is absent.",
		set:  flag(func(p *parser) *bool { return &p.cfg.ForceWholeLTO })},
	{long: "gen-host-linker-script", short: "ghls", arg: "<host linker script type>",
		help:    "Specify the type of host linker script to be generated (nvcc --host-linker-script runs it; no link: lcs-aug writes the device sections' script, lcs-abs the host linker's default script with them).",
		allowed: hostLinkerScripts,
		set: func(p *parser, name, v string) (string, error) {
			if !slices.Contains(hostLinkerScripts, v) {
				return "", notDefined(v, name, hostLinkerScripts)
			}
			p.ghls, p.script.Kind = name, v
			return v, nil
		}},
	{long: "help", short: "h",
		help: "Print this help information on this tool.",
		set:  flag(func(p *parser) *bool { return &p.help })},
	{long: "ignore-host-info", short: "ignore-host-info",
		help: "Ignore information about host references, so don't remove device code that could be referenced by host.",
		set:  flag(func(p *parser) *bool { return &p.cfg.IgnoreHostInfo })},
	{long: "keep-system-libraries", short: "keep-system-libraries",
		help: "Don't optimize away system library (e.g. cudadevrt) code.",
		set:  flag(func(p *parser) *bool { return &p.cfg.KeepSystemLibraries })},
	{long: "kernels-used", short: "kernels-used", arg: "<kernel>", list: true,
		help: "Specify kernels that are used (any kernel whose name contains one); all others are removed.",
		set:  appendTo(func(p *parser) *[]string { return &p.cfg.KernelsUsed })},
	{long: "library", short: "l", arg: "<library>", list: true, glue: true,
		help: "Specify libraries to be used in the linking stage, searched for as lib<library>.a on the -L paths.",
		set: func(p *parser, _, v string) (string, error) {
			p.libs = append(p.libs, linker.Input{Path: v, Library: true})
			return "", nil
		}},
	{long: "library-path", short: "L", arg: "<library-path>", list: true, glue: true,
		help: "Specify library search paths.",
		set:  appendTo(func(p *parser) *[]string { return &p.cfg.LibDirs })},
	{long: "link-time-opt", short: "lto",
		help: "Do link-time optimization.",
		set:  flag(func(p *parser) *bool { return &p.lto })},
	{long: "machine", short: "m", arg: "<bits>", glue: true,
		help:    "Specify 32 vs 64 bit architecture; cudalink links 64-bit device code (the default).",
		allowed: []string{"64"},
		refused: []string{"32"},
		set:     setMachine},
	{long: "maxrregcount", short: "maxrregcount", arg: "<amount>",
		help: "Max regcount, for libnvvm under LTO and for the PTX that cudalink compiles with ptxas (0 for none).",
		set: func(p *parser, name, v string) (string, error) {
			n, err := parseCInt(v, name)
			p.cfg.MaxRegCount = int(n)
			return strconv.FormatInt(n, 10), err
		}},
	{long: "nvvmpath", short: "nvvmpath", arg: "<path>",
		help: "Path to libnvvm library: the CUDA toolkit's nvvm directory, holding lib64/libnvvm.so (only used with LTO).",
		set: func(p *parser, _, v string) (string, error) {
			p.nvvmpath = true
			p.cfg.NVVMPath = v
			return v, nil
		}},
	{long: "options-file", short: "optf", arg: "<file>", list: true,
		help: "Include command line options from specified file.",
		set: func(p *parser, _, v string) (string, error) {
			return "", p.include(v)
		}},
	{long: "output-file", short: "o", arg: "<file name>",
		help: "Specify name and location of the output file.",
		set: func(p *parser, name, v string) (string, error) {
			p.cfg.Output, p.haveOutput = v, true
			return v, fileNamed(name, v, "Could not open output file ''")
		}},
	{long: "preserve-relocs", short: "preserve-relocs",
		help: "Preserve resolved relocations in linked executable (.nv.resolvedrela sections); every function is kept.",
		set:  flag(func(p *parser) *bool { return &p.cfg.PreserveRelocs })},
	{long: "register-link-binaries", arg: "<file name>",
		help: "Specify name and location of output file that will contain names of cudaRegister routines for each linked file.",
		set: func(p *parser, name, v string) (string, error) {
			p.cfg.RegisterLinkBinaries = v
			return v, fileNamed(name, v, "Could not open output file ''")
		}},
	{long: "report-arch", short: "report-arch",
		help: "Report SM target arch in error messages.",
		set:  flag(func(p *parser) *bool { return &p.cfg.ReportArch })},
	{long: "suppress-arch-warning", short: "suppress-arch-warning",
		help: "Suppress the warning that otherwise is printed when object does not contain code for target arch.",
		set:  flag(func(p *parser) *bool { return &p.cfg.SuppressArchWarning })},
	{long: "suppress-debug-info", short: "suppress-debug-info",
		help: "Do not preserve debug symbols in output; only allowed with --debug.",
		set:  flag(func(p *parser) *bool { return &p.cfg.SuppressDebugInfo })},
	{long: "suppress-stack-size-warning", short: "suppress-stack-size-warning",
		help: "Suppress the warning that otherwise is printed when stack size cannot be determined.",
		set:  flag(func(p *parser) *bool { return &p.cfg.SuppressStackSizeWarning })},
	{long: "time", short: "time", arg: "<file name>",
		help: "Append a comma separated value table of the time taken to the file ('-' for stdout): nvlink's header, then one row per cudalink pass (nvlink writes one per PTX or LTO compile).",
		set: func(p *parser, name, v string) (string, error) {
			p.cfg.TimeFile = v
			return v, fileNamed(name, v, "Cannot open file ''")
		}},
	{long: "use-host-info", short: "use-host-info",
		help: "Use information about host references to remove unused device code; nvlink 11.8 does so by default.",
		set:  flag(func(p *parser) *bool { return &p.useHostInfo })},
	{long: "variables-used", short: "variables-used", arg: "<variable>", list: true,
		help: "Specify variables that are used; as nvlink 11.8 without LTO, every variable is kept, but kernels not named by -kernels-used are removed.",
		set:  appendTo(func(p *parser) *[]string { return &p.cfg.VariablesUsed })},
	{long: "verbose", short: "v",
		help: "Enable verbose mode which prints code generation statistics.",
		set:  flag(func(p *parser) *bool { return &p.cfg.Verbose })},
	{long: "version", short: "V",
		help: "Print version information on this tool.",
		set:  flag(func(p *parser) *bool { return &p.version })},
	{long: "warning-as-error", short: "Werror",
		help: "Make all warnings into errors.",
		set:  flag(func(p *parser) *bool { return &p.cfg.Werror })},

	// Undocumented in nvlink --help, but nvcc 11.8 passes them; none changes
	// nvlink's output.
	{long: "host-ccbin", short: "host-ccbin", arg: "<path>",
		help: "Specify location of host compiler binary (passed by nvcc); used only by -ghls=lcs-abs.",
		set: func(p *parser, _, v string) (string, error) {
			p.script.CCBin = v
			return v, nil
		}},
	// nvlink also spells it -r; nvcc passes only the long form, and
	// cudalink gives -r to partial links (below).
	{long: "host-relocatable-link",
		help: "Percolate the nvcc -r option (passed by nvcc); used only by -ghls=lcs-abs.",
		set:  flag(func(p *parser) *bool { return &p.script.Relocatable })},
	{long: "shared", short: "shared",
		help: "Percolate the nvcc -shared option (passed by nvcc); used only by -ghls=lcs-abs.",
		set:  flag(func(p *parser) *bool { return &p.script.Shared })},

	// nvlink 12.x's, which 11.8 does not know: accepted here, and refused
	// by the link when it reproduces nvlink 11.8 (Config.CUDA12Options).
	// With -dlto they reach libnvvm as nvlink 12.4 and 12.5 give them
	// (measured at nvvmCompileProgram); without, they change nothing.
	{long: "Xnvvm", short: "Xnvvm", arg: "<options>", list: true,
		help: "Nvvm options (nvlink 12.x; only used with LTO): split at commas and white space, given to libnvvm after nvlink's own.",
		set: func(p *parser, name, v string) (string, error) {
			p.cuda12Option(name)
			p.cfg.XNVVM = append(p.cfg.XNVVM, strings.Fields(v)...)
			return "", nil
		}},
	{long: "split-compile", short: "split-compile", arg: "<amount>",
		help: "Max threads nvvm can use for split compilation (nvlink 12.x; only used with LTO). Default value: 1.",
		set: func(p *parser, name, v string) (string, error) {
			p.cuda12Option(name)
			return setSplit(&p.cfg.SplitCompile, name, v)
		}},
	{long: "split-compile-extended", short: "split-compile-extended", arg: "<amount>",
		help: "Max threads linker can use for extended split compilation (nvlink 12.x; only used with LTO). Default value: 1.",
		set: func(p *parser, name, v string) (string, error) {
			p.cuda12Option(name)
			return setSplit(&p.cfg.SplitCompileExtended, name, v)
		}},

	// cudalink's own, beyond nvlink: the outputs fatbinary would make, so
	// that nvcc -dlink's fatbinary step is not needed. With either, -arch
	// may be given several times: each architecture is linked and every
	// image goes into the fatbinary.
	{long: "fatbin", arg: "<file name>",
		help: "Also write a fatbinary holding the linked cubin(s), as 'fatbinary --create' writes it.",
		set: func(p *parser, name, v string) (string, error) {
			p.cfg.Fatbin = v
			return v, fileNamed(name, v, "")
		}},
	{long: "embedded-fatbin", arg: "<file name>",
		help: "Also write the C source 'fatbinary -link --embedded-fatbin' writes for nvcc -dlink's link.stub.",
		set: func(p *parser, name, v string) (string, error) {
			p.cfg.EmbeddedFatbin = v
			return v, fileNamed(name, v, "")
		}},

	// cudalink's own, beyond nvlink: a partial link (docs/partial.md).
	{long: "relocatable", short: "r",
		help: "Partial link: write a relocatable cubin that combines the inputs (symbols resolved, sections merged per memory space, every relocation kept) for a later link to take as one input.",
		set:  flag(func(p *parser) *bool { return &p.cfg.Relocatable })},

	// cudalink's own, beyond nvlink: which nvlink release to reproduce.
	{long: "cuda-version", arg: "<version>", allowed: strings.Fields(linker.SupportedToolkits()),
		help: "Link as this release's nvlink does (" + linker.SupportedToolkits() + "); default: the newest release that wrote an input (the cubins record it in e_version), 11.8 when no input tells (g++ objects alone: the releases differ in the empty cubin they write).",
		set: func(p *parser, _, v string) (string, error) {
			n, err := linker.ParseToolkit(v)
			if err != nil {
				return "", err
			}
			p.cfg.CUDAVersion = n
			return v, nil
		}},

	// cudalink's own, beyond nvlink: how archives are read.
	{long: "archive-mode", arg: "<mode>", allowed: []string{"whole", "on-demand"},
		help: "How archive members join the link: 'whole' (every member, as nvlink) or 'on-demand' (only members that define a needed symbol; -v says which).",
		set: func(p *parser, name, v string) (string, error) {
			if v != "whole" && v != "on-demand" {
				return "", notDefined(v, name, []string{"whole", "on-demand"})
			}
			p.cfg.ArchiveMode = v
			return v, nil
		}},

	// cudalink's own, beyond nvlink: the ptxas that compiles PTX inputs
	// (nvlink has one built in).
	{long: "ptxas", arg: "<path>",
		help: "The ptxas to compile PTX inputs with when they have no cubin for -arch (default: ptxas on PATH); that of the release that built the inputs, whose nvlink has it built in.",
		set: func(p *parser, _, v string) (string, error) {
			p.cfg.Ptxas = v
			return v, nil
		}},
	{long: "ptx-compiler", arg: "<path>",
		help: "The CUDA toolkit's PTX compiler to compile PTX with, in one process, instead of running ptxas once per PTX input: the program cudalink-ptxc or the shared library libnvptxcompiler.so (loaded in the cudalink-nvvm helper), both of which scripts/setup.sh builds from libnvptxcompiler_static.a (default: none, ptxas).",
		set: func(p *parser, _, v string) (string, error) {
			p.cfg.PTXCompiler = v
			return v, nil
		}},
	{long: "nvvm-helper", arg: "<path>",
		help: "The cudalink-nvvm helper that runs libnvvm and libnvJitLink for LTO, and --ptx-compiler (default: $CUDALINK_NVVM_HELPER, next to cudalink, its Bazel runfiles, then PATH).",
		set: func(p *parser, _, v string) (string, error) {
			p.cfg.NVVMHelper = v
			return v, nil
		}},
	{long: "nvjitlink", arg: "<path>",
		help: "The CUDA 12 toolkit's libnvJitLink.so.12, which reads CUDA 12's -dlto IR for LTO (default: <nvvmpath>/../lib64/libnvJitLink.so.12, then <nvvmpath>/lib64/libnvJitLink.so.12).",
		set: func(p *parser, _, v string) (string, error) {
			p.cfg.NVJitLink = v
			return v, nil
		}},

	// cudalink's own, beyond nvlink: profiling the linker itself
	// (docs/benchmarks.md). Neither changes what the link writes.
	{long: "cpuprofile", short: "cpuprofile", arg: "<file name>",
		help: "Write a CPU profile of the link (Go's pprof format) to the file; --time gives the time of each pass.",
		set: func(p *parser, name, v string) (string, error) {
			p.cpuProfile = v
			return v, fileNamed(name, v, "")
		}},
	{long: "memprofile", short: "memprofile", arg: "<file name>",
		help: "Write a profile of the link's memory allocations (Go's pprof format, every allocation sampled) to the file.",
		set: func(p *parser, name, v string) (string, error) {
			p.memProfile = v
			return v, fileNamed(name, v, "")
		}},

	// cudalink's own, beyond nvlink: explaining a link.
	{long: "map", arg: "<file name>",
		help: "Write a link map: every output section and symbol with the input it came from, and every removed function with the reason; demangled names beside mangled ones ('-' for stdout, once the link has written its outputs).",
		set: func(p *parser, name, v string) (string, error) {
			p.cfg.MapFile = v
			return v, fileNamed(name, v, "")
		}},
	{long: "why-live", arg: "<symbol>", repeat: true,
		help: "Print why a device function or variable is kept (the chain of calls from the kernel that keeps it) or what removed it. The name may be plain ('bump'), without parameters ('transform<float>'), demangled in full, as --dump-callgraph spells it, or mangled; every match of an ambiguous name is explained, and a name no input defines gets the nearest names (\"did you mean\"), leaving the exit status the link's.",
		set:  appendTo(func(p *parser) *[]string { return &p.cfg.WhyLive })},
}

// isUndocumented says whether name is an nvlink 11.8 option that its
// --help does not list and cudalink does not implement, by the spelling
// nvlink accepts. They are refused by name rather than reported as
// unknown.
func isUndocumented(name string) bool {
	switch name {
	case "-Xlinker", "--host-linker-options", "-dot", "--dot-file", "-tool-name", "--tool-name",
		"-cuda-api-version", "--cuda-api-version", "-disable-smem-reservation",
		"--disable-smem-reservation", "-syscall-const-offset", "--syscall-const-offset",
		"-dont-reserve-null-pointer", "--dont-reserve-null-pointer", "-reserve-null-pointer",
		"--reserve-null-pointer", "-allow-undefined-globals", "--allow-undefined-globals", "-force-rela",
		"--force-rela", "-uumn", "--uumn":
		return true
	}
	return false
}

// table is options, for the lookups that options' own functions reach
// (-optf parses its file's arguments): they cannot name options itself,
// which would make its initialisation depend on itself.
var table []*option

func init() { table = options }

// optionNamed returns the option whose long (or, if !long, short) name
// is key, or nil. A scan of the table, not a map: a command line names
// few options, and a map would be built whenever the process starts.
func optionNamed(key string, long bool) *option {
	if key == "" {
		return nil
	}
	for _, o := range table {
		if long && o.long == key || !long && o.short == key {
			return o
		}
	}
	return nil
}

// smVersions are the SM numbers nvlink 11.8 accepts in -arch.
var smVersions = []int{35, 37, 50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90}

// smNames lists the -arch values cudalink links for, in nvlink's order.
// nvlink 11.8 also takes compute_<N>, a virtual target, for which it links
// nothing and writes only --register-link-binaries (setArch sets
// Config.Virtual), and lto_<N>, which it refuses as a link target.
func smNames() []string {
	names := make([]string, len(smVersions))
	for i, sm := range smVersions {
		names[i] = "sm_" + strconv.Itoa(sm)
	}
	return names
}

var (
	cpuArchs          = []string{"AARCH64", "ARMv7", "PPC64LE", "X86", "X86_64", "unknown"}
	hostLinkerScripts = []string{"lcs-abs", "lcs-aug"}
)

func setArch(p *parser, name, v string) (string, error) {
	for _, prefix := range []string{"sm_", "compute_", "lto_"} {
		digits, ok := strings.CutPrefix(v, prefix)
		if !ok {
			continue
		}
		// sm_90a is CUDA 12's arch-specific Hopper target (wgmma,
		// setmaxnreg); compute_90a, nvcc -dlink's PTX-only sm_90a target
		// (code=compute_90a, CMake's 90a-virtual), is a virtual link as
		// compute_90 is (nvlink 12.4 and 12.5). lto_90a is refused as
		// lto_90 is, as not JIT-able (12.4, 12.5; 11.8 knows no 90a).
		specific := digits == "90a"
		if specific {
			digits = "90"
		}
		for _, sm := range smVersions {
			if digits != strconv.Itoa(sm) {
				continue
			}
			p.arch, p.cfg.Arch = v, sm
			// The last -arch decides (nvlink's redefinition rule).
			p.cfg.Virtual = prefix == "compute_"
			p.cfg.ArchSpecific = specific
			if p.cfg.Virtual {
				// A virtual target links nothing (linkVirtual).
				return v, nil
			}
			p.smArch, p.smNum = v, sm
			if t := (linker.ArchTarget{SM: sm, Specific: specific}); !slices.Contains(p.archs, t) {
				p.archs = append(p.archs, t)
			}
			return v, nil
		}
	}
	return "", notDefined(v, name, append(smNames(), "sm_90a"))
}

func setCPUArch(p *parser, name, v string) (string, error) {
	if !slices.Contains(cpuArchs, v) {
		return "", notDefined(v, name, cpuArchs)
	}
	p.cfg.CPUArch = v
	return v, nil
}

func setMachine(p *parser, name, v string) (string, error) {
	n, err := parseCInt(v, name)
	if err != nil {
		return "", err
	}
	if n != 32 && n != 64 {
		return "", notDefined(v, name, []string{"32", "64"})
	}
	p.machine = int(n)
	return strconv.FormatInt(n, 10), nil
}

// setSplit stores --split-compile or --split-compile-extended as libnvvm
// gets it: "" for nvlink's default 1, which nvlink 12.x does not pass on.
func setSplit(field *string, name, v string) (string, error) {
	n, err := parseCInt(v, name)
	if err != nil {
		return "", err
	}
	*field = ""
	if n != 1 {
		*field = strconv.FormatInt(n, 10)
	}
	return strconv.FormatInt(n, 10), nil
}

// cuda12Option records an option nvlink 12.x has and nvlink 11.8 refuses.
func (p *parser) cuda12Option(name string) {
	if !slices.Contains(p.cfg.CUDA12Options, name) {
		p.cfg.CUDA12Options = append(p.cfg.CUDA12Options, name)
	}
}

// notDefined is nvlink's error for a value outside an option's list.
func notDefined(v, name string, allowed []string) error {
	return fmt.Errorf("value '%s' is not defined for option '%s' (allowed: %s)", v, name, strings.Join(allowed, ", "))
}

// parseCInt reads a number as nvlink does: C strtol with base 0 (leading
// white space, a sign, 0x for hex and 0 for octal), the whole string used,
// and the result within 32-bit signed range. The empty string is 0.
func parseCInt(s, name string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	t := strings.TrimLeft(s, " \t\n\v\f\r")
	neg := false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg = t[0] == '-'
		t = t[1:]
	}
	base := 10
	switch {
	case len(t) > 2 && (t[:2] == "0x" || t[:2] == "0X") && strings.IndexByte("0123456789abcdefABCDEF", t[2]) >= 0:
		base, t = 16, t[2:]
	case len(t) > 1 && t[0] == '0':
		base, t = 8, t[1:]
	}
	u, err := strconv.ParseUint(t, base, 64)
	switch {
	case errors.Is(err, strconv.ErrRange):
	case err != nil:
		return 0, fmt.Errorf("'%s': expected a number for option '%s'", s, name)
	case !neg && u <= 1<<31-1:
		return int64(u), nil
	case neg && u <= 1<<31:
		return -int64(u), nil
	}
	return 0, fmt.Errorf("32-bit integer value (%s) out of range for option '%s'", s, name)
}
