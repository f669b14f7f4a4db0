package cli

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/cudalink/cudalink/linker"
)

// The expectations below were checked against nvlink 11.8 (V11.8.89); the
// messages differ in form ("cudalink: error: ..." against "nvlink fatal :
// ..."), not in what is accepted or refused.

// link is the Config of "-arch=sm_80 -o out a.o" changed by edit.
func link(edit func(cfg *linker.Config)) linker.Config {
	cfg := linker.Config{Arch: 80, Output: "out", Inputs: []linker.Input{{Path: "a.o"}}}
	if edit != nil {
		edit(&cfg)
	}
	return cfg
}

func files(paths ...string) []linker.Input {
	var in []linker.Input
	for _, p := range paths {
		in = append(in, linker.Input{Path: p})
	}
	return in
}

func libs(names ...string) []linker.Input {
	var in []linker.Input
	for _, n := range names {
		in = append(in, linker.Input{Path: n, Library: true})
	}
	return in
}

// mustLink parses args and fails the test unless they ask for a link.
func mustLink(t *testing.T, args []string) *Command {
	t.Helper()
	cmd, err := Parse(args)
	if err != nil {
		t.Fatalf("Parse(%q): %v", args, err)
	}
	if cmd.Action != ActionLink {
		t.Fatalf("Parse(%q): action %v, want ActionLink", args, cmd.Action)
	}
	return cmd
}

// TestSpellings checks every accepted spelling of the options that cudalink
// implements or accepts without effect.
func TestSpellings(t *testing.T) {
	verbose := link(func(c *linker.Config) { c.Verbose = true })
	noWarn := link(func(c *linker.Config) { c.NoWarn = true })
	werror := link(func(c *linker.Config) { c.Werror = true })
	libDir := link(func(c *linker.Config) { c.LibDirs = []string{"dir"} })
	libFoo := link(func(c *linker.Config) { c.Inputs = append(files("a.o"), libs("foo")...) })
	plain := link(nil)
	tests := []struct {
		args string
		want linker.Config
	}{
		// -arch: with "=" or as the next argument, one dash or two.
		{"-arch=sm_80 -o out a.o", plain},
		{"-arch sm_80 -o out a.o", plain},
		{"--arch=sm_80 -o out a.o", plain},
		{"--arch sm_80 -o out a.o", plain},
		{"-arch=sm_35 -o out a.o", link(func(c *linker.Config) { c.Arch = 35 })},
		{"-arch=sm_90 -o out a.o", link(func(c *linker.Config) { c.Arch = 90 })},
		{"-arch=sm_75 -arch=sm_80 -o out a.o", plain}, // the last one wins

		// -o / --output-file.
		{"-arch=sm_80 -o=out a.o", plain},
		{"-arch=sm_80 --output-file out a.o", plain},
		{"-arch=sm_80 --output-file=out a.o", plain},
		{"-arch=sm_80 -o=a=b a.o", link(func(c *linker.Config) { c.Output = "a=b" })},
		{"-arch=sm_80 -o -v a.o", link(func(c *linker.Config) { c.Output = "-v" })}, // the next argument, whatever it is
		{"-arch=sm_80 -o a,b a.o", link(func(c *linker.Config) { c.Output = "a,b" })},

		// -m / --machine: 64 only, as a C number, glued or not.
		{"-arch=sm_80 -o out a.o -m64", plain},
		{"-arch=sm_80 -o out a.o -m 64", plain},
		{"-arch=sm_80 -o out a.o -m=64", plain},
		{"-arch=sm_80 -o out a.o --machine 64", plain},
		{"-arch=sm_80 -o out a.o --machine=64", plain},
		{"-arch=sm_80 -o out a.o -m0x40", plain},
		{"-arch=sm_80 -o out a.o -m+64", plain},

		// Flags.
		{"-arch=sm_80 -o out a.o -v", verbose},
		{"-arch=sm_80 -o out a.o --verbose", verbose},
		{"-arch=sm_80 -o out a.o -v -v", verbose},
		{"-arch=sm_80 -o out a.o -w", noWarn},
		{"-arch=sm_80 -o out a.o --disable-warnings", noWarn},
		{"-arch=sm_80 -o out a.o -Werror", werror},
		{"-arch=sm_80 -o out a.o --warning-as-error", werror},
		{"-arch=sm_80 -o out a.o -suppress-arch-warning", link(func(c *linker.Config) { c.SuppressArchWarning = true })},
		{"-arch=sm_80 -o out a.o --suppress-arch-warning", link(func(c *linker.Config) { c.SuppressArchWarning = true })},

		// -L / --library-path: glued, "=", next argument; comma lists; empty
		// elements dropped; "=" after more than the name is part of the value.
		{"-arch=sm_80 -o out a.o -Ldir", libDir},
		{"-arch=sm_80 -o out a.o -L dir", libDir},
		{"-arch=sm_80 -o out a.o -L=dir", libDir},
		{"-arch=sm_80 -o out a.o --library-path dir", libDir},
		{"-arch=sm_80 -o out a.o --library-path=dir", libDir},
		{"-arch=sm_80 -o out a.o -L,dir,", libDir},
		{"-arch=sm_80 -o out a.o -L=", plain},
		{"-arch=sm_80 -o out a.o -Ldir=x", link(func(c *linker.Config) { c.LibDirs = []string{"dir=x"} })},
		{"-arch=sm_80 -o out a.o -La,b -L c -L-v", link(func(c *linker.Config) { c.LibDirs = []string{"a", "b", "c", "-v"} })},

		// -l / --library, the same forms.
		{"-arch=sm_80 -o out a.o -lfoo", libFoo},
		{"-arch=sm_80 -o out a.o -l foo", libFoo},
		{"-arch=sm_80 -o out a.o -l=foo", libFoo},
		{"-arch=sm_80 -o out a.o --library foo", libFoo},
		{"-arch=sm_80 -o out a.o --library=foo", libFoo},
		{"-arch=sm_80 -o out a.o -l,,foo", libFoo},
		{"-arch=sm_80 -o out a.o -link-time-opt", link(func(c *linker.Config) { // -l ink-time-opt, as in nvlink
			c.Inputs = append(files("a.o"), libs("ink-time-opt")...)
		})},
		// Libraries come after all files, wherever -l is.
		{"-arch=sm_80 -o out -lfoo a.o -lbar,baz b.o", link(func(c *linker.Config) {
			c.Inputs = append(files("a.o", "b.o"), libs("foo", "bar", "baz")...)
		})},

		// Inputs: "-", "" and names with commas are files.
		{"-arch=sm_80 -o out a.o - a.o,b.o", link(func(c *linker.Config) { c.Inputs = files("a.o", "-", "a.o,b.o") })},

		// -cpu-arch.
		{"-arch=sm_80 -o out a.o -cpu-arch=X86_64", link(func(c *linker.Config) { c.CPUArch = "X86_64" })},
		{"-arch=sm_80 -o out a.o --cpu-arch unknown", link(func(c *linker.Config) { c.CPUArch = "unknown" })},
		{"-arch=sm_80 -o out a.o -cpu-arch=AARCH64 -cpu-arch X86_64", link(func(c *linker.Config) { c.CPUArch = "X86_64" })},

		// ptxas options for the PTX a link compiles: every -Xptxas as
		// given, with those that changed the value before them (the link
		// takes the last for 11.8, all for 12.x); the last -maxrregcount
		// wins, as in nvlink (an empty -maxrregcount is 0: none); --ptxas
		// is cudalink's own.
		{"-arch=sm_80 -o out a.o -Xptxas -v --Xptxas=-O3", link(func(c *linker.Config) {
			c.PtxasOptions, c.XptxasRedefined = []string{"-v", "-O3"}, []string{"Xptxas"}
		})},
		{"-arch=sm_80 -o out a.o -Xptxas -v -Xptxas=-v -Xptxas -O1,-v", link(func(c *linker.Config) {
			c.PtxasOptions, c.XptxasRedefined = []string{"-v", "-v", "-O1,-v"}, []string{"Xptxas"}
		})},
		{"-arch=sm_80 -o out a.o -maxrregcount 32 --maxrregcount=-0x10 -maxrregcount=", plain},
		{"-arch=sm_80 -o out a.o -maxrregcount 32 --maxrregcount=-0x10 -maxrregcount=0x20", link(func(c *linker.Config) { c.MaxRegCount = 32 })},
		{"-arch=sm_80 -o out a.o --ptxas=/opt/cuda/bin/ptxas", link(func(c *linker.Config) { c.Ptxas = "/opt/cuda/bin/ptxas" })},

		// Accepted without effect.
		{"-arch=sm_80 -o out a.o -nvvmpath /x --nvvmpath=/y", link(func(c *linker.Config) { c.NVVMPath = "/y" })},
		{"-arch=sm_80 -o out a.o -dlto -nvvmpath /x -emit-ptx", link(func(c *linker.Config) { c.LTO, c.NVVMPath, c.EmitPTX = true, "/x", true })},
		{"-arch=sm_80 -o out a.o --link-time-opt --nvvmpath=/x", link(func(c *linker.Config) { c.LTO, c.NVVMPath = true, "/x" })},
		{"-arch=sm_80 -o out a.o -dlto -nvvmpath=/x -force-partial-lto", link(func(c *linker.Config) { c.LTO, c.NVVMPath, c.ForcePartialLTO = true, "/x", true })},
		{"-arch=sm_80 -o out a.o -dlto -nvvmpath=/x --force-whole-lto", link(func(c *linker.Config) { c.LTO, c.NVVMPath, c.ForceWholeLTO = true, "/x", true })},
		{"-arch=sm_80 -o out a.o --host-ccbin gcc -host-ccbin=gcc", plain},
		{"-arch=sm_80 -o out a.o --host-relocatable-link -shared --shared", plain},

		// -r is cudalink's partial link (nvlink's short form of
		// --host-relocatable-link, which nvcc passes in its long form).
		{"-arch=sm_80 -o out a.o -r", link(func(c *linker.Config) { c.Relocatable = true })},
		{"-arch=sm_80 -o out a.o --relocatable", link(func(c *linker.Config) { c.Relocatable = true })},
		{"-arch=sm_80 -o out a.o -r --host-relocatable-link -w", link(func(c *linker.Config) { c.Relocatable, c.NoWarn = true, true })},
		{"-arch=sm_80 -o out a.o -use-host-info --use-host-info", plain},

		// What nvcc -dlink passes.
		{`-m64 --arch=sm_80 -L"lib" -lfoo -L/usr/lib/x86_64-linux-gnu/stubs -cpu-arch=X86_64 a.o -lcudadevrt -o out --host-ccbin gcc`,
			link(func(c *linker.Config) {
				c.LibDirs = []string{`"lib"`, "/usr/lib/x86_64-linux-gnu/stubs"} // no shell here to eat the quotes
				c.Inputs = append(files("a.o"), libs("foo", "cudadevrt")...)
				c.CPUArch = "X86_64"
			})},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			cmd := mustLink(t, strings.Fields(tt.args))
			if !reflect.DeepEqual(*cmd.Config, tt.want) {
				t.Errorf("Config:\n got %+v\nwant %+v", *cmd.Config, tt.want)
			}
		})
	}
}

func TestEmptyArguments(t *testing.T) {
	cmd := mustLink(t, []string{"-arch=sm_80", "--why-live", "", "-o", "out", ""})
	if !reflect.DeepEqual(cmd.Config.WhyLive, []string{""}) || !reflect.DeepEqual(cmd.Config.Inputs, files("")) {
		t.Errorf("got --why-live %q inputs %v, want one empty name and one empty input", cmd.Config.WhyLive, cmd.Config.Inputs)
	}
}

// TestEmptyFileNames: an option that names a file to write refuses an
// empty name (an unset variable in a build script), in every spelling; the
// link would write nothing and succeed. nvlink 11.8, 12.4 and 12.5 stop
// with exit status 1 for -o, --register-link-binaries and -time (measured:
// "Could not open output file", "Cannot open file", with the empty name
// in quotes), and their message is quoted.
func TestEmptyFileNames(t *testing.T) {
	for _, tt := range []struct{ args, want string }{
		{"-o=", "-o: the file name is empty; name the file to write (nvlink: Could not open output file '')"},
		{"--output-file=", "--output-file: the file name is empty"},
		{"-o out --register-link-binaries=", "--register-link-binaries: the file name is empty; name the file to write (nvlink: Could not open output file '')"},
		{"-o out -time=", "-time: the file name is empty; name the file to write (nvlink: Cannot open file '')"},
		{"-o out --map=", "--map: the file name is empty; name the file to write"},
		{"--fatbin=", "--fatbin: the file name is empty"},
		{"-o out --embedded-fatbin=", "--embedded-fatbin: the file name is empty"},
		{"-o out -cpuprofile=", "-cpuprofile: the file name is empty"},
		{"-o out -memprofile=", "-memprofile: the file name is empty"},
		{"-ghls=lcs-aug -o=", "-o: the file name is empty"},
	} {
		args := append([]string{"-arch=sm_80"}, strings.Fields(tt.args)...)
		_, err := Parse(append(args, "a.o"))
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("Parse(%q): %v, want an error starting %q", args, err, tt.want)
		}
	}
	// As a separate argument too.
	if _, err := Parse([]string{"-arch=sm_80", "-o", "", "a.o"}); err == nil || !strings.HasPrefix(err.Error(), "-o: the file name is empty") {
		t.Errorf("Parse(-o ''): %v, want the empty file name refused", err)
	}
}

func TestActions(t *testing.T) {
	tests := []struct {
		args string
		want Action
	}{
		{"-h", ActionHelp},
		{"--help", ActionHelp},
		{"-V", ActionVersion},
		{"--version", ActionVersion},
		{"-h -V", ActionHelp},
		{"-V -h", ActionHelp},
		{"-V a.o", ActionVersion},                    // no link
		{"-h -suppress-debug-info -lto", ActionHelp}, // later checks do not apply
		{"-V -arch=sm_80 -kernels-used=k", ActionVersion},
	}
	for _, tt := range tests {
		cmd, err := Parse(strings.Fields(tt.args))
		if err != nil || cmd.Action != tt.want || cmd.Config != nil {
			t.Errorf("Parse(%q) = action %v, config %v, error %v; want action %v", tt.args, cmd.Action, cmd.Config, err, tt.want)
		}
	}
}

// TestErrors checks usage errors, in the order nvlink reports them.
func TestErrors(t *testing.T) {
	tests := []struct{ args, want string }{
		// Unknown spellings: long names with one dash, short ones with two,
		// nothing glued except to -L, -l and -m.
		{"-foo -arch=sm_80 -o out a.o", "unknown option '-foo'"},
		// A misspelling within two edits of one accepted spelling gets
		// it as a hint; nothing near, near several, or a name of one or
		// two letters gets none; options refused as not supported are
		// not offered.
		{"-arhc=sm_80 -o out a.o", "unknown option '-arhc', did you mean '-arch'?"},
		{"-kernel-used k", "unknown option '-kernel-used', did you mean '-kernels-used'?"},
		{"--why_live f", "unknown option '--why_live', did you mean '--why-live'?"},
		{"-why-live f", "unknown option '-why-live', did you mean '--why-live'?"},
		{"-nvvpath x", "unknown option '-nvvpath', did you mean '-nvvmpath'?"},
		{"--m32", "unknown option '--m32'"},
		{"-xx", "unknown option '-xx'"},
		{"-foo=bar", "unknown option '-foo'"},
		{"--foo", "unknown option '--foo'"},
		{"--", "unknown option '--'"},
		{"-help", "unknown option '-help', did you mean '--help'?"},
		{"--h", "unknown option '--h', did you mean '-h'?"},
		{"--V", "unknown option '--V', did you mean '-V'?"},
		{"-version", "unknown option '-version', did you mean '--version'?"},
		{"--Werror", "unknown option '--Werror', did you mean '-Werror'?"},
		{"-warning-as-error", "unknown option '-warning-as-error', did you mean '--warning-as-error'?"},
		{"-debug", "unknown option '-debug', did you mean '--debug'?"},
		{"--g", "unknown option '--g', did you mean '-g'?"},
		{"--m64", "unknown option '--m64', did you mean '-m64'?"},
		{"--machine64", "unknown option '--machine64', did you mean '--machine'?"},
		{"--optf x", "unknown option '--optf', did you mean '-optf'?"},
		{"-options-file x", "unknown option '-options-file', did you mean '--options-file'?"},
		{"--lto", "unknown option '--lto', did you mean '-lto'?"},
		{"--L.", "unknown option '--L.', did you mean '-L.'?"},
		{"--lfoo", "unknown option '--lfoo', did you mean '-lfoo'?"},
		{"--o out", "unknown option '--o', did you mean '-o'?"},
		{"-oout", "unknown option '-oout'"},
		{"-archsm_80", "unknown option '-archsm_80'"},
		{"-optfx", "unknown option '-optfx', did you mean '-optf'?"},
		{"-vw", "unknown option '-vw'"},
		{"-extra-warnings", "unknown option '-extra-warnings', did you mean '--extra-warnings'?"},
		{"--extrawarn", "unknown option '--extrawarn', did you mean '-extrawarn'?"},
		{"--ghls=lcs-abs", "unknown option '--ghls', did you mean '-ghls'?"},
		{"-register-link-binaries=x", "unknown option '-register-link-binaries', did you mean '--register-link-binaries'?"},
		{"--r", "unknown option '--r', did you mean '-r'?"},
		{"-host-relocatable-link", "unknown option '-host-relocatable-link', did you mean '--host-relocatable-link'?"},
		{"--persistent_worker", "unknown option '--persistent_worker'"},
		{"-Xlinker x", "option '-Xlinker' is an undocumented nvlink option that cudalink does not support"},
		{"--dot-file=x", "option '--dot-file' is an undocumented nvlink option that cudalink does not support"},
		{"-force-rela", "option '-force-rela' is an undocumented nvlink option that cudalink does not support"},

		// Values.
		{"-o out a.o -arch", "argument expected after '-arch'"},
		{"-arch=sm_80 a.o -o", "argument expected after '-o'"},
		{"--output-file", "argument expected after '--output-file'"},
		{"-L", "argument expected after '-L'"},
		{"-l", "argument expected after '-l'"},
		{"-v=1", "no argument expected after '-v'"},
		{"--help=yes", "no argument expected after '--help'"},
		{"-Werror=", "no argument expected after '-Werror'"},
		{"-lto=", "no argument expected after '-lto'"},
		{"-arch=sm_81", "value 'sm_81' is not defined for option '-arch' (allowed: sm_35, sm_37, sm_50, sm_52, sm_53, sm_60, sm_61, sm_62, sm_70, sm_72, sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, sm_90a)"},
		{"--arch sm_30", "value 'sm_30' is not defined for option '--arch' (allowed: sm_35, sm_37, sm_50, sm_52, sm_53, sm_60, sm_61, sm_62, sm_70, sm_72, sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, sm_90a)"},
		{"-arch -o out a.o", "value '-o' is not defined for option '-arch' (allowed: sm_35, sm_37, sm_50, sm_52, sm_53, sm_60, sm_61, sm_62, sm_70, sm_72, sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, sm_90a)"},
		{"-arch=", "value '' is not defined for option '-arch' (allowed: sm_35, sm_37, sm_50, sm_52, sm_53, sm_60, sm_61, sm_62, sm_70, sm_72, sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, sm_90a)"},
		{"-arch=SM_80", "value 'SM_80' is not defined for option '-arch' (allowed: sm_35, sm_37, sm_50, sm_52, sm_53, sm_60, sm_61, sm_62, sm_70, sm_72, sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, sm_90a)"},
		{"-arch=sm_080", "value 'sm_080' is not defined for option '-arch' (allowed: sm_35, sm_37, sm_50, sm_52, sm_53, sm_60, sm_61, sm_62, sm_70, sm_72, sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, sm_90a)"},
		{"-cpu-arch=x86_64", "value 'x86_64' is not defined for option '-cpu-arch' (allowed: AARCH64, ARMv7, PPC64LE, X86, X86_64, unknown)"},
		{"-m16", "value '16' is not defined for option '-m' (allowed: 32, 64)"},
		{"-m=", "value '' is not defined for option '-m' (allowed: 32, 64)"},
		{"--machine 064", "value '064' is not defined for option '--machine' (allowed: 32, 64)"}, // octal 52
		{"-machine", "'achine': expected a number for option '-m'"},
		{"-m 64x", "'64x': expected a number for option '-m'"},
		{"-maxrregcount abc", "'abc': expected a number for option '-maxrregcount'"},
		{"-maxrregcount 4294967296", "32-bit integer value (4294967296) out of range for option '-maxrregcount'"},
		{"-ghls lcs-foo", "value 'lcs-foo' is not defined for option '-ghls' (allowed: lcs-abs, lcs-aug)"},
		{"-arch=sm_80 -o out a.o -optf nonexistent", "cannot open options file 'nonexistent': no such file or directory"},

		// Checks after the arguments, in nvlink's order.
		{"", "no target architecture: use -arch=sm_<N>, e.g. -arch=sm_80"},
		{"a.o -o out", "no target architecture: use -arch=sm_<N>, e.g. -arch=sm_80"},
		{"-arch=sm_80 a.o", "no output file: use -o <file>"},
		{"-arch=sm_80", "no output file: use -o <file>"},
		{"-arch=sm_80 -o out", "no input files; use --help for more information"},
		{"-arch=sm_80 -o out -lfoo -L.", "no input files; use --help for more information"},
		{"-arch=sm_80 -o out -optf=", "no input files; use --help for more information"},
		{"-suppress-debug-info", "conflicting options '-suppress-debug-info' and 'no -g'"},
		{"-use-host-info -ignore-host-info", "conflicting options '-use-host-info' and '-ignore-host-info'"},
		{"--dump-callgraph -dump-callgraph-no-demangle a.o", "conflicting options '-dump-callgraph' and '-dump-callgraph-no-demangle'"},
		{"-suppress-debug-info -dump-callgraph --dump-callgraph-no-demangle", "conflicting options '-suppress-debug-info' and 'no -g'"},
		{"-dump-callgraph -dump-callgraph-no-demangle -use-host-info -ignore-host-info", "conflicting options '-dump-callgraph' and '-dump-callgraph-no-demangle'"},
		{"-ghls lcs-abs a.o", "input files are not allowed with -ghls option; use --help for more information"},
		{"-ghls lcs-abs", "'-ghls=lcs-abs' writes a file: use -o <file>"},
		{"-ghls=lcs-aug -suppress-debug-info", "conflicting options '-suppress-debug-info' and 'no -g'"},
		{"-emit-ptx x", "no target architecture: use -arch=sm_<N>, e.g. -arch=sm_80"},
		{"-arch=sm_80 -o out -emit-ptx x", "conflicting options '-emit-ptx' and 'no -dlto'"},
		// nvlink 11.8's order: each force option without -dlto before
		// -emit-ptx's; both together after the inputs and -nvvmpath.
		{"-arch=sm_80 -o out -emit-ptx -force-whole-lto -force-partial-lto x", "conflicting options '-force-partial-lto' and 'no -dlto'"},
		{"-arch=sm_80 -o out -emit-ptx --force-whole-lto x", "conflicting options '-force-whole-lto' and 'no -dlto'"},
		{"-arch=sm_80 -o out -dlto -force-whole-lto -force-partial-lto", "no input files; use --help for more information"},
		{"-arch=sm_80 -o out -dlto -force-whole-lto -force-partial-lto x", "-nvvmpath should be specified with -lto"},
		{"-arch=sm_80 -o out -dlto -nvvmpath=/x -force-whole-lto -force-partial-lto x", "conflicting options '-force-partial-lto' and '-force-whole-lto'"},
		{"-arch=lto_80 -o out", "no input files; use --help for more information"},
		{"-arch=lto_80 -o out a.o", "link target of 'lto_80' is a virtual target that is not JIT-able; use an 'sm_' target instead"},
		{"-arch=lto_80 -o out a.o -kernels-used=k", "link target of 'lto_80' is a virtual target that is not JIT-able; use an 'sm_' target instead"},
		// nvlink asks no -o of lto_ (a virtual target), and its inputs
		// come before the options that need -dlto (11.8, 12.4, 12.5).
		{"-arch=lto_80 a.o", "link target of 'lto_80' is a virtual target that is not JIT-able; use an 'sm_' target instead"},
		{"-arch=lto_80 -force-partial-lto a.o", "link target of 'lto_80' is a virtual target that is not JIT-able; use an 'sm_' target instead"},
		{"-arch=lto_80", "no input files; use --help for more information"},
		{"-arch=sm_80 -o out -force-partial-lto", "no input files; use --help for more information"},
		{"-arch=sm_80 -o out -emit-ptx", "no input files; use --help for more information"},
		// lto_90a is refused as lto_90 is (12.4, 12.5).
		{"-arch=lto_90a a.o", "link target of 'lto_90a' is a virtual target that is not JIT-able; use an 'sm_' target instead"},
		{"-arch=lto_90a -o out a.o", "link target of 'lto_90a' is a virtual target that is not JIT-able; use an 'sm_' target instead"},

		// Refused because the output would differ from nvlink's.
		{"-arch=sm_80 -o out a.o -lto", "-nvvmpath should be specified with -lto"},
		{"-arch=sm_80 -o out a.o -emit-ptx x --dlto", "-nvvmpath should be specified with -lto"},
		{"-arch=sm_80 -o out -emit-ptx x --dlto", "-nvvmpath should be specified with -lto"},
		{"-arch=sm_80 -o out -dlto", "no input files; use --help for more information"},
		{"-arch=compute_80 -o out a.o -dlto", "-nvvmpath should be specified with -lto"},
		{"-arch=sm_80 -o out a.o -r -dlto -nvvmpath=/x", "-r (--relocatable) with -dlto is not supported: cudalink's -r is a partial link, which does not optimize at link time; make the partial link without -dlto, or, for nvlink's -r (nvcc -r passes it as --host-relocatable-link, which changes nothing), write --host-relocatable-link"},
		{"-arch=compute_80 -r -o out a.o", "-arch=compute_80 is not supported yet with -r: a virtual target links no device code (it writes only --register-link-binaries)"},
		{"-arch=sm_80 -o out a.o -m32", "-m32 is not supported: cudalink links 64-bit device code only"},
		{"-arch=sm_80 -o out a.o -m 64 --machine=32", "-m32 is not supported: cudalink links 64-bit device code only"},
		{"-arch=sm_80 -o out a.o -cpu-arch=AARCH64", "-cpu-arch=AARCH64 is not supported yet: cudalink supports X86_64 and unknown"},

		// -r with what only a final link makes.
		{"-arch=sm_80 -arch=sm_86 -r -o out a.o", "-r (--relocatable) links for one architecture: give one -arch, and make one partial link per architecture"},
		{"-arch=sm_80 -arch=sm_86 -r --fatbin x.fatbin a.o", "-r (--relocatable) links for one architecture: give one -arch, and make one partial link per architecture"},
		{"-arch=sm_80 -r --fatbin x.fatbin a.o", "-r (--relocatable) writes a relocatable cubin: use -o <file>"},
		{"-arch=sm_80 -r -o out --fatbin x.fatbin a.o", "-r (--relocatable) writes a relocatable cubin for a later link; --fatbin and --embedded-fatbin package a linked executable cubin: give them to the final link"},
		{"-arch=sm_80 -r -o out --embedded-fatbin x.c a.o", "-r (--relocatable) writes a relocatable cubin for a later link; --fatbin and --embedded-fatbin package a linked executable cubin: give them to the final link"},
		{"-arch=sm_80 -r -o out --register-link-binaries x.reg.c a.o", "-r (--relocatable) writes a relocatable cubin for a later link; --register-link-binaries names the objects of a final device link: give it to the final link"},
		{"-arch=sm_80 -r -o out -kernels-used=k a.o", "-r (--relocatable) writes a relocatable cubin for a later link; -kernels-used and -variables-used remove code, which only the final link may do: give them to the final link"},
		{"-arch=sm_80 -r -o out -variables-used=v a.o", "-r (--relocatable) writes a relocatable cubin for a later link; -kernels-used and -variables-used remove code, which only the final link may do: give them to the final link"},
		{"-arch=sm_80 -r -o out -dump-callgraph a.o", "-r (--relocatable) writes a relocatable cubin for a later link; -dump-callgraph prints the call graph of a final link: give it to the final link"},
		{"-arch=sm_80 -r -o out -g a.o", "-r (--relocatable) writes a relocatable cubin for a later link; -g keeps per-input records that a partial output would merge: link debug objects (-G) with -g directly"},
		{"-arch=sm_80 -r -o out -preserve-relocs a.o", "-r (--relocatable) writes a relocatable cubin for a later link; -preserve-relocs keeps per-input records that a partial output would merge: link with -preserve-relocs directly"},
		{"-arch=sm_80 -r -o out --map=x.map a.o", "-r (--relocatable) writes a relocatable cubin for a later link; --map and --why-live explain what a final link keeps: give them to the final link"},
		{"-arch=sm_80 -r -o out --why-live=f a.o", "-r (--relocatable) writes a relocatable cubin for a later link; --map and --why-live explain what a final link keeps: give them to the final link"},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			cmd, err := Parse(strings.Fields(tt.args))
			if err == nil {
				t.Fatalf("no error, action %v", cmd.Action)
			}
			if err.Error() != tt.want {
				t.Errorf("error\n got %q\nwant %q", err, tt.want)
			}
			if cmd == nil || cmd.Config != nil {
				t.Errorf("Command = %+v, want one without a Config", cmd)
			}
		})
	}
}

// TestEveryOption derives a case from each entry of the option table, in
// each of its spellings: an option marked notYet is refused (and --help
// names it only among the refused ones), any other is accepted and listed.
func TestEveryOption(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty")
	if err := os.WriteFile(empty, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	sample := map[string]string{
		"arch": "sm_80", "cpu-arch": "X86_64", "machine": "64", "maxrregcount": "32", "split-compile": "4", "split-compile-extended": "4",
		"gen-host-linker-script": "lcs-abs", "options-file": empty, "output-file": "out",
		"archive-mode": "on-demand", "cuda-version": "12.4",
	}
	for _, o := range options {
		var spellings []string
		if o.long != "" {
			spellings = append(spellings, "--"+o.long)
		}
		if o.short != "" {
			spellings = append(spellings, "-"+o.short)
		}
		for _, name := range spellings {
			args := []string{"-arch=sm_80", "-o", "out", "a.o", name}
			if o.arg != "" {
				v, ok := sample[o.long]
				if !ok {
					v = "x"
				}
				args = append(args, v)
			}
			switch o.long { // what nvlink requires beside them
			case "gen-host-linker-script": // no link, so no input file
				args = slices.DeleteFunc(args, func(a string) bool { return a == "a.o" })
			case "debug", "suppress-debug-info":
				args = append(args, "-g", "-suppress-debug-info")
			case "dlto", "link-time-opt", "emit-ptx", "force-partial-lto", "force-whole-lto":
				args = append(args, "-lto", "-nvvmpath=/x")
			}
			cmd, err := Parse(args)
			switch {
			case o.long == "help" || o.long == "version":
				if err != nil || cmd.Action == ActionLink {
					t.Errorf("Parse(%q) = %v, %v; want help or version", args, cmd.Action, err)
				}
			case o.notYet:
				if err == nil || !strings.Contains(err.Error(), "not supported yet") {
					t.Errorf("Parse(%q) error = %v; want it refused as not supported yet", args, err)
				}
			case err != nil:
				t.Errorf("Parse(%q): %v", args, err)
			}
			switch {
			case o.notYet && !strings.Contains(helpText(), "'"+spelling(o)+"'"):
				t.Errorf("--help does not name %s among the refused options", spelling(o))
			case !o.notYet && !strings.Contains(helpText(), "\n"+spellings[0]):
				t.Errorf("--help does not list %s", spellings[0])
			}
		}
	}
}

// TestRedefinition checks nvlink's warning for a single-valued option given
// again with another value; values are compared as numbers where they are
// numbers, and the warning comes even when the command line then fails.
func TestRedefinition(t *testing.T) {
	const arch = "incompatible redefinition for option 'arch', the last value of this option was used"
	tests := []struct {
		args    string
		want    []string
		wantErr bool
	}{
		{"-arch=sm_80 -o out a.o -arch=sm_80 --arch sm_80", nil, false},
		{"-arch=sm_80 -o out a.o -arch=sm_75", []string{arch}, false},
		{"-arch=sm_80 -o out a.o -arch=sm_80 -arch=sm_75 -arch sm_86", []string{arch, arch}, false},
		{"-arch=sm_80 -o out a.o --output-file o1 -o out", []string{
			"incompatible redefinition for option 'output-file', the last value of this option was used",
			"incompatible redefinition for option 'output-file', the last value of this option was used"}, false},
		{"-arch=sm_80 -o out a.o -m64 -m 0x40 --machine=64", nil, false},
		{"-arch=sm_80 -o out a.o -maxrregcount 16 -maxrregcount 0x10 -maxrregcount 020", nil, false},
		{"-arch=sm_80 -o out a.o -maxrregcount 16 -maxrregcount 17", []string{
			"incompatible redefinition for option 'maxrregcount', the last value of this option was used"}, false},
		// -Xptxas: nvlink 11.8 warns, 12.x does not; the link decides
		// (Config.XptxasRedefined).
		{"-arch=sm_80 -o out a.o -Xptxas -v -Xptxas -O1", nil, false},
		{"-arch=sm_80 -o out a.o -L a -L b -l x -l y -v -v -w -w", nil, false}, // lists and flags repeat freely
		{"-arch=sm_80 -arch=sm_75 -foo", []string{arch}, true},
		{"-o a -o b", []string{"incompatible redefinition for option 'output-file', the last value of this option was used"}, true},
		{"-arch=sm_80 -arch=sm_75 -V", []string{arch}, false},
	}
	for _, tt := range tests {
		cmd, err := Parse(strings.Fields(tt.args))
		if (err != nil) != tt.wantErr {
			t.Errorf("Parse(%q) error = %v, want error %v", tt.args, err, tt.wantErr)
		}
		if !reflect.DeepEqual(cmd.Warnings, tt.want) {
			t.Errorf("Parse(%q) warnings\n got %q\nwant %q", tt.args, cmd.Warnings, tt.want)
		}
	}
}

func TestParseCInt(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		err  string
	}{
		{"", 0, ""},
		{"0", 0, ""},
		{"32", 32, ""},
		{"+5", 5, ""},
		{"-5", -5, ""},
		{" 5", 5, ""},
		{"\t\n5", 5, ""},
		{"010", 8, ""},
		{"0x10", 16, ""},
		{"0X1F", 31, ""},
		{"-0x5", -5, ""},
		{"2147483647", 2147483647, ""},
		{"-2147483648", -2147483648, ""},
		{"2147483648", 0, "32-bit integer value (2147483648) out of range for option '-n'"},
		{"-2147483649", 0, "32-bit integer value (-2147483649) out of range for option '-n'"},
		{"0xffffffff", 0, "32-bit integer value (0xffffffff) out of range for option '-n'"},
		{"99999999999999999999", 0, "32-bit integer value (99999999999999999999) out of range for option '-n'"},
		{"5 ", 0, "'5 ': expected a number for option '-n'"},
		{"   ", 0, "'   ': expected a number for option '-n'"},
		{"08", 0, "'08': expected a number for option '-n'"},
		{"0x", 0, "'0x': expected a number for option '-n'"},
		{"0b1", 0, "'0b1': expected a number for option '-n'"},
		{"1e3", 0, "'1e3': expected a number for option '-n'"},
		{"1.5", 0, "'1.5': expected a number for option '-n'"},
		{"1_000", 0, "'1_000': expected a number for option '-n'"},
		{"+", 0, "'+': expected a number for option '-n'"},
		{"-", 0, "'-': expected a number for option '-n'"},
		{"+-5", 0, "'+-5': expected a number for option '-n'"},
		{"- 5", 0, "'- 5': expected a number for option '-n'"},
	}
	for _, tt := range tests {
		got, err := parseCInt(tt.in, "-n")
		errText := ""
		if err != nil {
			errText = err.Error()
		}
		if got != tt.want || errText != tt.err {
			t.Errorf("parseCInt(%q) = %d, %q; want %d, %q", tt.in, got, errText, tt.want, tt.err)
		}
	}
}

// TestNVVMOptions: nvlink 12.x's -Xnvvm is split at commas and white space
// and accumulates (nvlink 12.4 gives libnvvm -ftz=1 -prec-div=0 for
// "-Xnvvm -ftz=1,-prec-div=0", for "-Xnvvm '-ftz=1 -prec-div=0'" and for
// two -Xnvvm); --split-compile 1, nvlink's default, is not passed on, 0
// is; every one of them is recorded for an 11.8 link to refuse, once.
func TestNVVMOptions(t *testing.T) {
	cmd, err := Parse([]string{"-arch=sm_80", "-o", "out", "a.o", "-Xnvvm", "-ftz=1,-prec-div=0", "-Xnvvm", " -fma=0\t-g ",
		"--split-compile", "1", "-split-compile-extended=0", "-Xnvvm=-opt=3"})
	if err != nil {
		t.Fatal(err)
	}
	cfg := cmd.Config
	if want := []string{"-ftz=1", "-prec-div=0", "-fma=0", "-g", "-opt=3"}; !slices.Equal(cfg.XNVVM, want) {
		t.Errorf("XNVVM = %q, want %q", cfg.XNVVM, want)
	}
	if cfg.SplitCompile != "" || cfg.SplitCompileExtended != "0" {
		t.Errorf("SplitCompile, SplitCompileExtended = %q, %q; want \"\", \"0\"", cfg.SplitCompile, cfg.SplitCompileExtended)
	}
	if want := []string{"-Xnvvm", "--split-compile", "-split-compile-extended"}; !slices.Equal(cfg.CUDA12Options, want) {
		t.Errorf("CUDA12Options = %q, want %q", cfg.CUDA12Options, want)
	}
}

// TestArchSpecificTarget: -arch=sm_90a links for sm_90a (e_flags
// EF_CUDA_ARCH_SPECIFIC) unless a later -arch replaces it; with a
// fatbinary output it is nvcc -dlink's sm_90a target, which nvcc links
// with nvlink --arch=sm_90 and fatbinary marks arch-specific, beside an
// sm_90 target too (two images).
func TestArchSpecificTarget(t *testing.T) {
	for _, tc := range []struct {
		args           string
		arch           int
		specific, mark bool
		archs          []linker.ArchTarget
	}{
		{"-arch=sm_90a -o out a.o", 90, true, false, nil},
		{"-arch=sm_90a -arch=sm_80 -o out a.o", 80, false, false, nil},
		{"-arch=sm_80 -arch=sm_90a -o out a.o", 90, true, false, nil},
		{"-arch=sm_90a --embedded-fatbin=f.c -o out a.o", 90, false, true, nil},
		{"-arch=sm_90a -arch=compute_90 --fatbin=f a.o", 90, false, true, nil},
		{"-arch=sm_90 -arch=sm_90a --embedded-fatbin=f.c -o out a.o", 90, true, false, []linker.ArchTarget{{SM: 90}, {SM: 90, Specific: true}}},
		{"-arch=sm_90a -arch=sm_80 -arch=sm_90a --fatbin=f a.o", 90, true, false, []linker.ArchTarget{{SM: 90, Specific: true}, {SM: 80}}},
	} {
		cmd, err := Parse(strings.Fields(tc.args))
		if err != nil {
			t.Errorf("%s: %v", tc.args, err)
			continue
		}
		cfg := cmd.Config
		if cfg.Arch != tc.arch || cfg.ArchSpecific != tc.specific || cfg.FatbinArchSpecific != tc.mark || !slices.Equal(cfg.Archs, tc.archs) {
			t.Errorf("%s: Arch %d, ArchSpecific %v, FatbinArchSpecific %v, Archs %v; want %d, %v, %v, %v", tc.args,
				cfg.Arch, cfg.ArchSpecific, cfg.FatbinArchSpecific, cfg.Archs, tc.arch, tc.specific, tc.mark, tc.archs)
		}
	}
}

// TestVirtualTarget: -arch=compute_NN, as nvcc -dlink passes it for
// PTX-only objects (no -o), is a virtual target: Config.Virtual, the SM
// number in Arch; a later sm_ value takes it back, as nvlink's last -arch
// wins. With a fatbinary output the -arch values are nvcc's targets: a
// compute_ one beside sm_ ones is dropped, as nvcc -dlink runs no nvlink
// for it, and compute_ ones alone are a virtual link; then no warning
// says a value was redefined.
func TestVirtualTarget(t *testing.T) {
	for _, tc := range []struct {
		args    string
		virtual bool
		arch    int
		archs   []linker.ArchTarget
	}{
		{"-m64 --arch=compute_80 --register-link-binaries=r.c a.o -lcudadevrt", true, 80, nil},
		{"-arch=compute_75 -o out a.o", true, 75, nil},
		{"-arch=compute_75 -arch=sm_80 -o out a.o", false, 80, nil},
		{"-arch=sm_86 -arch=compute_80 -o out a.o", true, 80, nil}, // nvlink's last -arch: a virtual link
		{"--arch=compute_80 --register-link-binaries=r.c a.o --embedded-fatbin=f.c", true, 80, nil},
		{"-arch=compute_80 -arch=compute_90 --fatbin=f a.o", true, 90, nil},
		{"-arch=sm_80 -arch=compute_90 --embedded-fatbin=f.c -o out a.o", false, 80, nil},
		{"-arch=compute_90 -arch=sm_80 -arch=compute_75 --fatbin=f a.o", false, 80, nil},
		{"-arch=sm_80 -arch=compute_90 -arch=sm_86 --fatbin=f a.o", false, 86, []linker.ArchTarget{{SM: 80}, {SM: 86}}},
		{"-arch=sm_90a -arch=compute_80 --fatbin=f a.o", false, 90, nil},
	} {
		cmd, err := Parse(strings.Fields(tc.args))
		if err != nil {
			t.Errorf("%s: %v", tc.args, err)
			continue
		}
		if cmd.Config.Virtual != tc.virtual || cmd.Config.Arch != tc.arch || !slices.Equal(cmd.Config.Archs, tc.archs) {
			t.Errorf("%s: Virtual %v, Arch %d, Archs %v; want %v, %d, %v", tc.args, cmd.Config.Virtual, cmd.Config.Arch, cmd.Config.Archs, tc.virtual, tc.arch, tc.archs)
		}
		if strings.Contains(tc.args, "fatbin") && len(cmd.Warnings) > 0 {
			t.Errorf("%s: warnings %q, want none", tc.args, cmd.Warnings)
		}
	}
}

// TestHostLinkerScriptOptions: -ghls is no link; nvcc's --host-ccbin,
// --host-relocatable-link and -shared choose the host linker's script.
func TestHostLinkerScriptOptions(t *testing.T) {
	cmd, err := Parse(strings.Fields("-shared -m64 --host-relocatable-link --gen-host-linker-script=lcs-abs -o x.lds --host-ccbin g++ -L. -lfoo"))
	if err != nil {
		t.Fatal(err)
	}
	want := HostLinkerScript{Kind: "lcs-abs", Output: "x.lds", CCBin: "g++", Relocatable: true, Shared: true}
	if cmd.Action != ActionHostLinkerScript || cmd.HostLinkerScript == nil || *cmd.HostLinkerScript != want {
		t.Errorf("action %v, script %+v; want %v, %+v", cmd.Action, cmd.HostLinkerScript, ActionHostLinkerScript, want)
	}
}

// TestEditDistance checks the distance the unknown-option hint uses: a swap
// of neighbours is one edit.
func TestEditDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"arch", "arch", 0}, {"arhc", "arch", 1}, {"arc", "arch", 1},
		{"archh", "arch", 1}, {"orch", "arch", 1}, {"", "abc", 3}, {"ca", "abc", 3},
		{"kernel-used", "kernels-used", 1}, {"foo", "arch", 4},
	} {
		if got := linker.EditDistance(tt.a, tt.b, 100); got != tt.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
	// Past the bound it stops and says bound+1.
	if got := linker.EditDistance("foo", "arch", 2); got != 3 {
		t.Errorf("EditDistance(foo, arch, bound 2) = %d, want 3", got)
	}
}
