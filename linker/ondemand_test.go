package linker

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cudalink/cudalink/linker/archive"
	"github.com/cudalink/cudalink/linker/cubin"
	"github.com/cudalink/cudalink/linker/fatbin"
	"github.com/cudalink/cudalink/linker/hostobj"
)

// TestArchiveModeOnDemand: --archive-mode=on-demand links only the members
// the link needs, to a fixed point, where nvlink's mode links them all.
// The inputs are nvcc objects of two corpus cases: k.o calls ping, a.o
// defines ping and calls pong, b.o defines pong (liba.a and libb.a of
// archive-given-twice-linked-once-sm80), and lib.cubin defines two kernels
// nothing refers to (archive-of-cubins-unreferenced). One archive holds
// lib.cubin, b.o and a.o in that order, so b.o is needed only once a.o is
// taken: a second pass must find it. Linked whole, lib.cubin's kernels
// are in the output (no host object prunes kernels); on demand, lib.cubin
// stays out, ping and pong are in, and -v names each member taken and the
// names it was taken for.
func TestArchiveModeOnDemand(t *testing.T) {
	cases := filepath.Join("..", "tests", "corpus", "cases")
	twice := filepath.Join(cases, "archive-given-twice-linked-once-sm80")
	member := func(lib string) []byte {
		data, err := os.ReadFile(filepath.Join(twice, lib))
		if err != nil {
			t.Fatal(err)
		}
		a, err := archive.Parse(lib, data)
		if err != nil || len(a.Members) != 1 {
			t.Fatalf("%s: %v, %d members", lib, err, len(a.Members))
		}
		return a.Members[0].Data
	}
	lib, err := os.ReadFile(filepath.Join(cases, "archive-of-cubins-unreferenced", "lib.cubin"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	arPath := filepath.Join(dir, "libmixed.a")
	writeArchive(t, arPath, []string{"lib.cubin", "b.o", "a.o"}, [][]byte{lib, member("libb.a"), member("liba.a")})
	inputs := []Input{{Path: filepath.Join(twice, "k.o")}, {Path: arPath}}

	// defines links inputs and gives which of names the output defines.
	defines := func(mode string, names ...string) (map[string]bool, string) {
		var stdout, stderr bytes.Buffer
		out := filepath.Join(dir, "out-"+mode+".cubin")
		err := Run(&Config{Arch: 80, Output: out, Inputs: inputs, ArchiveMode: mode, Verbose: true, Stdout: &stdout, Stderr: &stderr})
		msgs := stdout.String() + stderr.String()
		if err != nil {
			t.Fatalf("%s: %v\n%s", mode, err, msgs)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		f, err := cubin.Parse(out, data)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for _, s := range f.Symbols {
			if s.Shndx != cubin.SHN_UNDEF && slices.Contains(names, s.Name) {
				got[s.Name] = true
			}
		}
		return got, msgs
	}
	names := []string{"_Z4pingi", "_Z4pongi", "_Z10lib_kernelPi", "_Z11lib_kernel2Pf"}

	// nvlink's mode: every member.
	got, msgs := defines("whole", names...)
	for _, name := range names {
		if !got[name] {
			t.Errorf("whole archive: output does not define %s", name)
		}
	}
	if strings.Contains(msgs, "linking archive member") {
		t.Errorf("whole archive: -v reports members taken on demand:\n%s", msgs)
	}

	got, msgs = defines("on-demand", names...)
	for name, want := range map[string]bool{"_Z4pingi": true, "_Z4pongi": true, "_Z10lib_kernelPi": false, "_Z11lib_kernel2Pf": false} {
		if got[name] != want {
			t.Errorf("on demand: output defines %s: %v, want %v", name, got[name], want)
		}
	}
	for _, want := range []string{
		"linking archive member " + arPath + "(a.o) for _Z4pingi\n",
		"linking archive member " + arPath + "(b.o) for _Z4pongi\n",
	} {
		if !strings.Contains(msgs, want) {
			t.Errorf("on demand: -v lacks %q:\n%s", want, msgs)
		}
	}
	if strings.Contains(msgs, "(lib.cubin)") {
		t.Errorf("on demand: lib.cubin was linked:\n%s", msgs)
	}
}

// writeArchive writes an ar archive of the given members (names of at
// most 15 bytes, GNU style, no symbol table).
func writeArchive(t *testing.T, path string, names []string, data [][]byte) {
	t.Helper()
	var b bytes.Buffer
	b.WriteString("!<arch>\n")
	for i, name := range names {
		fmt.Fprintf(&b, "%-16s%-12d%-6d%-6d%-8o%-10d`\n", name+"/", 0, 0, 0, 0o644, len(data[i]))
		b.Write(data[i])
		if len(data[i])%2 == 1 {
			b.WriteByte('\n')
		}
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestArchiveModeOnDemandDevrtTwice: libcudadevrt given twice, by two
// files (a copy beside the toolkit's, say, or a path and -lcudadevrt
// finding another), is linked once, at its first place: the second finds
// the first's names defined and is not taken. nvlink 11.8, 12.4 and 12.5
// write for such a link what they write with one libcudadevrt (checked on
// these cases, either order), and --archive-mode=on-demand, which
// changes nothing for libcudadevrt, must too. chooseDevrt left the first
// copy's members out of the names it knows under on-demand (it skipped
// every archive member there, where linkedFiles links a libcudadevrt
// taken), so it took the second copy as well: duplicate definitions of
// every libcudadevrt function (cudaGetParameterBuffer, ...), exit 1.
func TestArchiveModeOnDemandDevrtTwice(t *testing.T) {
	corpus := filepath.Join("..", "tests", "corpus")
	for _, c := range []struct{ root, name string }{
		{corpus, "cnp-wrapper-sm52"},
		{filepath.Join(corpus, "cuda-12.4"), "cuda12-device-launch-sm80"},
		{filepath.Join(corpus, "cuda-12.5"), "cuda12-device-launch-sm80"},
	} {
		dir := filepath.Join(c.root, "cases", c.name)
		want, err := os.ReadFile(filepath.Join(dir, "expected.cubin"))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		devrt := filepath.Join(c.root, "libs", "libcudadevrt.a")
		data, err := os.ReadFile(devrt)
		if err != nil {
			t.Fatal(err)
		}
		tmp := t.TempDir()
		copyPath := filepath.Join(tmp, "copy", "libcudadevrt.a")
		if err := os.MkdirAll(filepath.Dir(copyPath), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(copyPath, data, 0o644); err != nil {
			t.Fatal(err)
		}
		objs, _ := filepath.Glob(filepath.Join(dir, "*.o"))
		arch := 52
		if strings.HasSuffix(c.name, "sm80") {
			arch = 80
		}
		for _, mode := range []string{"whole", "on-demand"} {
			for _, devrts := range [][]string{{devrt, copyPath}, {copyPath, devrt}} {
				var inputs []Input
				for _, p := range append(slices.Clone(objs), devrts...) {
					inputs = append(inputs, Input{Path: p})
				}
				var msgs bytes.Buffer
				out := filepath.Join(tmp, "out.cubin")
				err := Run(&Config{Arch: arch, Output: out, Inputs: inputs, ArchiveMode: mode, Stdout: &msgs, Stderr: &msgs})
				if err != nil {
					t.Errorf("%s, %s, %v: %v\n%.600s", c.name, mode, devrts, err, msgs.String())
					continue
				}
				got, err := os.ReadFile(out)
				if err != nil || !bytes.Equal(got, want) {
					t.Errorf("%s, %s, %v: output differs from nvlink's with one libcudadevrt (expected.cubin): %v", c.name, mode, devrts, err)
				}
			}
		}
	}
}

// TestDevrtImageReadOnlyWhenNeeded: libcudadevrt's image for the target is
// read whole only where the link needs the library (deferredImage,
// chooseDevrt). Each release's corpus libcudadevrt.a is copied with the
// middle of its sm_80 images' compressed payload overwritten. Linked with
// two cubins that call nothing of it (libcudadevrt-linked-unused), nvlink
// 11.8, 12.4 and 12.5 write the bytes they write with the intact library,
// exit status 0 (each after an "Uncompress failed" line of its own), and
// so must cudalink, which used to stop on the image it did not link.
// Linked with an object that launches kernels (dynamic-parallelism-
// lcudadevrt, 11.8), the library is needed, and the broken image is an
// error naming it (nvlink: "Uncompress failed" and every call undefined).
func TestDevrtImageReadOnlyWhenNeeded(t *testing.T) {
	corpus, err := filepath.Abs(filepath.Join("..", "tests", "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range []string{"", "cuda-12.4", "cuda-12.5"} {
		name := strings.TrimPrefix(tk, "cuda-")
		if tk == "" {
			name = "11.8"
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if n := writeBrokenDevrt(t, filepath.Join(corpus, tk, "libs", "libcudadevrt.a"), filepath.Join(dir, "libcudadevrt.a"), 80); n == 0 {
				t.Fatal("no sm_80 image in libcudadevrt.a")
			}
			link := func(inputs ...string) ([]byte, string, error) {
				var stderr bytes.Buffer
				cfg := &Config{Arch: 80, Output: filepath.Join(dir, "out.cubin"), LibDirs: []string{dir}, Stdout: &stderr, Stderr: &stderr}
				for _, in := range inputs {
					cfg.Inputs = append(cfg.Inputs, Input{Path: in})
				}
				cfg.Inputs = append(cfg.Inputs, Input{Path: "cudadevrt", Library: true})
				err := Run(cfg)
				out, _ := os.ReadFile(cfg.Output)
				os.Remove(cfg.Output)
				return out, stderr.String(), err
			}
			t.Chdir(filepath.Join(corpus, tk, "cases", "libcudadevrt-linked-unused"))
			want, err := os.ReadFile("expected.cubin")
			if err != nil {
				t.Fatal(err)
			}
			got, msgs, err := link("a.cubin", "b.cubin")
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("unneeded libcudadevrt with a broken image: err %v, %d bytes, want nvlink's %d (equal: %v)\n%s", err, len(got), len(want), bytes.Equal(got, want), msgs)
			}
			if tk != "" {
				return
			}
			t.Chdir(filepath.Join(corpus, "cases", "dynamic-parallelism-lcudadevrt"))
			got, msgs, err = link("cdp.o")
			if err == nil || got != nil || !strings.Contains(msgs, "libcudadevrt.a(cuda_device_runtime.o):(__nv_relfatbin): malformed fatbinary at offset 0x") {
				t.Errorf("needed libcudadevrt with a broken image: err %v, %d bytes written, messages:\n%s", err, len(got), msgs)
			}
		})
	}
}

// writeBrokenDevrt copies the archive from to to, with 64 bytes in the
// middle of the payload of every sm_<sm> ELF image of its members'
// fatbinaries overwritten; it returns how many images it broke.
func writeBrokenDevrt(t *testing.T, from, to string, sm int) int {
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	ar, err := archive.Parse(from, data)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range ar.Members {
		if !hostobj.IsHostObject(m.Data) {
			continue
		}
		ho, err := hostobj.Parse(m.Name, m.Data)
		if err != nil || len(ho.RelFatbin) == 0 {
			continue
		}
		fb := fatbin.First(ho.RelFatbin)
		entries, err := fatbin.Parse(m.Name, fb)
		if err != nil {
			t.Fatal(err)
		}
		base := int(addr(fb) - addr(data))
		for _, e := range entries {
			if e.Kind != fatbin.KindELF || e.SM != sm || e.Compression == fatbin.CompressionNone {
				continue
			}
			// The entry's header: its size at 4, the payload's at 8.
			h := base + int(e.Off)
			start := h + int(le.Uint32(data[h+4:]))
			size := int(le.Uint64(data[h+8:]))
			for i := start + size/2; i < min(start+size/2+64, start+size); i++ {
				data[i] = 0xff
			}
			n++
		}
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return n
}
