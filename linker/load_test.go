package linker

import (
	"bytes"
	"cmp"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestReadInputsParallelTail: readInputs reads the inputs on the link's
// goroutine until they hold serialReadBytes, and the rest in parallel;
// either way every input gets the objects of its own file, in
// command-line order. The inputs are the cubins of the many-files-24
// corpus case named over and over, more than twice serialReadBytes in
// all, and each is compared with the same file read alone.
func TestReadInputsParallelTail(t *testing.T) {
	dir := filepath.Join("..", "tests", "corpus", "cases", "many-files-24")
	paths, err := filepath.Glob(filepath.Join(dir, "f*.cubin"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Skip("SKIP: corpus case many-files-24 not generated")
	}
	alone := map[string]*Object{}
	size := 0
	for _, p := range paths {
		ctx := newContext(&Config{Arch: 80, Inputs: []Input{{Path: p}}, Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}})
		readInputs(ctx)
		if ctx.read == nil || ctx.read.errs[0] != nil || len(ctx.read.objs[0]) != 1 {
			t.Fatalf("%s alone: %v", p, ctx.read)
		}
		alone[p] = ctx.read.objs[0][0]
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		size += int(fi.Size())
	}
	var ins []Input
	for total := 0; total <= 2*serialReadBytes; total += size {
		for _, p := range paths {
			ins = append(ins, Input{Path: p})
		}
	}
	ctx := newContext(&Config{Arch: 80, Inputs: ins, Parallelism: 4, Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}})
	readInputs(ctx)
	defer ctx.maps.unmapAll()
	if ctx.read == nil || len(ctx.read.objs) != len(ins) {
		t.Fatalf("read %v for %d inputs", ctx.read, len(ins))
	}
	for i, in := range ins {
		objs, err := ctx.read.objs[i], ctx.read.errs[i]
		if err != nil || len(objs) != 1 {
			t.Fatalf("input %d (%s): %d objects, error %v", i, in.Path, len(objs), err)
		}
		got, want := objs[0], alone[in.Path]
		if got.Name != in.Path || len(got.ELF.Sections) != len(want.ELF.Sections) || len(got.ELF.Symbols) != len(want.ELF.Symbols) {
			t.Fatalf("input %d: %s with %d sections and %d symbols, want %s with %d and %d", i,
				got.Name, len(got.ELF.Sections), len(got.ELF.Symbols), in.Path, len(want.ELF.Sections), len(want.ELF.Symbols))
		}
		for j, sec := range got.ELF.Sections {
			if sec.Name != want.ELF.Sections[j].Name || !bytes.Equal(sec.Data, want.ELF.Sections[j].Data) {
				t.Fatalf("input %d (%s): section %d is %s, want %s", i, in.Path, j, sec.Name, want.ELF.Sections[j].Name)
			}
		}
	}
}

// TestLibrarySOInAnyDirectory: nvlink looks for lib<name>.so in every -L
// directory before it looks for any lib<name>.a, and links nothing from
// the .so it finds (it does not open it): with libdev.a in the first
// directory and a libdev.so in the second, -ldev links nothing, in either
// order of the directories (11.8, 12.4, 12.5, measured with strace: nvlink
// stats a/libdev.so, b/libdev.so, and only then a/libdev.a). The inputs
// are the corpus case l-library-so-before-archive-sm75's, which checks the
// same directory.
func TestLibrarySOInAnyDirectory(t *testing.T) {
	dir := filepath.Join("..", "tests", "corpus", "cases", "l-library-so-before-archive-sm75")
	lib, err := os.ReadFile(filepath.Join(dir, "libdev.a"))
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	a, b := filepath.Join(tmp, "a"), filepath.Join(tmp, "b")
	for _, d := range []string{a, b} {
		if err := os.Mkdir(d, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(a, "libdev.a"), lib, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(b, "libdev.so"), []byte("not opened\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := func(dirs ...string) (string, error) {
		var msgs bytes.Buffer
		err := Run(&Config{Arch: 75, Output: filepath.Join(tmp, "out.cubin"), LibDirs: dirs,
			Inputs: []Input{{Path: filepath.Join(dir, "k.o")}, {Path: "dev", Library: true}}, Stdout: &msgs, Stderr: &msgs})
		return msgs.String(), err
	}
	if msgs, err := link(a); err != nil {
		t.Fatalf("-L a -ldev: %v\n%s", err, msgs)
	}
	for _, dirs := range [][]string{{a, b}, {b, a}} {
		msgs, err := link(dirs...)
		if err == nil || !strings.Contains(msgs, "undefined device symbol: scale(int)") ||
			!strings.Contains(msgs, "library -ldev is "+filepath.Join(b, "libdev.so")+" for nvlink") {
			t.Errorf("-L %v -ldev: err %v, want the .so taken and scale undefined:\n%s", dirs, err, msgs)
		}
	}
}

// TestByInput: byInput orders items by their input's index and keeps the
// items of one input in their order, as a stable sort by that index does,
// for random lists with inputs that have no item, one or many.
func TestByInput(t *testing.T) {
	type item struct{ input, seq int }
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 7, 100, 1000} {
		for _, inputs := range []int{1, 3, 50} {
			xs := make([]item, n)
			for i := range xs {
				xs[i] = item{rng.IntN(inputs), i}
			}
			want := slices.Clone(xs)
			slices.SortStableFunc(want, func(a, b item) int { return cmp.Compare(a.input, b.input) })
			if got := byInput(slices.Clone(xs), inputs, func(x item) int { return x.input }); !slices.Equal(got, want) {
				t.Errorf("%d items of %d inputs: got %v, want %v", n, inputs, got, want)
			}
		}
	}
}

// TestLibraryNotFoundSays: an -l library found in no -L directory gets
// cudalink's own warning (nvlink says nothing), which says where it was
// looked for: no -L at all (nvlink has no default directory), or how many,
// naming the -L values that are no directory (a file: -L lib/libfoo.a for
// -L lib; a path that does not exist), and saying that -l takes a name
// when given a file's (-lkernel.cubin, -llibfoo.a). The link goes on
// without it.
func TestLibraryNotFoundSays(t *testing.T) {
	dir := filepath.Join("..", "tests", "corpus", "cases", "call-chain-three-files")
	if _, err := os.Stat(filepath.Join(dir, "a.cubin")); err != nil {
		t.Skipf("corpus case missing: %v", err)
	}
	tmp := t.TempDir()
	file := filepath.Join(tmp, "libfoo.a")
	if err := os.WriteFile(file, []byte("!<arch>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(tmp, "missing")
	for _, tt := range []struct {
		dirs []string
		want string
	}{
		{nil, "warning: library -lfoo not found (no -L directory was given, and nvlink searches none by default); linking without it\n"},
		{[]string{tmp}, "warning: library -lnone not found (looked for libnone.a in 1 -L directory); linking without it\n"},
		{[]string{file, missing, tmp}, "warning: library -lnone not found (looked for libnone.a in 3 -L directories; -L " + file + " is a file, not a directory; -L " + missing + " does not exist); linking without it\n"},
		{[]string{tmp, tmp}, "warning: library -lkernel.cubin not found (looked for libkernel.cubin.a in 2 -L directories; -l takes a library's name (-lfoo finds libfoo.a): give a file by its path); linking without it\n"},
		{[]string{}, "warning: library -llibfoo.a not found (no -L directory was given, and nvlink searches none by default; -l takes a library's name (-lfoo finds libfoo.a): give a file by its path); linking without it\n"},
	} {
		lib := "foo"
		switch {
		case len(tt.dirs) == 2:
			lib = "kernel.cubin"
		case tt.dirs != nil && len(tt.dirs) == 0:
			lib = "libfoo.a"
		case tt.dirs != nil:
			lib = "none"
		}
		var msgs bytes.Buffer
		inputs := []Input{{Path: filepath.Join(dir, "a.cubin")}, {Path: filepath.Join(dir, "b.cubin")}, {Path: filepath.Join(dir, "c.cubin")}, {Path: lib, Library: true}}
		err := Run(&Config{Arch: 80, Output: filepath.Join(tmp, "out.cubin"), LibDirs: tt.dirs, Inputs: inputs, Stdout: &msgs, Stderr: &msgs})
		if err != nil || !strings.HasSuffix(msgs.String(), tt.want) {
			t.Errorf("-L %q -l%s: err %v, messages %q, want them to end %q", tt.dirs, lib, err, msgs.String(), tt.want)
		}
	}
}
