package difftest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cudalink/cudalink/linker/nvvm"
	"github.com/cudalink/cudalink/linker/nvvm/dl"
)

// TestMain makes this test binary the helper of the -dlto cases, as
// cudalink-nvvm is cudalink's (nvvm.Serve with dl.Open), so that each
// library (libnvvm 11.8, 12.4, 12.5, libnvJitLink 12.4, 12.5) runs in a
// process of its own as it does for cudalink: loaded together in one
// process, nvJitLinkCreate crashed once in a whole run of the corpus.
func TestMain(m *testing.M) {
	if os.Getenv("CUDALINK_DIFFTEST_NVVM_HELPER") != "" {
		os.Exit(nvvm.Serve(os.Args[1], os.Stdin, os.Stdout, dl.Open))
	}
	nvvm.LoadInProcess(nil) // importing dl made libraries load in process
	os.Setenv("CUDALINK_DIFFTEST_NVVM_HELPER", "1")
	os.Setenv("CUDALINK_NVVM_HELPER", os.Args[0])
	var err error
	if nvvmRoot, err = os.MkdirTemp("", "difftest-nvvm-"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	nvvmDirs.m = map[string]string{}
	status := m.Run()
	os.RemoveAll(nvvmRoot)
	if *updateValidated {
		if err := writeValidated(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			status = 1
		}
	}
	os.Exit(status)
}

// cuda12LTOLink is the arguments of the cuda12-lto-devrt-whole-program
// link with CUDA 12.4 (its ptxas, and an -nvvmpath holding its libnvvm
// alone), before the output and any extra option; it skips the test when
// the case or the toolkit is missing.
func cuda12LTOLink(t *testing.T) (args []string, dir string) {
	t.Helper()
	dir = filepath.Join("..", "corpus", "cuda-12.4", "cases", "cuda12-lto-devrt-whole-program")
	prefix := "/opt/cuda-12.4/usr"
	lib := filepath.Join(prefix, "lib", "x86_64-linux-gnu", "libnvvm.so")
	ptxas := filepath.Join(prefix, "bin", "ptxas")
	for _, p := range []string{filepath.Join(dir, "util.o"), lib, ptxas} {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("SKIP: %v (CUDA 12.4: scripts/setup-cuda12.sh 12.4)", err)
		}
	}
	nvvm := t.TempDir()
	if err := os.Mkdir(filepath.Join(nvvm, "lib64"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(lib, filepath.Join(nvvm, "lib64", "libnvvm.so")); err != nil {
		t.Fatal(err)
	}
	return []string{"--ptxas=" + ptxas, "-arch=sm_80", "-dlto", "-nvvmpath=" + nvvm,
		filepath.Join(dir, "util.o"), filepath.Join(dir, "kern.o"), filepath.Join(dir, "..", "..", "libs", "libcudadevrt.a")}, dir
}

// TestCUDA12LTOWithoutNVJitLink: CUDA 12 -dlto objects need the toolkit's
// libnvJitLink; without it (none beside -nvvmpath, or a --nvjitlink that
// is not there) the link fails saying what to pass, and writes nothing.
func TestCUDA12LTOWithoutNVJitLink(t *testing.T) {
	args, _ := cuda12LTOLink(t)
	for _, extra := range [][]string{nil, {"--nvjitlink=/no/such/libnvJitLink.so.12"}} {
		out := filepath.Join(t.TempDir(), "out.cubin")
		status, _, stderr := link(t, append(append(args, extra...), "-o", out))
		if status != 1 {
			t.Errorf("%v: exit status %d, want 1\n%s", extra, status, stderr)
		}
		for _, want := range []string{"libnvJitLink", "--nvjitlink=", "libnvjitlink12"} {
			if !strings.Contains(stderr, want) {
				t.Errorf("%v: messages lack %q:\n%s", extra, want, stderr)
			}
		}
		if extra != nil && !strings.Contains(stderr, "/no/such/libnvJitLink.so.12") {
			t.Errorf("the error does not name the --nvjitlink given:\n%s", stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: the failed link wrote %s", extra, out)
		}
	}
}

// TestCUDA12LTOHelpersStartTogether: a CUDA 12 -dlto link starts
// nvJitLink's helper while libnvvm's loads, not after it (perf28): here
// libnvvm's helper does not answer until nvJitLink's has started (it
// fails after 10 s without), and the link still gives nvlink 12.4's bytes.
func TestCUDA12LTOHelpersStartTogether(t *testing.T) {
	args, dir := cuda12LTOLink(t)
	jit := "/opt/cuda-12.4/usr/lib/x86_64-linux-gnu/libnvJitLink.so.12"
	if _, err := os.Stat(jit); err != nil {
		t.Skipf("SKIP: %v", err)
	}
	// A fresh library path of each kind, so that no helper this test
	// binary started before serves them.
	nvvmDir := strings.TrimPrefix(args[3], "-nvvmpath=")
	if err := os.Symlink(jit, filepath.Join(nvvmDir, "lib64", "libnvJitLink.so.12")); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	gate := filepath.Join(tmp, "nvjitlink-started")
	helper := filepath.Join(tmp, "helper")
	script := "#!/bin/sh\n" +
		"case \"$1\" in\n" +
		"*libnvvm.so) i=0; while [ ! -e " + gate + " ] && [ $i -lt 1000 ]; do sleep 0.01; i=$((i+1)); done; [ -e " + gate + " ] || exit 1 ;;\n" +
		"*libnvJitLink*) : > " + gate + " ;;\n" +
		"esac\n" +
		"exec " + os.Args[0] + " \"$@\"\n"
	if err := os.WriteFile(helper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CUDALINK_NVVM_HELPER", helper)
	out := filepath.Join(tmp, "out.cubin")
	// The case's own options (its case.txt), whose output expected.cubin is.
	status, _, stderr := link(t, append(args, "-Xptxas", "-O2", "-maxrregcount=32", "-o", out))
	if status != 0 {
		t.Fatalf("exit status %d, want 0:\n%s", status, stderr)
	}
	if _, err := os.Stat(gate); err != nil {
		t.Errorf("nvJitLink's helper never started: %v", err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(dir, "expected.cubin"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the output (%d bytes) is not nvlink 12.4's (%d bytes)", len(got), len(want))
	}
}

// TestCUDA12LTOAsCUDA118: with --cuda-version=11.8, CUDA 12 IR is what
// nvlink 11.8 cannot read ("Uncompress failed"). nvlink 11.8 leaves such
// objects out and, when nothing else fails, links the rest and exits 0:
// with its libcudadevrt alone, an empty program. cudalink writes the same
// bytes (testdata/cuda12-ir-as-cuda118/expected.cubin: nvlink 11.8's, of
// cuda12-lto-devrt-whole-program's CUDA 12.4 objects and
// tests/corpus/libs/libcudadevrt.a, -arch=sm_80 -dlto) and says why as
// warnings naming each object. With an object that calls into them
// (user.o, nvcc 11.8 -dc) the undefined reference fails the link (exit
// 255, as nvlink's), and the reason is an error.
func TestCUDA12LTOAsCUDA118(t *testing.T) {
	dir := filepath.Join("..", "corpus", "cuda-12.4", "cases", "cuda12-lto-devrt-whole-program")
	data := filepath.Join("testdata", "cuda12-ir-as-cuda118")
	lib := "/usr/lib/x86_64-linux-gnu/libnvvm.so"
	for _, p := range []string{filepath.Join(dir, "util.o"), lib} {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("SKIP: %v", err)
		}
	}
	nvvm := t.TempDir()
	if err := os.Mkdir(filepath.Join(nvvm, "lib64"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(lib, filepath.Join(nvvm, "lib64", "libnvvm.so")); err != nil {
		t.Fatal(err)
	}
	args := []string{"--cuda-version=11.8", "-arch=sm_80", "-dlto", "-nvvmpath=" + nvvm, filepath.Join(dir, "util.o")}

	out := filepath.Join(t.TempDir(), "out.cubin")
	status, _, stderr := link(t, append(args, filepath.Join(dir, "kern.o"), filepath.Join("..", "corpus", "libs", "libcudadevrt.a"), "-o", out))
	if status != 0 {
		t.Fatalf("exit status %d, want 0 (nvlink 11.8's):\n%s", status, stderr)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(data, "expected.cubin"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the output (%d bytes) is not nvlink 11.8's (%d bytes)", len(got), len(want))
	}
	for _, want := range []string{"warning: Ignoring -dlto option because no LTO objects found", "in " + filepath.Join(dir, "util.o"),
		"in " + filepath.Join(dir, "kern.o"), "encoded form", "nvlink 11.8"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("messages lack %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "error") {
		t.Errorf("a link that succeeds reports an error:\n%s", stderr)
	}

	// user.o between them: nvlink 11.8 says what it does of each input
	// as it reads it (util.o skipped, user.o making the LTO partial,
	// kern.o skipped), then that no IR is left.
	user := filepath.Join(data, "user.o")
	status, _, stderr = link(t, append(args, user, filepath.Join(dir, "kern.o"), "-o", out+"2"))
	if status != 255 {
		t.Errorf("with user.o: exit status %d, want 255 (nvlink 11.8's: undefined reference)\n%s", status, stderr)
	}
	for _, want := range []string{"_Z5scaleff", "error: cannot read its NVVM IR", "in " + filepath.Join(dir, "util.o")} {
		if !strings.Contains(stderr, want) {
			t.Errorf("with user.o: messages lack %q:\n%s", want, stderr)
		}
	}
	checkOrder(t, stderr,
		"SM Arch ('sm_80') not found in '"+filepath.Join(dir, "util.o")+"'",
		"requested LTO but '"+user+"' not built for LTO so doing partial LTO",
		"SM Arch ('sm_80') not found in '"+filepath.Join(dir, "kern.o")+"'",
		"Ignoring -dlto option because no LTO objects found",
		"undefined device symbol")
}

// checkOrder requires each of want in messages, in that order.
func checkOrder(t *testing.T, messages string, want ...string) {
	t.Helper()
	rest := messages
	for _, w := range want {
		i := strings.Index(rest, w)
		if i < 0 {
			t.Errorf("messages lack %q after the ones before it in %q:\n%s", w, want, messages)
			return
		}
		rest = rest[i+len(w):]
	}
}

// TestCUDA12LTONewerIRPartial: nvlink 12.4 reads a partial LTO's inputs
// in command-line order and stops at IR of a newer release ("elfLink nvvm
// error", exit 1): the info line of an input without IR before it is
// printed, not that of one after it (measured: nvlink 12.4 with
// cuda12-error-lto-ir-newer-toolkit's 12.5 objects and
// cuda12-lto-partial-plain-last's 12.4 plain.o and util.o).
func TestCUDA12LTONewerIRPartial(t *testing.T) {
	args, _ := cuda12LTOLink(t)
	nvjitlink := "/opt/cuda-12.4/usr/lib/x86_64-linux-gnu/libnvJitLink.so.12"
	newer := filepath.Join("..", "corpus", "cuda-12.4", "cases", "cuda12-error-lto-ir-newer-toolkit")
	plain := filepath.Join("..", "corpus", "cuda-12.4", "cases", "cuda12-lto-partial-plain-last")
	for _, p := range []string{nvjitlink, filepath.Join(newer, "util.o"), filepath.Join(plain, "plain.o")} {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("SKIP: %v (scripts/setup-cuda12.sh 12.4)", err)
		}
	}
	base := append(slices.Clip(args[:4]), "--nvjitlink="+nvjitlink, args[6]) // options, libcudadevrt
	info := func(name string) string {
		return "requested LTO but '" + name + "' not built for LTO so doing partial LTO"
	}
	for _, tc := range []struct {
		inputs  []string
		infos   int    // how many info lines
		refused string // the input named by the error
	}{
		// the 12.5 object first: no info line
		{[]string{filepath.Join(newer, "util.o"), filepath.Join(plain, "plain.o"), filepath.Join(newer, "kern.o")}, 0, filepath.Join(newer, "util.o")},
		// plain.o after a 12.4 object, before the 12.5 one: its line
		{[]string{filepath.Join(plain, "util.o"), filepath.Join(plain, "plain.o"), filepath.Join(newer, "kern.o")}, 1, filepath.Join(newer, "kern.o")},
		// plain.o first, and again after the 12.5 object: one line
		{[]string{filepath.Join(plain, "plain.o"), filepath.Join(plain, "util.o"), filepath.Join(newer, "kern.o"), filepath.Join(plain, "plain.o")}, 1, filepath.Join(newer, "kern.o")},
	} {
		out := filepath.Join(t.TempDir(), "out.cubin")
		all := append(append(slices.Clip(base), tc.inputs...), "-o", out)
		status, _, stderr := link(t, all)
		if status != 1 {
			t.Errorf("%v: exit status %d, want nvlink 12.4's 1\n%s", tc.inputs, status, stderr)
		}
		if n := strings.Count(stderr, info(filepath.Join(plain, "plain.o"))); n != tc.infos {
			t.Errorf("%v: %d info lines for plain.o, want %d (nvlink 12.4's)\n%s", tc.inputs, n, tc.infos, stderr)
		}
		checkOrder(t, stderr, "cannot read its LTO IR", "in "+tc.refused)
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: the failed link wrote %s", tc.inputs, out)
		}
	}
}

// TestCUDA118IRUnderCUDA12: -dlto objects of nvcc 11.8 linked with CUDA
// 12's -nvvmpath (nvlink 12.x: "k.o: error: incompatible IR detected",
// exit 1). cudalink names the object (k.o, the first with 11.8 IR, as
// nvlink does) and says what to do, alone (where 12.x's libnvvm refused
// nvlink 11.8's -host-ref-file, naming nothing) and beside 12.x objects
// (nvJitLink's IR_VERSION_MISMATCH).
func TestCUDA118IRUnderCUDA12(t *testing.T) {
	for _, name := range []string{"cuda12-error-lto-ir-from-cuda118", "cuda12-error-lto-ir-from-cuda118-beside-12x"} {
		runNamedCase(t, name, func(t *testing.T, args []string) {
			out := args[slices.Index(args, "-o")+1]
			status, _, stderr := link(t, args)
			for _, want := range []string{"error: its -dlto IR is CUDA 11.8's, which the CUDA 12 libnvvm of -nvvmpath=", "rebuild it with CUDA 12's nvcc -dlto", ">>> in k.o"} {
				if !strings.Contains(stderr, want) {
					t.Errorf("messages lack %q:\n%s", want, stderr)
				}
			}
			if status != 1 {
				t.Errorf("exit status %d, want nvlink 12.x's 1:\n%s", status, stderr)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("the failed link wrote %s", out)
			}
		})
	}
}

// TestCUDA12LTOMissingPtxas: the PTX libnvvm makes needs ptxas; a
// --ptxas that is not there fails the link, naming it, and writes
// nothing.
func TestCUDA12LTOMissingPtxas(t *testing.T) {
	args, _ := cuda12LTOLink(t)
	args[0] = "--ptxas=/no/such/ptxas"
	args = append(args, "--nvjitlink=/opt/cuda-12.4/usr/lib/x86_64-linux-gnu/libnvJitLink.so.12")
	if _, err := os.Stat("/opt/cuda-12.4/usr/lib/x86_64-linux-gnu/libnvJitLink.so.12"); err != nil {
		t.Skipf("SKIP: %v (scripts/setup-cuda12.sh 12.4)", err)
	}
	out := filepath.Join(t.TempDir(), "out.cubin")
	status, _, stderr := link(t, append(args, "-o", out))
	if status == 0 {
		t.Fatalf("the link succeeded:\n%s", stderr)
	}
	for _, want := range []string{"lto.cubin", "--ptxas=/no/such/ptxas"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("messages lack %q:\n%s", want, stderr)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("the failed link wrote %s", out)
	}
}

// TestCUDA12SplitCompileExtendedModules: with --split-compile-extended 2
// (nvlink 12.x), libnvvm writes the six kernels of steps.cu (nvcc -dc -dlto
// -arch=sm_80, testdata/split-compile-extended-modules/<release>) as two
// PTX modules. nvlink has ptxas compile each as relocatable code, even with
// libcudadevrt the only input without IR, and links the two cubins and
// libcudadevrt. The modules come in the order libnvvm's threads finish, so
// nvlink's output changes from run to run (six runs: 5 to 1 with 12.4, 4 to
// 2 with 12.5); expected.cubin is nvlink's output with the larger module
// first, the order cudalink always takes. cudalink ran ptxas once on the
// two modules together, which failed ("Parsing error near '.version'").
// Not a corpus case, as regen would record either order.
func TestCUDA12SplitCompileExtendedModules(t *testing.T) {
	for _, tk := range []string{"12.4", "12.5"} {
		t.Run(tk, func(t *testing.T) {
			dir := filepath.Join("testdata", "split-compile-extended-modules", tk)
			ptxas := filepath.Join("/opt/cuda-"+tk, "usr", "bin", "ptxas")
			if _, err := os.Stat(ptxas); err != nil {
				t.Skipf("SKIP: %v (CUDA %s: scripts/setup-cuda12.sh %s)", err, tk, tk)
			}
			nvvmPath := nvvmDir(t, &Case{Name: "split-compile-extended-modules", Toolkit: tk, NVVM: true}, ptxas)
			out := filepath.Join(t.TempDir(), "out.cubin")
			status, _, stderr := link(t, []string{"--ptxas=" + ptxas, "-arch=sm_80", "-dlto", "-nvvmpath=" + nvvmPath,
				"--split-compile-extended", "2", "--register-link-binaries=" + out + ".reg.c", filepath.Join(dir, "steps.o"),
				filepath.Join("..", "corpus", "cuda-"+tk, "libs", "libcudadevrt.a"), "-o", out})
			if status != 0 {
				t.Fatalf("exit status %d, want 0 (nvlink's):\n%s", status, stderr)
			}
			for _, f := range []struct{ got, want string }{{out, "expected.cubin"}, {out + ".reg.c", "expected.reg.c"}} {
				got, err := os.ReadFile(f.got)
				if err != nil {
					t.Fatal(err)
				}
				want, err := os.ReadFile(filepath.Join(dir, f.want))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s differs from nvlink's (%d bytes, %d expected)", f.want, len(got), len(want))
				}
			}
		})
	}
}

// TestVirtualLTOWholeProgramNeedsOutput: nvcc -dlink -dlto -arch=compute_NN
// runs nvlink --arch=compute_NN -dlto with no -o. Over -dlto objects and
// libcudadevrt alone nvlink compiles the whole program for sm_NN, which it
// writes to -o (lto-virtual-target-whole-program-compute80), and without
// -o it fails: "Could not open output file '(null)'", exit status 1, no
// --register-link-binaries file (measured with 11.8, 12.4 and 12.5).
// cudalink fails alike, saying so. nvlink itself is run when installed.
func TestVirtualLTOWholeProgramNeedsOutput(t *testing.T) {
	n := 0
	for _, c := range loadEveryToolkit(t) {
		if c.Name != "lto-virtual-target-whole-program-compute80" {
			continue
		}
		n++
		t.Run(c.Toolkit, func(t *testing.T) {
			tmp := t.TempDir()
			out := filepath.Join(tmp, "out.cubin")
			args := cudalinkArgs(t, c, c.Inputs, out)
			if i := slices.Index(args, "-o"); i < 0 || i != len(args)-2 {
				t.Fatalf("no -o at the end of %q", args)
			}
			args = args[:len(args)-2]
			status, _, stderr := linkIn(t, c.Dir, args)
			if status != 1 || !strings.Contains(stderr, "'(null)'") || !strings.Contains(stderr, "give -o <file>") {
				t.Errorf("cudalink %s: exit status %d, want 1 with nvlink's reason and what to do; stderr:\n%s", strings.Join(args, " "), status, stderr)
			}
			if files, _ := os.ReadDir(tmp); len(files) != 0 {
				t.Errorf("cudalink left %v", files)
			}
			nvlink := "nvlink"
			if c.Toolkit != DefaultToolkit {
				nvlink = filepath.Join("/opt/cuda-"+c.Toolkit, "usr", "bin", "nvlink")
			}
			if _, err := exec.LookPath(nvlink); err != nil {
				t.Logf("SKIP nvlink's side: %v", err)
				return
			}
			nvArgs := slices.DeleteFunc(slices.Clone(args), func(a string) bool {
				return strings.HasPrefix(a, "--ptxas=") || strings.HasPrefix(a, "--ptx-compiler=")
			})
			cmd := exec.Command(nvlink, nvArgs...)
			cmd.Dir = c.Dir
			msg, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 1 || !bytes.Contains(msg, []byte("Could not open output file '(null)'")) {
				t.Errorf("nvlink %s: %v, want exit status 1 and \"Could not open output file '(null)'\"; output:\n%s", strings.Join(nvArgs, " "), err, msg)
			}
			if files, _ := os.ReadDir(tmp); len(files) != 0 {
				t.Errorf("nvlink left %v", files)
			}
		})
	}
	if n == 0 {
		t.Skip("SKIP: no lto-virtual-target-whole-program-compute80 case")
	}
}

// TestVirtualLTOFatbinOutputs: nvcc -dlink -dlto -arch=compute_NN runs
// nvlink --arch=compute_NN -dlto (no -o), then fatbinary with no image.
// cudalink with --fatbin and --embedded-fatbin stands in for both: when
// the link ends as the virtual link (a partial LTO, -force-partial-lto),
// the .reg.c is nvlink's and the fatbinary outputs are what fatbinary
// writes with no image (the 16-byte container; its C file is checked
// against the toolkit's fatbinary when it is installed). cudalink refused
// fatbinary outputs with -arch=compute_NN -dlto before.
func TestVirtualLTOFatbinOutputs(t *testing.T) {
	want := []byte{0x50, 0xed, 0x55, 0xba, 0x01, 0x00, 0x10, 0x00, 0, 0, 0, 0, 0, 0, 0, 0}
	n := 0
	for _, c := range loadEveryToolkit(t) {
		if c.Name != "lto-virtual-target-partial-compute80" && c.Name != "lto-virtual-target-force-partial-lto-compute80" {
			continue
		}
		n++
		t.Run(c.Toolkit+"/"+c.Name, func(t *testing.T) {
			tmp := t.TempDir()
			out := filepath.Join(tmp, "out.cubin")
			args := cudalinkArgs(t, c, c.Inputs, out)
			if i := slices.Index(args, "-o"); i < 0 || i != len(args)-2 {
				t.Fatalf("no -o at the end of %q", args)
			}
			fb, fbc := filepath.Join(tmp, "out.fatbin"), filepath.Join(tmp, "out.fatbin.c")
			args = append(args[:len(args)-2], "--fatbin="+fb, "--embedded-fatbin="+fbc)
			if status, _, stderr := linkIn(t, c.Dir, args); status != 0 {
				t.Fatalf("cudalink %s: exit status %d; stderr:\n%s", strings.Join(args, " "), status, stderr)
			}
			checkRegFile(t, c, RegFile(out))
			if got, err := os.ReadFile(fb); err != nil || !bytes.Equal(got, want) {
				t.Errorf("--fatbin: % x (%v), want fatbinary's container with no image, % x", got, err, want)
			}
			fatbinary := "fatbinary"
			if c.Toolkit != DefaultToolkit {
				fatbinary = filepath.Join("/opt/cuda-"+c.Toolkit, "usr", "bin", "fatbinary")
			}
			if _, err := exec.LookPath(fatbinary); err != nil {
				t.Logf("SKIP fatbinary's side: %v", err)
				return
			}
			nvc := filepath.Join(tmp, "nv.fatbin.c")
			if msg, err := exec.Command(fatbinary, "-64", "--ident=lto", "-link", "--embedded-fatbin="+nvc).CombinedOutput(); err != nil {
				t.Fatalf("fatbinary: %v\n%s", err, msg)
			}
			a, _ := os.ReadFile(nvc)
			b, err := os.ReadFile(fbc)
			if err != nil || !bytes.Equal(a, b) {
				t.Errorf("--embedded-fatbin differs from fatbinary's (%v)", err)
			}
		})
	}
	if n == 0 {
		t.Skip("SKIP: no lto-virtual-target partial cases")
	}
}
