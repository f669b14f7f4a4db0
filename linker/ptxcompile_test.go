package linker

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/cudalink/cudalink/linker/cubin"
	"github.com/cudalink/cudalink/linker/fatbin"
)

// ptxCase is a corpus case whose inputs hold only PTX.
const ptxCase = "../tests/corpus/cases/ptx-only-host-objects"

// ptxLink links the PTX-only corpus case with cfg's ptxas settings and
// returns what the link printed, the output and the error.
func ptxLink(t *testing.T, edit func(*Config)) (string, []byte, error) {
	t.Helper()
	var msgs bytes.Buffer
	out := filepath.Join(t.TempDir(), "out.cubin")
	cfg := &Config{
		Arch:   80,
		Output: out,
		Inputs: []Input{{Path: filepath.Join(ptxCase, "a.o")}, {Path: filepath.Join(ptxCase, "b.o")}},
		Stdout: &msgs,
		Stderr: &msgs,
	}
	edit(cfg)
	err := Run(cfg)
	data, _ := os.ReadFile(out)
	return msgs.String(), data, err
}

// TestPtxasMissing: PTX that must be compiled, with no ptxas on PATH,
// fails the link with an error naming each input and saying what to
// install or pass, and what to set in Bazel; nothing is written.
func TestPtxasMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	msgs, out, err := ptxLink(t, func(*Config) {})
	if err == nil || out != nil {
		t.Fatalf("link succeeded without ptxas (err %v, %d output bytes)", err, len(out))
	}
	for _, want := range []string{"a.o", "b.o", "compute_80 PTX", "ptxas was not found on PATH", "--ptxas=PATH", "set ptxas on the cuda_device_linker_toolchain"} {
		if !strings.Contains(msgs, want) {
			t.Errorf("messages lack %q:\n%s", want, msgs)
		}
	}
}

// TestPtxasGivenMissing: a --ptxas that cannot be run is named in the
// error.
func TestPtxasGivenMissing(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "ptxas")
	msgs, _, err := ptxLink(t, func(cfg *Config) { cfg.Ptxas = bad })
	if err == nil || !strings.Contains(msgs, "--ptxas="+bad+" cannot be run") {
		t.Fatalf("err %v, messages:\n%s", err, msgs)
	}
}

// TestNoPtxasNeeded: a link whose inputs have SASS for the target never
// looks for ptxas.
func TestNoPtxasNeeded(t *testing.T) {
	var msgs bytes.Buffer
	cfg := &Config{
		Arch:   80,
		Output: filepath.Join(t.TempDir(), "out.cubin"),
		Inputs: []Input{{Path: "../examples/saxpy/kernel.cubin"}, {Path: "../examples/saxpy/math.cubin"}},
		Ptxas:  filepath.Join(t.TempDir(), "no-ptxas"),
		Stdout: &msgs, Stderr: &msgs,
	}
	if err := Run(cfg); err != nil {
		t.Fatalf("%v\n%s", err, msgs.String())
	}
}

// countingCache is a CompileCache that keeps every result and counts
// compiles.
type countingCache struct {
	mu       sync.Mutex
	kept     map[string]*Compiled
	compiles int
	keys     []string
}

func (c *countingCache) Objects(path string, load func() ([]*Object, error)) ([]*Object, error) {
	return load()
}

func (c *countingCache) Compiled(key string, compile func() (*Compiled, error)) (*Compiled, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.keys = append(c.keys, key)
	if res, ok := c.kept[key]; ok {
		return res, nil
	}
	c.compiles++
	res, err := compile()
	if err == nil {
		c.kept[key] = res
	}
	return res, err
}

// TestCompileCache: the second link of the same PTX with the same options
// runs no ptxas and gives the same bytes; other options are another key.
func TestCompileCache(t *testing.T) {
	if _, err := exec.LookPath("ptxas"); err != nil {
		t.Skip("SKIP: ptxas (CUDA toolkit) not on PATH")
	}
	cache := &countingCache{kept: map[string]*Compiled{}}
	link := func(maxreg int) []byte {
		msgs, out, err := ptxLink(t, func(cfg *Config) { cfg.Cache = cache; cfg.MaxRegCount = maxreg })
		if err != nil {
			t.Fatalf("%v\n%s", err, msgs)
		}
		return out
	}
	first := link(0)
	if cache.compiles != 2 {
		t.Fatalf("first link: %d compiles, want 2 (a.o and b.o)", cache.compiles)
	}
	if second := link(0); !bytes.Equal(first, second) || cache.compiles != 2 {
		t.Errorf("second link: %d compiles, same bytes %v; want no new compile and the same bytes", cache.compiles, bytes.Equal(first, second))
	}
	link(64)
	if cache.compiles != 4 {
		t.Errorf("with -maxrregcount: %d compiles in all, want 4 (new keys)", cache.compiles)
	}
	if keys := slices.Compact(slices.Sorted(slices.Values(cache.keys))); len(keys) != 4 {
		t.Errorf("%d distinct keys, want 4", len(keys))
	}
}

// TestCompilesLargestFirst: the PTX images are handed to the compiler
// largest first, whatever their order on the command line (compilePTX),
// and the output is what command-line order links. A ptxas stand-in logs
// the size of each PTX it is given, then runs ptxas; one compile at a
// time, so the log's order is the order of the compiles.
func TestCompilesLargestFirst(t *testing.T) {
	ptxas, err := exec.LookPath("ptxas")
	if err != nil {
		t.Skip("SKIP: ptxas (CUDA toolkit) not on PATH")
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "sizes")
	stand := filepath.Join(dir, "ptxas")
	script := "#!/bin/sh\nfor in do :; done\nwc -c < \"$in\" >> " + log + "\nexec " + ptxas + " \"$@\"\n"
	if err := os.WriteFile(stand, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	var outs [][]byte
	for _, order := range [][]string{{"a.o", "b.o"}, {"b.o", "a.o"}} {
		os.Remove(log)
		msgs, out, err := ptxLink(t, func(cfg *Config) {
			cfg.Ptxas = stand
			cfg.Parallelism = 1
			cfg.Inputs = []Input{{Path: filepath.Join(ptxCase, order[0])}, {Path: filepath.Join(ptxCase, order[1])}}
		})
		if err != nil {
			t.Fatalf("%v: %v\n%s", order, err, msgs)
		}
		outs = append(outs, out)
		data, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		var sizes []int
		for _, f := range strings.Fields(string(data)) {
			n, err := strconv.Atoi(f)
			if err != nil {
				t.Fatalf("log %q: %v", data, err)
			}
			sizes = append(sizes, n)
		}
		if len(sizes) != 2 || sizes[0] <= sizes[1] {
			t.Errorf("link of %v: ptxas got PTX of %v bytes, in that order; want two, the larger first", order, sizes)
		}
	}
	if bytes.Equal(outs[0], outs[1]) {
		t.Error("both orders linked the same bytes: the output must follow the command line, not the compiles")
	}
	want, err := os.ReadFile(filepath.Join(ptxCase, "expected.cubin"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(outs[0], want) {
		t.Error("a.o b.o: not nvlink's output (expected.cubin)")
	}
}

// TestPtxasArgs: nvlink's order of ptxas options (measured against nvlink
// 11.8, see ptxasArgs): target, the recorded options without their -arch,
// -Xptxas, -maxrregcount, -g, -c.
func TestPtxasArgs(t *testing.T) {
	for _, tc := range []struct {
		cfg     Config
		options string
		want    string
	}{
		{Config{Arch: 86}, "-arch=sm_80 --compile-only ", "-arch=sm_86 --compile-only -c"},
		{Config{Arch: 90}, "-arch sm_70 -O1 -maxrregcount=40 --compile-only", "-arch=sm_90 -O1 -maxrregcount=40 --compile-only -c"},
		{Config{Arch: 80, ptxasOptions: []string{"-O2"}, MaxRegCount: 32}, "-maxrregcount=40", "-arch=sm_80 -maxrregcount=40 -O2 -maxrregcount=32 -c"},
		{Config{Arch: 80, MaxRegCount: -3}, "", "-arch=sm_80 -c"},
		{Config{Arch: 90, ArchSpecific: true}, "-arch=sm_90a", "-arch=sm_90a -c"},
		{Config{Arch: 80, Debug: true}, "--gpu-name=sm_80 --generate-line-info", "-arch=sm_80 --generate-line-info -g -c"},
		{Config{Arch: 80, Debug: true, SuppressDebugInfo: true}, "-g", "-arch=sm_80 -g -c"},
	} {
		got := strings.Join(ptxasArgs(&tc.cfg, &ptxImage{options: tc.options}), " ")
		if got != tc.want {
			t.Errorf("options %q, config %+v: %q, want %q", tc.options, tc.cfg, got, tc.want)
		}
	}
}

// TestStartsWithVersion: nvlink takes a .ptx input whose first directive,
// after comments, is .version.
func TestStartsWithVersion(t *testing.T) {
	for text, want := range map[string]bool{
		".version 7.8\n.target sm_80\n":           true,
		"//\n// made by hand\n\n\t.version 7.8\n": true,
		"/* a\nb */ .version 7.8":                 true,
		".target sm_80\n.version 7.8\n":           false,
		".versions 7.8\n":                         false,
		"hello .version 7.8\n":                    false,
		"// only a comment":                       false,
		"/* unterminated .version 7.8":            false,
		"":                                        false,
	} {
		if got := startsWithVersion([]byte(text)); got != want {
			t.Errorf("startsWithVersion(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestChooseImage: nvlink's choice between a unit's SASS and PTX images
// (measured with nvlink 11.8; see chooseImage).
func TestChooseImage(t *testing.T) {
	elfFor := func(u *unit, sm int) *Object {
		return &Object{ELF: &cubin.File{Header: cubin.Header{Flags: uint32(sm)}}, unit: u}
	}
	for _, tc := range []struct {
		sass, ptx []int
		target    int
		want      string // "sm_NN", "compute_NN" or ""
	}{
		{[]int{80}, []int{80}, 86, "sm_80"},
		{[]int{86}, []int{80}, 86, "sm_86"},
		{[]int{75}, []int{80}, 80, "compute_80"},
		{[]int{80}, []int{75}, 86, "sm_80"},
		{[]int{80}, []int{86}, 89, "compute_86"},
		{[]int{80}, []int{86}, 86, "compute_86"},
		{[]int{86}, []int{86}, 89, "sm_86"},
		{nil, []int{70, 80}, 86, "compute_80"},
		{nil, []int{90}, 80, ""},
		{[]int{80}, []int{70}, 90, "compute_70"},
		{[]int{90}, nil, 80, ""},
	} {
		u := &unit{container: true}
		var objs []*Object
		for _, sm := range tc.sass {
			objs = append(objs, elfFor(u, sm))
		}
		for _, sm := range tc.ptx {
			u.ptx = append(u.ptx, ptxImage{sm: sm})
		}
		if len(objs) == 0 {
			objs = []*Object{{unit: u}}
		}
		if got := chosenImage(chooseImage(objs, imageTarget{sm: tc.target})); got != tc.want {
			t.Errorf("SASS %v, PTX %v, target sm_%d: %q, want %q", tc.sass, tc.ptx, tc.target, got, tc.want)
		}
	}
}

// TestChooseImageGenericDLTO: a -dlto link for sm_90 (not sm_90a) takes
// no sm_90a image of a fatbinary: the unit's sm_90 image or compute_90
// PTX, else nothing; without -dlto the sm_90a image wins, and a
// relocatable cubin is taken either way (measured with nvlink 12.4 and
// 12.5; see imageTarget).
func TestChooseImageGenericDLTO(t *testing.T) {
	for _, tc := range []struct {
		sass      []string // "90" or "90a", in file order
		ptx       []int
		container bool
		generic   bool
		want      string
	}{
		{[]string{"90a"}, nil, true, true, ""},
		{[]string{"90a"}, nil, true, false, "sm_90a"},
		{[]string{"90", "90a"}, nil, true, true, "sm_90"},
		{[]string{"90a", "90"}, nil, true, true, "sm_90"},
		{[]string{"90", "90a"}, nil, true, false, "sm_90a"},
		{[]string{"90a"}, []int{90}, true, true, "compute_90"},
		{[]string{"90a"}, []int{90}, true, false, "sm_90a"},
		{[]string{"90a"}, nil, false, true, "sm_90a"},
	} {
		u := &unit{container: tc.container}
		var objs []*Object
		for _, sm := range tc.sass {
			flags := uint32(90)
			if sm == "90a" {
				flags |= cubin.EF_CUDA_ARCH_SPECIFIC
			}
			objs = append(objs, &Object{ELF: &cubin.File{Header: cubin.Header{Flags: flags}}, unit: u})
		}
		for _, sm := range tc.ptx {
			u.ptx = append(u.ptx, ptxImage{sm: sm})
		}
		if got := chosenImage(chooseImage(objs, imageTarget{sm: 90, generic: tc.generic})); got != tc.want {
			t.Errorf("SASS %v, PTX %v, container %v, generic %v: %q, want %q", tc.sass, tc.ptx, tc.container, tc.generic, got, tc.want)
		}
	}
}

// chosenImage names what chooseImage chose: "sm_90", "sm_90a" (an
// arch-specific image), "compute_90" (PTX), or "" for nothing.
func chosenImage(best *Object, ptx *ptxImage) string {
	switch {
	case ptx != nil:
		return "compute_" + strconv.Itoa(ptx.sm)
	case best != nil:
		name := "sm_" + strconv.Itoa(best.ELF.Header.SM())
		if best.ELF.Header.Flags&cubin.EF_CUDA_ARCH_SPECIFIC != 0 {
			name += "a"
		}
		return name
	}
	return ""
}

// TestPTXISARelease: the CUDA release of a PTX text's ISA, which tells an
// older ptxas's failure on it apart (olderCompilerHint).
func TestPTXISARelease(t *testing.T) {
	for _, tt := range []struct {
		text string
		want uint32
	}{
		{"//\n// Generated by NVIDIA NVVM Compiler\n.version 8.4\n.target sm_80\n", 124},
		{".version 7.8\n.target sm_80", 118},
		{".version\t8.5\n", 125},
		{".version 8.0", 120},
		{".version 6.4\n", 0},
		{".version 8.10\n", 0},
		{".target sm_80\n", 0},
		{".version x.4", 0},
	} {
		if got := ptxISARelease([]byte(tt.text)); got != tt.want {
			t.Errorf("ptxISARelease(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
}

// TestISAReleaseReadsPastTheHead checks that isaRelease, which reads a
// fatbinary's PTX only as far as its .version line, gives what the whole
// text gives: a .version line within the first isaHead bytes, one after
// a long comment, and one the head cuts in the middle of its ISA
// (.version 8.10 is no release ptxISARelease knows; its first isaHead
// bytes alone would say 8.1).
func TestISAReleaseReadsPastTheHead(t *testing.T) {
	body := "\n.target sm_80\n.address_size 64\n"
	long := "// " + strings.Repeat("x", isaHead) + "\n"
	cut := strings.Repeat("/", isaHead-len(".version 8.1")) + "\n"
	cut = cut[1:] // the head ends just after "8.1"
	for _, tc := range []struct {
		name, text string
		want       uint32
	}{
		{"early", "// nvcc\n.version 7.8" + body, 118},
		{"after a long comment", long + ".version 8.4" + body, 124},
		{"cut by the head", cut + ".version 8.10" + body, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ptxISARelease([]byte(tc.text)); got != tc.want {
				t.Fatalf("ptxISARelease = %d, want %d", got, tc.want)
			}
			var fb bytes.Buffer
			if err := fatbin.Write(&fb, []fatbin.Image{{Kind: fatbin.KindPTX, SM: 80, Data: []byte(tc.text)}}); err != nil {
				t.Fatal(err)
			}
			entries, err := fatbin.Parse("t.fatbin", fb.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			p := &ptxImage{sm: 80, entry: entries[0]}
			if got := p.isaRelease(); got != tc.want {
				t.Errorf("isaRelease = %d, want %d", got, tc.want)
			}
		})
	}
}
