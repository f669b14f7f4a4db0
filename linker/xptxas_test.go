package linker

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestChooseXptxas: ptxas's options of -Xptxas per release (measured with
// nvlink 11.8, 12.4 and 12.5; the corpus's *xptxas-given-twice* and
// cuda12-ptx-xptxas-comma-list cases): 11.8 the last value split at white
// space, with a warning for each redefinition; 12.x every value split at
// commas and white space, without one.
func TestChooseXptxas(t *testing.T) {
	given := []string{" -O1\t-maxrregcount=30 ", "-v,-O2", "-v,-O2"}
	for _, tc := range []struct {
		version uint32
		want    []string
		warn    string
	}{
		{118, []string{"-v,-O2"}, "cudalink: warning: incompatible redefinition for option 'Xptxas', the last value of this option was used\n"},
		{124, []string{"-O1", "-maxrregcount=30", "-v", "-O2", "-v", "-O2"}, ""},
		{125, []string{"-O1", "-maxrregcount=30", "-v", "-O2", "-v", "-O2"}, ""},
	} {
		var stderr bytes.Buffer
		cfg := &Config{Arch: 80, CUDAVersion: tc.version, PtxasOptions: given, XptxasRedefined: []string{"Xptxas"}, Stderr: &stderr}
		chooseXptxas(newContext(cfg))
		if !slices.Equal(cfg.ptxasOptions, tc.want) || stderr.String() != tc.warn {
			t.Errorf("CUDA %d: options %q, printed %q; want %q, %q", tc.version, cfg.ptxasOptions, stderr.String(), tc.want, tc.warn)
		}
	}
	// One value without a comma: the same for every release.
	cfg := &Config{Arch: 80, PtxasOptions: []string{" -O1\t-maxrregcount=30 "}}
	chooseXptxas(newContext(cfg))
	if want := []string{"-O1", "-maxrregcount=30"}; !slices.Equal(cfg.ptxasOptions, want) {
		t.Errorf("one -Xptxas: %q, want %q", cfg.ptxasOptions, want)
	}
}

// TestPtxasRelease reads the release of the toolkit's ptxas, when there is
// one on PATH, from its --version.
func TestPtxasRelease(t *testing.T) {
	for path, want := range map[string]uint32{"/opt/cuda-12.4/usr/bin/ptxas": 124, "/opt/cuda-12.5/usr/bin/ptxas": 125} {
		if _, err := findPtxas(path); err != nil {
			t.Logf("SKIP %s: %v", path, err)
			continue
		}
		if got := ptxasRelease(path); got != want {
			t.Errorf("ptxasRelease(%s) = %d, want %d", path, got, want)
		}
	}
	if got := ptxasRelease("/nonexistent/ptxas"); got != 0 {
		t.Errorf("ptxasRelease of a missing ptxas = %d, want 0", got)
	}
}

// TestReleaseOf: the release of a --version text, as ptxas 11.8 and 12.x
// print it, and 0 where there is none.
func TestReleaseOf(t *testing.T) {
	for text, want := range map[string]uint32{
		"Built on Wed_Sep_21_10:31:59_PDT_2022\nCuda compilation tools, release 11.8, V11.8.89\n":    118,
		"Cuda compilation tools, release 12.4, V12.4.131\nBuild cuda_12.4.r12.4/compiler.34097967_0": 124,
		"prerelease notes, release 12.5\n": 125,
		"release 12.45":                    0,
		"release x.4, release 9.1":         91,
		"no version":                       0,
	} {
		if got := releaseOf([]byte(text)); got != want {
			t.Errorf("releaseOf(%q) = %d, want %d", text, got, want)
		}
	}
}

// TestPTXCompilerRelease reads the release of a PTX compiler from the
// version text it holds: in files made to put the text at the start, across
// the 1 MiB pieces the file is read in, with its version in the next piece,
// and nowhere; and in the compilers scripts/setup.sh builds, where they are.
func TestPTXCompilerRelease(t *testing.T) {
	dir := t.TempDir()
	banner := "Cuda compilation tools, release 12.4, V12.4.131\x00"
	for name, tc := range map[string]struct {
		at   int
		text string
		want uint32
	}{
		"start":          {0, banner, 124},
		"across":         {1<<20 - 10, banner, 124},
		"version-across": {1<<20 - len("Cuda compilation tools, release 1"), banner, 124},
		"late":           {3<<20 + 5, "Cuda compilation tools, release 11.8, V11.8.89", 118},
		"none":           {100, "Cuda compilation tools, V12.4", 0},
		"cut":            {200, "Cuda compilation tools, release 12", 0},
	} {
		b := make([]byte, tc.at+len(tc.text)+1000)
		if name == "cut" {
			b = b[:tc.at+len(tc.text)]
		}
		copy(b[tc.at:], tc.text)
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if got := ptxCompilerRelease(path); got != tc.want {
			t.Errorf("%s: ptxCompilerRelease = %d, want %d", name, got, tc.want)
		}
	}
	if got := ptxCompilerRelease(filepath.Join(dir, "missing")); got != 0 {
		t.Errorf("a missing compiler: %d, want 0", got)
	}
	cache := os.Getenv("CUDALINK_CACHE")
	if cache == "" {
		cache = "/var/cache/cudalink"
	}
	for _, v := range []uint32{118, 124, 125} {
		for _, name := range []string{"cudalink-ptxc", "libnvptxcompiler.so"} {
			path := filepath.Join(cache, fmt.Sprintf("cuda-%d.%d", v/10, v%10), name)
			if _, err := os.Stat(path); err != nil {
				t.Logf("SKIP %s: not built (scripts/setup.sh)", path)
				continue
			}
			if got := ptxCompilerRelease(path); got != v {
				t.Errorf("ptxCompilerRelease(%s) = %d, want %d", path, got, v)
			}
		}
	}
}
