package cli

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/cudalink/cudalink/linker"
)

// Action is what a command line asks cudalink to do.
type Action int

const (
	ActionLink             Action = iota // link Command.Config
	ActionHelp                           // print the option list (-h wins over -V)
	ActionVersion                        // print the version
	ActionHostLinkerScript               // write Command.HostLinkerScript (-ghls)
)

// Command is a parsed command line.
type Command struct {
	Action Action // what the command line asks for
	// Config is the link to run when Action is ActionLink. Its Stdout and
	// Stderr are left nil for the caller to set.
	Config *linker.Config
	// Warnings are messages to print before anything else, even when Parse
	// fails, as nvlink prints them while it reads its arguments ("incompatible
	// redefinition for option ..."). Neither -w nor -Werror affects them.
	Warnings []string
	// CPUProfile and MemProfile name the files -cpuprofile and -memprofile
	// write the link's profiles to; "" for none.
	CPUProfile, MemProfile string
	// HostLinkerScript is what -ghls asks for (ActionHostLinkerScript).
	HostLinkerScript *HostLinkerScript
}

// maxOptionsFileDepth is how deeply nvlink 11.8 nests options files: the
// 15th nested file is read, opening a 16th is an error.
const maxOptionsFileDepth = 15

// parser holds the state of one Parse.
type parser struct {
	cfg   linker.Config
	files []linker.Input // input files, in command-line order
	libs  []linker.Input // -l libraries, in command-line order

	help, version bool
	arch          string              // the -arch value as given; "" when absent
	archs         []linker.ArchTarget // every distinct -arch target (SM, sm_90a), in order
	smArch        string              // the last sm_ -arch value as given; "" when none
	smNum         int                 // its SM number
	haveOutput    bool                // -o was given (its value may be empty)
	machine       int                 // -m; 0 when absent
	lto           bool                // -lto or -dlto
	emitPTX       bool
	nvvmpath      bool   // -nvvmpath was given (its value may be empty)
	ghls          string // the -ghls option as spelt; "" when absent
	script        HostLinkerScript
	useHostInfo   bool
	cpuProfile    string // -cpuprofile
	memProfile    string // -memprofile

	last     map[*option]string // canonical value of each single-valued option given
	notYet   string             // the first notYet option given, as spelt
	warnings []string
	depth    int // options files being read
}

// Parse turns command-line arguments (without argv[0]) into a Command. It
// accepts exactly nvlink 11.8's spellings and checks in nvlink's order:
// the arguments left to right (options files expanded in place), then
// -h, -V, conflicting options, -arch, -o and the inputs. An option that
// would change nvlink's output but that cudalink does not implement yet is
// refused after those checks. The returned Command is never nil: its
// Warnings are valid even with an error. Every error is a usage error.
//
// Config.Inputs lists the input files in command-line order and then the
// -l libraries in command-line order, because nvlink reads every -l
// library after all the files, wherever -l appears.
func Parse(args []string) (*Command, error) {
	args, err := expandParamFiles(args)
	if err != nil {
		return &Command{}, err
	}
	p := &parser{last: map[*option]string{}}
	err = p.parseArgs(args)
	cmd := &Command{Warnings: p.warnings}
	if err != nil {
		return cmd, err
	}
	switch {
	case p.help:
		cmd.Action = ActionHelp
		return cmd, nil
	case p.version:
		cmd.Action = ActionVersion
		return cmd, nil
	}
	if err := p.check(); err != nil {
		return cmd, err
	}
	if p.ghls != "" {
		// nvlink's -r is --host-relocatable-link (cudalink's -r, a
		// partial link, has no meaning here).
		p.script.Output, p.script.M32 = p.cfg.Output, p.machine == 32
		p.script.Relocatable = p.script.Relocatable || p.cfg.Relocatable
		cmd.Action, cmd.HostLinkerScript = ActionHostLinkerScript, &p.script
		return cmd, nil
	}
	p.cfg.Inputs = append(p.files, p.libs...)
	if p.multiArch() {
		// Several -arch values with a fatbinary output: link each.
		p.cfg.Archs = p.archs
	}
	if p.fatbinOutput() && !p.multiArch() && p.cfg.ArchSpecific && !p.cfg.Virtual {
		// nvcc -dlink's sm_90a target alone: nvlink --arch=sm_90, the
		// image marked arch-specific by fatbinary (runArchs does the
		// same for each sm_90a of several).
		p.cfg.ArchSpecific, p.cfg.FatbinArchSpecific = false, true
	}
	if p.fatbinOutput() {
		// Several -arch values are nvcc's targets then (nvccTargets,
		// multiArch): nvlink's "incompatible redefinition" warning does
		// not apply.
		cmd.Warnings = slices.DeleteFunc(cmd.Warnings, func(w string) bool {
			return strings.Contains(w, "redefinition for option '") && strings.Contains(w, "arch")
		})
	}
	cmd.Action, cmd.Config = ActionLink, &p.cfg
	cmd.CPUProfile, cmd.MemProfile = p.cpuProfile, p.memProfile
	return cmd, nil
}

// check applies nvlink's checks after the arguments are read, in its order.
func (p *parser) check() error {
	cfg := &p.cfg
	p.nvccTargets()
	switch {
	case cfg.SuppressDebugInfo && !cfg.Debug:
		return errors.New("conflicting options '-suppress-debug-info' and 'no -g'")
	case cfg.DumpCallgraph && cfg.DumpCallgraphNoDemangle:
		return errors.New("conflicting options '-dump-callgraph' and '-dump-callgraph-no-demangle'")
	case p.useHostInfo && cfg.IgnoreHostInfo:
		return errors.New("conflicting options '-use-host-info' and '-ignore-host-info'")
	case p.ghls != "" && len(p.files) > 0:
		return errors.New("input files are not allowed with -ghls option; use --help for more information")
	case p.ghls != "" && p.script.Kind == "lcs-abs" && !p.haveOutput:
		return fmt.Errorf("'%s=lcs-abs' writes a file: use -o <file>", p.ghls)
	case p.ghls != "":
		// A host linker script, and no link: nvlink checks nothing more
		// (no -arch is needed; -l options are ignored).
		return nil
	case p.arch == "":
		return errors.New("no target architecture: use -arch=sm_<N>, e.g. -arch=sm_80")
	case !p.haveOutput && cfg.Fatbin == "" && cfg.EmbeddedFatbin == "" && !cfg.Virtual && !strings.HasPrefix(p.arch, "lto_"):
		// nvlink asks for no -o for a virtual target, compute_ or lto_.
		return errors.New("no output file: use -o <file>")
	case len(p.files) == 0:
		// Before the options that conflict with no -dlto, and before
		// refusing lto_ (11.8, 12.4, 12.5).
		return errors.New("no input files; use --help for more information")
	case strings.HasPrefix(p.arch, "lto_"):
		return fmt.Errorf("link target of '%s' is a virtual target that is not JIT-able; use an 'sm_' target instead", p.arch)

	case cfg.ForcePartialLTO && !p.lto:
		return errors.New("conflicting options '-force-partial-lto' and 'no -dlto'")
	case cfg.ForceWholeLTO && !p.lto:
		return errors.New("conflicting options '-force-whole-lto' and 'no -dlto'")
	case p.emitPTX && !p.lto:
		return errors.New("conflicting options '-emit-ptx' and 'no -dlto'")
	case p.emitPTX && !p.nvvmpath:
		return errNoNVVMPath
	case p.lto && !p.nvvmpath:
		return errNoNVVMPath
	case cfg.ForcePartialLTO && cfg.ForceWholeLTO:
		return errors.New("conflicting options '-force-partial-lto' and '-force-whole-lto'")
	case p.lto && cfg.Relocatable:
		// nvlink's -r is --host-relocatable-link, which changes nothing
		// (11.8, 12.4, 12.5: the same bytes with or without it);
		// cudalink's -r is a partial link, which runs no libnvvm.
		return errors.New("-r (--relocatable) with -dlto is not supported: cudalink's -r is a partial link, which does not optimize at link time; make the partial link without -dlto, or, for nvlink's -r (nvcc -r passes it as --host-relocatable-link, which changes nothing), write --host-relocatable-link")
	case p.notYet != "":
		return fmt.Errorf("option '%s' is not supported yet", p.notYet)
	case cfg.Virtual && cfg.Relocatable:
		// nvlink links nothing for a virtual target (linkVirtual); cudalink's
		// -r is a partial link, which needs a real architecture.
		return fmt.Errorf("-arch=%s is not supported yet with -r: a virtual target links no device code (it writes only --register-link-binaries)", p.arch)
	case p.machine == 32:
		// nvlink refuses every 64-bit input ("size does not match target
		// '-m32'"), and CUDA 11.8 makes no other.
		return errors.New("-m32 is not supported: cudalink links 64-bit device code only")
	case cfg.CPUArch != "" && cfg.CPUArch != "unknown" && cfg.CPUArch != "X86_64":
		return fmt.Errorf("-cpu-arch=%s is not supported yet: cudalink supports X86_64 and unknown", cfg.CPUArch)
	case cfg.Relocatable && len(p.archs) > 1:
		return errors.New("-r (--relocatable) links for one architecture: give one -arch, and make one partial link per architecture")
	case cfg.Relocatable && !p.haveOutput:
		return errors.New("-r (--relocatable) writes a relocatable cubin: use -o <file>")
	}
	cfg.LTO, cfg.EmitPTX = p.lto, p.emitPTX
	if cfg.Relocatable {
		return linker.CheckRelocatable(cfg)
	}
	return nil
}

var errNoNVVMPath = errors.New("-nvvmpath should be specified with -lto")

// multiArch says whether this run links several architectures: more than
// one -arch value, with a fatbinary output to hold them.
func (p *parser) multiArch() bool {
	return len(p.archs) > 1 && p.fatbinOutput()
}

// fatbinOutput says whether --fatbin or --embedded-fatbin was given: then
// this run stands in for nvcc -dlink's nvlink commands and its fatbinary
// command together, and its -arch values are nvcc's targets.
func (p *parser) fatbinOutput() bool {
	return p.cfg.Fatbin != "" || p.cfg.EmbeddedFatbin != ""
}

// nvccTargets gives -arch values the meaning nvcc -dlink gives its targets
// when a fatbinary output stands in for its fatbinary command: nvcc runs
// nvlink for each sm_ target and none for a compute_ one (the driver
// JIT-links the objects' PTX for it), and, when every target is compute_,
// one nvlink for the first (a virtual link: --register-link-binaries only)
// and fatbinary with no image (measured with 11.8, 12.4 and 12.5). So
// compute_ values beside an sm_ one are dropped; compute_ values alone
// leave a virtual link, whose fatbinary outputs hold no image.
func (p *parser) nvccTargets() {
	if !p.fatbinOutput() || !p.cfg.Virtual || len(p.archs) == 0 {
		return
	}
	p.cfg.Virtual = false
	p.arch, p.cfg.Arch, p.cfg.ArchSpecific = p.smArch, p.smNum, p.smArch == "sm_90a"
}

// parseArgs reads one argument list: the command line or an options file.
func (p *parser) parseArgs(args []string) error {
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if len(arg) < 2 || arg[0] != '-' { // "-" is a file too
			p.files = append(p.files, linker.Input{Path: arg})
			continue
		}
		o, name, v, hasValue, err := lookup(arg)
		if err != nil {
			return err
		}
		switch {
		case o.arg == "" && hasValue:
			return fmt.Errorf("no argument expected after '%s'", name)
		case o.arg != "" && !hasValue:
			if i+1 == len(args) {
				return fmt.Errorf("argument expected after '%s'", name)
			}
			i++
			v = args[i] // taken whatever it looks like, as nvlink does
		}
		if err := p.apply(o, name, v); err != nil {
			return err
		}
	}
	return nil
}

// lookup finds the option an argument starting with "-" names, the name as
// spelt, and the value given with it.
func lookup(arg string) (o *option, name, value string, hasValue bool, err error) {
	if body, ok := strings.CutPrefix(arg, "--"); ok {
		key, value, hasValue := strings.Cut(body, "=")
		name = "--" + key
		if o := optionNamed(key, true); o != nil {
			return o, name, value, hasValue, nil
		}
		return nil, "", "", false, unknown(name)
	}
	body := arg[1:]
	key, value, hasValue := strings.Cut(body, "=")
	if o := optionNamed(key, false); o != nil {
		return o, "-" + key, value, hasValue, nil
	}
	for _, o := range table { // -Ldir, -lname, -m64; -L=dir was found above
		if v, ok := strings.CutPrefix(body, o.short); ok && o.glue {
			return o, "-" + o.short, v, true, nil
		}
	}
	return nil, "", "", false, unknown("-" + key)
}

func unknown(name string) error {
	if isUndocumented(name) {
		return fmt.Errorf("option '%s' is an undocumented nvlink option that cudalink does not support", name)
	}
	if near := nearestOption(name); near != "" {
		return fmt.Errorf("unknown option '%s', did you mean '%s'?", name, near)
	}
	return fmt.Errorf("unknown option '%s'", name)
}

// nearestOption returns the accepted spelling an unknown option name was
// most likely meant to be, or "": the same name with the other number of
// dashes (-why-live for --why-live, --g for -g, --lfoo for -lfoo), else
// the one spelling
// within two edits (a letter added, dropped, changed, or two swapped), when
// only one is that near. Options refused as not yet supported are not
// offered. nvlink says only "Unknown option"; the hint is cudalink's.
func nearestOption(name string) string {
	long := strings.HasPrefix(name, "--")
	key := strings.TrimLeft(name, "-")
	if key == "" {
		return ""
	}
	if o := optionNamed(key, !long); o != nil && !o.notYet {
		if long {
			return "-" + key
		}
		return "--" + key
	}
	if long {
		for _, o := range table { // --lfoo for -lfoo, --m64 for -m64
			v, ok := strings.CutPrefix(key, o.short)
			if o.glue && ok && v != "" && (o.allowed == nil || slices.Contains(o.allowed, v)) {
				return "-" + key
			}
		}
	}
	var spellings []string
	for _, o := range table {
		if o.notYet {
			continue
		}
		if o.long != "" {
			spellings = append(spellings, "--"+o.long)
		}
		if o.short != "" {
			spellings = append(spellings, "-"+o.short)
		}
	}
	best, bestDist, ties := "", 3, 0
	for _, sp := range spellings {
		d := linker.EditDistance(key, strings.TrimLeft(sp, "-"), bestDist)
		if d == 0 { // the right name, the wrong dashes: found above
			continue
		}
		switch {
		case d < bestDist:
			best, bestDist, ties = sp, d, 1
		case d == bestDist && strings.TrimLeft(sp, "-") != strings.TrimLeft(best, "-"):
			ties++
		}
	}
	// A name of one or two letters is within two edits of every short
	// option: no guess for those.
	if ties != 1 || bestDist >= len(key) || len(key) <= 2 {
		return ""
	}
	if sp := strings.TrimLeft(best, "-"); long && optionNamed(sp, true) != nil {
		return "--" + sp // keep the user's dashes where that spelling exists
	} else if !long && optionNamed(sp, false) != nil {
		return "-" + sp
	}
	return best
}

// apply stores one occurrence of an option.
func (p *parser) apply(o *option, name, v string) error {
	if o.notYet && p.notYet == "" {
		p.notYet = name
	}
	if o.list {
		for _, elem := range strings.Split(v, ",") {
			if elem == "" { // nvlink drops empty elements: -L '' is not "."
				continue
			}
			if _, err := o.set(p, name, elem); err != nil {
				return err
			}
		}
		return nil
	}
	canon, err := o.set(p, name, v)
	if err != nil {
		return err
	}
	if o.arg != "" && !o.repeat {
		if prev, ok := p.last[o]; ok && prev != canon {
			// nvlink names the option by its long name without dashes,
			// however it was spelt ('output-file' for -o).
			p.warnings = append(p.warnings, fmt.Sprintf("incompatible redefinition for option '%s', the last value of this option was used", o.name()))
		}
		p.last[o] = canon
	}
	return nil
}
