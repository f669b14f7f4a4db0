package linker

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/cudalink/cudalink/linker/fatbin"
	"github.com/cudalink/cudalink/linker/hostobj"
	"github.com/cudalink/cudalink/linker/nvvm"
)

// TestNVJitLinkOptions: nvJitLink gets the target, -lto -ptx, then every
// libnvvm option nvlink gives but the virtual architecture and -link-lto,
// in order, for its NVVM.
func TestNVJitLinkOptions(t *testing.T) {
	got := nvJitLinkOptions(90, []string{"-arch=compute_90", "-ftz=0", "-prec-div=1", "-link-lto", "--device-c", "-maxreg=32", "-g"})
	want := []string{"-arch=sm_90", "-lto", "-ptx", "-Xnvvm=-ftz=0", "-Xnvvm=-prec-div=1", "-Xnvvm=--device-c", "-Xnvvm=-maxreg=32", "-Xnvvm=-g"}
	if !slices.Equal(got, want) {
		t.Errorf("nvJitLinkOptions = %q, want %q", got, want)
	}
}

// TestLTOHostRefs: the host references of an LTO link as nvlink 11.8
// writes them to its -host-ref-file and nvlink 12.4 gives them to libnvvm
// as options (both read off real runs: strace of nvlink 11.8's file, gdb
// at nvvmCompileProgram for 12.4 and 12.5). nvlink 12.x lists the
// objects' patterns last first, as 11.8's file does, each once (the first
// of equal ones in that order): a.o's ka1,ka2 and c.o's kc,ka1 give
// -host-ref-ek=_Z3ka1*,_Z2kc*,_Z3ka2*; -kernels-used's and
// -variables-used's names in the order given.
func TestLTOHostRefs(t *testing.T) {
	hostObj := func(system bool, refs map[hostobj.RefKind][]string) ltoInput {
		h := &hostInfo{}
		for k, l := range refs {
			h.refs[k] = l
		}
		return ltoInput{u: &unit{host: h, system: system}}
	}
	kernels := hostObj(false, nil)
	host2 := hostObj(false, map[hostobj.RefKind][]string{
		hostobj.KernelExtern: {"_Z14never_launched*", "_Z8launched*"}, hostobj.DeviceExtern: {"counter"}})
	host := hostObj(false, map[hostobj.RefKind][]string{hostobj.KernelExtern: {"_Z8launched*"}})
	devrt := hostObj(true, map[hostobj.RefKind][]string{hostobj.KernelIntern: {"*16memset_3d_device*", "*16memcpy_3d_device*"}})
	for _, c := range []struct {
		name     string
		cfg      Config
		inputs   []ltoInput
		file     string
		options  []string
		noGlobal bool // no -has-global-host-info
		unlisted bool // an input is a host object without the lists
	}{
		{name: "objects", inputs: []ltoInput{kernels, host2, host, devrt},
			file:    "EK: 12:_Z8launched* 12:_Z8launched* 19:_Z14never_launched* \nIK: 20:*16memcpy_3d_device* 20:*16memset_3d_device* \nEG: 7:counter \n",
			options: []string{"-host-ref-ek=_Z8launched*,_Z14never_launched*", "-host-ref-ik=*16memcpy_3d_device*,*16memset_3d_device*", "-host-ref-eg=counter"}},
		// Measured with nvlink 12.4 and 12.5 (objects of nvcc 12.4 -dc -dlto).
		{name: "objects backwards", inputs: []ltoInput{
			hostObj(false, map[hostobj.RefKind][]string{hostobj.KernelExtern: {"_Z2kc*", "_Z3ka1*"}, hostobj.DeviceExtern: {"va2"}}),
			hostObj(false, map[hostobj.RefKind][]string{hostobj.KernelExtern: {"_Z3ka1*", "_Z3ka2*"}, hostobj.DeviceExtern: {"va1", "va2"}}),
			hostObj(false, map[hostobj.RefKind][]string{hostobj.KernelExtern: {"_Z3kb1*", "_Z3kb2*", "_Z3kb3*"}, hostobj.DeviceExtern: {"vb1", "vb2"}})},
			file:    "EK: 7:_Z3kb3* 7:_Z3kb2* 7:_Z3kb1* 7:_Z3ka2* 7:_Z3ka1* 7:_Z3ka1* 6:_Z2kc* \nEG: 3:vb2 3:vb1 3:va2 3:va1 3:va2 \n",
			options: []string{"-host-ref-ek=_Z3kb3*,_Z3kb2*,_Z3kb1*,_Z3ka2*,_Z3ka1*,_Z2kc*", "-host-ref-eg=vb2,vb1,va2,va1"}},
		// libcudadevrt's lists alone give none.
		{name: "devrt only", inputs: []ltoInput{kernels, devrt}},
		// A host object without lists among the inputs (an nvcc -dlink
		// output, nvcc -c's, g++'s): none (measured with 11.8, 12.4, 12.5).
		{name: "unlisted", inputs: []ltoInput{kernels, host2, host, devrt}, unlisted: true},
		{name: "ignore host info", cfg: Config{IgnoreHostInfo: true}, inputs: []ltoInput{kernels, host}, noGlobal: true},
		// -kernels-used=b,a,c; -variables-used=b -variables-used=a,c.
		{name: "lists", cfg: Config{KernelsUsed: []string{"b", "a", "c"}, VariablesUsed: []string{"b", "a", "c"}, IgnoreHostInfo: true},
			inputs: []ltoInput{kernels, host},
			file:   "EK: 3:*b* 3:*a* 3:*c* \nIK: 3:*b* 3:*a* 3:*c* \nEC: 3:*c* 3:*a* 3:*b* \nIC: 3:*c* 3:*a* 3:*b* \nEG: 3:*c* 3:*a* 3:*b* \nIG: 3:*c* 3:*a* 3:*b* \n",
			options: []string{"-host-ref-ek=*b*,*a*,*c*", "-host-ref-ik=*b*,*a*,*c*", "-host-ref-ec=*b*,*a*,*c*", "-host-ref-ic=*b*,*a*,*c*",
				"-host-ref-eg=*b*,*a*,*c*", "-host-ref-ig=*b*,*a*,*c*"}},
		{name: "variables only", cfg: Config{VariablesUsed: []string{"x"}}, inputs: []ltoInput{kernels, host},
			file:    "EC: 3:*x* \nIC: 3:*x* \nEG: 3:*x* \nIG: 3:*x* \n",
			options: []string{"-host-ref-ec=*x*", "-host-ref-ic=*x*", "-host-ref-eg=*x*", "-host-ref-ig=*x*"}},
	} {
		ctx := &linkContext{config: &c.cfg}
		ctx.lto.unlisted = c.unlisted
		refs := ctx.ltoHostRefs(c.inputs)
		if got := refs.file(); got != c.file {
			t.Errorf("%s: file %q, want %q", c.name, got, c.file)
		}
		if got := refs.options(); !slices.Equal(got, c.options) {
			t.Errorf("%s: options %q, want %q", c.name, got, c.options)
		}
		opts, _, err := ctx.nvvmOptions(nil, false, false)
		if err != nil {
			t.Fatal(err)
		}
		if got := slices.Contains(opts, "-has-global-host-info"); got == c.noGlobal {
			t.Errorf("%s: -has-global-host-info in %q: %v", c.name, opts, got)
		}
	}
}

// TestOlderIRErrorFromInputs: a failed -dlto compile is blamed on CUDA
// 11.8's IR (the first such input named) by what the inputs are and
// libnvvm's status, not by the words of its log: 11.8's IR alone gets
// nvlink 11.8's options, so a libnvvm refusing one (12.x's refuses
// -host-ref-file) is newer than the IR, whatever it logs; beside 12.x IR
// the options are 12.x's, and only an IR version mismatch tells.
func TestOlderIRErrorFromInputs(t *testing.T) {
	const invalidOption, versionMismatch, compilation = 7, 3, 9
	for _, s := range []struct {
		status int
		want   string
	}{{invalidOption, "NVVM_ERROR_INVALID_OPTION"}, {versionMismatch, "NVVM_ERROR_IR_VERSION_MISMATCH"}, {compilation, "NVVM_ERROR_COMPILATION"}} {
		if got := nvvm.ResultString(s.status); got != s.want {
			t.Fatalf("nvvm.ResultString(%d) = %s, want %s", s.status, got, s.want)
		}
	}
	in := func(name string, flags fatbin.Flags) ltoInput {
		return ltoInput{name: name, u: &unit{}, ir: &irImage{entry: fatbin.Entry{Flags: flags}}}
	}
	old, arch := in("k.o", 0), in("h.o", fatbin.FlagArchSpecific)
	ctx := &linkContext{config: &Config{NVVMPath: "/cuda-12/nvvm"}}
	for _, tc := range []struct {
		name   string
		p      ltoProgram
		status int
		log    string
		blamed string // the input named, "" for err as it came
	}{
		{"11.8 IR, 12.x's refusal in today's words", ltoProgram{ir: []ltoInput{old}}, invalidOption, "libnvvm : error: -host-ref-file is an unsupported option", "k.o"},
		{"11.8 IR, a refusal in other words", ltoProgram{ir: []ltoInput{old}}, invalidOption, "unknown option", "k.o"},
		{"11.8 IR, a refusal with no log", ltoProgram{ir: []ltoInput{old}}, invalidOption, "", "k.o"},
		{"11.8 IR without host references", ltoProgram{ir: []ltoInput{old}}, versionMismatch, "", "k.o"},
		{"11.8 IR, another failure", ltoProgram{ir: []ltoInput{old}}, compilation, "-host-ref-file", ""},
		{"12.x options (lto_90a beside 11.8 IR): a refusal is not the IR's", ltoProgram{ir: []ltoInput{arch, old}, cuda12: true}, invalidOption, "-host-ref-file", ""},
		{"lto_90a beside 11.8 IR, version mismatch", ltoProgram{ir: []ltoInput{arch, old}, cuda12: true}, versionMismatch, "", "k.o"},
		{"no 11.8 IR", ltoProgram{ir: []ltoInput{arch}, cuda12: true}, versionMismatch, "", ""},
	} {
		err := fmt.Errorf("compiling: %w", &nvvm.CompileError{Status: tc.status, Log: tc.log})
		got := ctx.olderIRError(err, &tc.p)
		var le *linkError
		switch {
		case tc.blamed == "" && got != err:
			t.Errorf("%s: %v, want the error as it came", tc.name, got)
		case tc.blamed != "" && (!errors.As(got, &le) || le.file != tc.blamed || !strings.Contains(le.msg, "CUDA 11.8's")):
			t.Errorf("%s: %v, want %s's IR named as CUDA 11.8's", tc.name, got, tc.blamed)
		}
	}
}
