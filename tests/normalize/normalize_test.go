package normalize

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
)

// Test inputs are compiled on the fly with the CUDA toolkit (nvcc, nvlink)
// when it is on PATH; the tests that need them are skipped otherwise.

const srcA = `#include <cstdio>
extern __device__ int foo(int);
__device__ int gv[4];
__constant__ int cv[8];
__global__ void ka(int *p, int n) {
	__shared__ int s[32];
	s[threadIdx.x] = p[threadIdx.x];
	__syncthreads();
	p[n] = foo(s[n]) + gv[n] + cv[n];
	printf("hi %d\n", n);
}
`

const srcB = `typedef int (*fp)(int);
__device__ int bar(int x) { return x * 3; }
__device__ int baz(int x) { return x + 7; }
__device__ fp tbl[2] = {bar, baz};
__device__ int foo(int x) { return tbl[x & 1](x) + 1; }
__global__ void kb(int *p) { p[0] = foo(p[1]); }
`

type fixtureSet struct {
	dir        string
	a, b       []byte // relocatable cubins (nvcc -dc -cubin -arch=sm_80)
	ab, ba     []byte // nvlink -arch=sm_80 a.cubin b.cubin / b.cubin a.cubin
	abPath     string
	err        error
	skipReason string
}

var (
	fixOnce sync.Once
	fix     fixtureSet
)

func TestMain(m *testing.M) {
	code := m.Run()
	if fix.dir != "" {
		os.RemoveAll(fix.dir)
	}
	os.Exit(code)
}

// fixtures builds the test cubins once per test binary.
func fixtures(t testing.TB) *fixtureSet {
	fixOnce.Do(buildFixtures)
	if fix.skipReason != "" {
		t.Skip(fix.skipReason)
	}
	if fix.err != nil {
		t.Fatal(fix.err)
	}
	return &fix
}

func buildFixtures() {
	for _, tool := range []string{"nvcc", "nvlink"} {
		if _, err := exec.LookPath(tool); err != nil {
			fix.skipReason = "SKIP: CUDA toolkit not installed (" + tool + " not on PATH); cubin-based normalize tests skipped"
			return
		}
	}
	dir, err := os.MkdirTemp("", "normalize-test-")
	if err != nil {
		fix.err = err
		return
	}
	fix.dir = dir
	run := func(name string, args ...string) error {
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return nil
	}
	for name, src := range map[string]string{"a.cu": srcA, "b.cu": srcB} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			fix.err = err
			return
		}
	}
	// Compile both sources concurrently (nvcc dominates the test time).
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, stem := range []string{"a", "b"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = run("nvcc", "-arch=sm_80", "-dc", "-cubin", stem+".cu", "-o", stem+".cubin")
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			fix.err = err
			return
		}
	}
	if err := run("nvlink", "-arch=sm_80", "a.cubin", "b.cubin", "-o", "ab.cubin"); err != nil {
		fix.err = err
		return
	}
	if err := run("nvlink", "-arch=sm_80", "b.cubin", "a.cubin", "-o", "ba.cubin"); err != nil {
		fix.err = err
		return
	}
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil && fix.err == nil {
			fix.err = err
		}
		return b
	}
	fix.a, fix.b, fix.ab, fix.ba = read("a.cubin"), read("b.cubin"), read("ab.cubin"), read("ba.cubin")
	fix.abPath = filepath.Join(dir, "ab.cubin")
}

func mustNormalize(t *testing.T, data []byte) string {
	t.Helper()
	s, err := Normalize(data)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestStable(t *testing.T) {
	fx := fixtures(t)
	for name, data := range map[string][]byte{"a": fx.a, "b": fx.b, "ab": fx.ab, "ba": fx.ba} {
		n1 := mustNormalize(t, data)
		n2 := mustNormalize(t, bytes.Clone(data))
		if n1 != n2 {
			t.Errorf("%s: normalization is not stable:\n%s", name, Diff(n1, n2))
		}
		if !strings.HasPrefix(n1, "elf class=ELFCLASS64 data=ELFDATA2LSB ") {
			t.Errorf("%s: unexpected first line: %.80q", name, n1)
		}
	}
}

func TestContents(t *testing.T) {
	fx := fixtures(t)
	n := mustNormalize(t, fx.ab)
	for _, want := range []string{
		"elf class=ELFCLASS64 data=ELFDATA2LSB type=ET_EXEC machine=190 version=0x76 osabi=0x33 abiversion=7 flags=0x500550 ",
		"phnum 4\n",
		"phdr 0 type=PHDR flags=RX ",
		"covers=[<phdrs>]",
		"section .text._Z2kaPii type=PROGBITS flags=0x6 bar=1 addr=0x0 align=128 entsize=0 size=0x380 link=.symtab regs=24 sym=_Z2kaPii\n",
		"section .nv.info._Z2kaPii type=CUDA_INFO ",
		"info=.text._Z2kaPii\n",
		// relocation symbol names, REL and RELA
		" R_CUDA_ABS47_34 _Z3fooi\n",
		" R_CUDA_ABS47_34 vprintf\n",
		" R_CUDA_ABS32_LO_32 gv\n",
		" R_CUDA_64 _Z3bari\n",
		" R_CUDA_ABS32_LO_32 _Z2kaPii +0x",
		// .nv.info records with symbols
		"  EIATTR_REGCOUNT SVAL size=8 _Z3fooi 0x",
		"  EIATTR_EXTERNS SVAL size=4 vprintf\n",
		"  EIATTR_PARAM_CBANK SVAL size=8 section(.nv.constant0._Z2kaPii) 0x",
		"  EIATTR_MIN_STACK_SIZE SVAL size=8 _Z2kaPii 0x",
		// callgraph and prototypes
		"  call _Z2kaPii -> _Z3fooi\n",
		"  call _Z2kaPii -> vprintf\n",
		"  addrtaken _Z3bari proto=\"#ii\"\n",
		"  indirect _Z3fooi proto=\"#ii\"\n",
		"  marker -1\n",
		"  vprintf \"#ill\"\n",
		// symbols
		"symbol _Z2kaPii bind=GLOBAL type=FUNC other=0x10 sec=.text._Z2kaPii value=0x0 size=0x380\n",
		"symbol vprintf bind=GLOBAL type=FUNC other=0x0 sec=UND ",
		"symbol section(.nv.constant3) bind=LOCAL type=SECTION ",
		"section .nv.shared._Z2kaPii type=NOBITS flags=0x3 addr=0x0 align=4 entsize=0 size=0x80 link=0 info=.text._Z2kaPii\n",
	} {
		if !strings.Contains(n, want) {
			t.Errorf("normalized ab.cubin lacks %q", want)
		}
	}
	// Sections without a decoder are shown as hex; decoded ones are not.
	for _, sec := range []string{".text._Z2kaPii", ".nv.global.init", ".nv.rel.action", ".debug_frame", ".nv.constant3"} {
		if !regexp.MustCompile(`(?m)^section ` + regexp.QuoteMeta(sec) + ` .*\n  0x00000000: [0-9a-f]{16} `).MatchString(n) {
			t.Errorf("no hex contents for %s", sec)
		}
	}
	if regexp.MustCompile(`(?m)^section \.(symtab|strtab|shstrtab|nv\.info|nv\.callgraph|nv\.prototype|rel[a-z.]*) .*\n  0x00000000:`).MatchString(n) {
		t.Errorf("a decoded section is shown as hex")
	}
	// The section list is sorted by name.
	var names []string
	for _, l := range strings.Split(n, "\n") {
		if rest, ok := strings.CutPrefix(l, "section "); ok {
			names = append(names, strings.Fields(rest)[0])
		}
	}
	if !sort.StringsAreSorted(names) || len(names) != 32 {
		t.Errorf("sections not sorted or wrong count (%d): %v", len(names), names)
	}
	t.Logf("normalized ab.cubin: %d lines", strings.Count(n, "\n"))
}

// corpusCubins lists the cubins of the link-case corpus (tests/corpus/cases):
// relocatable inputs, nvlink outputs and deliberately broken inputs.
func corpusCubins(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob("../corpus/cases/*/*.cubin")
	if len(files) == 0 {
		t.Skip("SKIP: no cubins in ../corpus/cases (run go run ./tests/corpus/regen); corpus-based normalize tests skipped")
	}
	return files
}

// TestCorpusCubins normalizes every cubin of the corpus (no CUDA toolkit
// needed): valid ones must normalize, stably and invariantly under
// permutation of sections and symbols; broken ones must give an error.
func TestCorpusCubins(t *testing.T) {
	var ok, bad int
	for i, path := range corpusCubins(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		n, err := Normalize(data)
		if err != nil {
			if strings.Contains(err.Error(), "internal error") {
				t.Errorf("%s: %v", path, err)
			}
			bad++
			continue
		}
		ok++
		if n2, _ := Normalize(bytes.Clone(data)); n2 != n {
			t.Errorf("%s: normalization is not stable", path)
		}
		if p := permute(t, data, uint64(i)); bytes.Equal(p, data) {
			t.Errorf("%s: permutation changed nothing", path)
		} else if pn := mustNormalize(t, p); pn != n {
			t.Errorf("%s: permuted cubin normalizes differently:\n%s", path, Diff(n, pn))
		}
	}
	t.Logf("%d corpus cubins normalized and checked, %d rejected (broken inputs)", ok, bad)
	if ok == 0 {
		t.Error("no corpus cubin could be normalized")
	}
}

// TestAgreesWithCuobjdump cross-checks the relocation and .nv.info decoding
// against NVIDIA's own dump, on the test's own cubins and on every valid
// cubin of the corpus.
func TestAgreesWithCuobjdump(t *testing.T) {
	if _, err := exec.LookPath("cuobjdump"); err != nil {
		t.Skip("SKIP: cuobjdump not on PATH: CUDA toolkit not installed; cross-check skipped")
	}
	var files []string
	fixOnce.Do(buildFixtures)
	if fix.err == nil && fix.skipReason == "" {
		files = append(files, filepath.Join(fix.dir, "a.cubin"), filepath.Join(fix.dir, "ab.cubin"))
	}
	corpus, _ := filepath.Glob("../corpus/cases/*/*.cubin")
	files = append(files, corpus...)
	if len(files) == 0 {
		t.Skip("SKIP: no cubins (neither nvcc nor a corpus)")
	}
	checked := 0
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) >= 20 && binary.LittleEndian.Uint16(data[18:]) != 190 {
			continue // another machine's ELF named .cubin (error-host-object-named-cubin-sm80): no device code of its own
		}
		n, err := Normalize(data)
		if err != nil {
			continue // a broken corpus input
		}
		crossCheck(t, path, n)
		checked++
	}
	t.Logf("%d cubins cross-checked with cuobjdump", checked)
}

// TestAttrNamesFollowTheRelease cross-checks the .nv.info attribute names,
// with the cuobjdump of CUDA 12.4 and 12.5, of the cubins of those releases' corpora that carry an
// attribute numbered 0x41 or higher: from there on the names are the
// release's (0x41 is 11.8's end marker EIATTR_ERROR_LAST and 12.x's
// EIATTR_RESERVED_SMEM_USED).
func TestAttrNamesFollowTheRelease(t *testing.T) {
	for _, tk := range []string{"12.4", "12.5"} {
		dump := "/opt/cuda-" + tk + "/usr/bin/cuobjdump"
		if _, err := os.Stat(dump); err != nil {
			t.Logf("SKIP %s: %s not installed (scripts/setup.sh)", tk, dump)
			continue
		}
		files, _ := filepath.Glob("../corpus/cuda-" + tk + "/cases/*/*.cubin")
		checked, reserved := 0, 0
		for _, path := range files {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			n, err := Normalize(data)
			if err != nil || !slices.ContainsFunc(eiattrNames12[:], func(name string) bool { return strings.Contains(n, name+" ") }) {
				continue
			}
			out, err := exec.Command(dump, "-elf", path).Output()
			if err != nil {
				t.Errorf("%s -elf %s: %v", dump, path, err)
				continue
			}
			crossCheckAttrs(t, path, n, out)
			checked++
			if strings.Contains(n, "EIATTR_RESERVED_SMEM_USED ") {
				reserved++
			}
		}
		t.Logf("CUDA %s: %d cubins with attributes from 0x41 on cross-checked, %d with EIATTR_RESERVED_SMEM_USED", tk, checked, reserved)
		if len(files) > 0 && reserved == 0 {
			t.Errorf("CUDA %s: no corpus cubin carries EIATTR_RESERVED_SMEM_USED (reserved-smem-from-callees-G-sm86 should)", tk)
		}
	}
}

// crossCheck compares the relocations and .nv.info attribute names of the
// normal form n of the cubin at path with cuobjdump -elf's dump.
func crossCheck(t *testing.T, path, n string) {
	t.Helper()
	out, err := exec.Command("cuobjdump", "-elf", path).Output()
	if err != nil {
		t.Errorf("cuobjdump -elf %s: %v", path, err)
		return
	}
	crossCheckCallgraph(t, path, n, out)
	got := cuobjdumpDetails(n)

	// Relocations: cuobjdump prints "<off> <sym> <type> [addend]" under
	// ".section .rel<x>\tREL|RELA".
	want := map[string][]string{}
	cur := ""
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, ".section .rel") {
			// A name can head more than one section (nvlink keeps the
			// same-named local functions nvcc -G gives each file, as
			// in debug-G-assert-two-files); the normal form lists the
			// entries of all of them under the name, so collect them all.
			cur = strings.Fields(l)[1]
			if _, seen := want[cur]; !seen {
				want[cur] = nil
			}
			continue
		}
		f := strings.Fields(l)
		if len(f) >= 2 && strings.HasPrefix(f[1], "R_CUDA_") { // no symbol (index 0)
			f = append([]string{f[0], "<null symbol>"}, f[1:]...)
		}
		if cur == "" || len(f) < 3 || !strings.HasPrefix(f[0], "0x") || !strings.HasPrefix(f[2], "R_CUDA_") {
			if len(f) == 0 || strings.HasPrefix(l, ".") {
				cur = ""
			}
			continue
		}
		var off uint64
		fmt.Sscanf(f[0], "0x%x", &off)
		s := fmt.Sprintf("0x%08x %s %s", off, f[2], f[1])
		if len(f) > 3 {
			var add uint64 // printed as a 64-bit two's complement value
			fmt.Sscanf(f[3], "0x%x", &add)
			s += " " + signedHex(int64(add))
		}
		want[cur] = append(want[cur], s)
	}
	for sec, w := range want {
		sort.Strings(w)
		if g := strings.Join(got[sec], "\n"); g != strings.Join(w, "\n") {
			t.Errorf("%s: relocations of %s differ from cuobjdump:\n%s", path, sec, Diff(strings.Join(w, "\n")+"\n", g+"\n"))
		}
	}

	crossCheckAttrs(t, path, n, out)
}

// crossCheckAttrs compares the .nv.info attribute names and the symbols in
// their values of the normal form n of the cubin at path with out, its
// cuobjdump -elf dump.
func crossCheckAttrs(t *testing.T, path, n string, out []byte) {
	t.Helper()
	got := cuobjdumpDetails(n)
	// .nv.info attribute names per section, and the symbols cuobjdump names
	// in their values ("function: _Z3fooi(0x12)", "externs:\tvprintf(0x13)").
	wantAttrs, wantSyms := map[string][]string{}, map[string][]string{}
	symRef := regexp.MustCompile(`([^\s(]+)\(0x[0-9a-f]+\)`)
	cur := ""
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, ".nv.info") {
			cur = strings.TrimSpace(l) // possibly again: see the relocations above
			if _, seen := wantAttrs[cur]; !seen {
				wantAttrs[cur] = nil
			}
			continue
		}
		if cur == "" {
			continue
		}
		if a, ok := strings.CutPrefix(l, "\tAttribute:\t"); ok {
			wantAttrs[cur] = append(wantAttrs[cur], strings.TrimSpace(a))
		}
		if v, ok := strings.CutPrefix(l, "\tValue:\t"); ok {
			for _, m := range symRef.FindAllStringSubmatch(v, -1) {
				wantSyms[cur] = append(wantSyms[cur], m[1])
			}
		}
	}
	// (cuobjdump prints MAX_STACK_SIZE and PARAM_CBANK symbols as raw indices.)
	named := map[string]bool{"EIATTR_FRAME_SIZE": true, "EIATTR_REGCOUNT": true, "EIATTR_MIN_STACK_SIZE": true,
		"EIATTR_EXTERNS": true}
	for sec, w := range wantAttrs {
		sort.Strings(w)
		var g, gs []string
		for _, d := range got[sec] {
			f := strings.Fields(d)
			g = append(g, f[0])
			if named[f[0]] && len(f) > 3 { // NAME SVAL size=N sym...
				if f[0] == "EIATTR_EXTERNS" {
					gs = append(gs, f[3:]...)
				} else {
					gs = append(gs, f[3])
				}
			}
		}
		if strings.Join(g, " ") != strings.Join(w, " ") {
			t.Errorf("%s: attributes of %s: got %v, cuobjdump says %v", path, sec, g, w)
		}
		ws := wantSyms[sec]
		sort.Strings(ws)
		sort.Strings(gs)
		if strings.Join(gs, " ") != strings.Join(ws, " ") {
			t.Errorf("%s: symbols in the attributes of %s: got %v, cuobjdump says %v", path, sec, gs, ws)
		}
	}
}

// cuobjdumpDetails returns the per-section details of the normal form n
// spelled as cuobjdump does: a section symbol by its section's name, and
// same-named symbols not disambiguated.
func cuobjdumpDetails(n string) map[string][]string {
	got := sectionDetails(n)
	secSym := regexp.MustCompile(`section\(([^)]*)\)`)
	disamb := regexp.MustCompile(`\{[^}]*\}`)
	for sec, lines := range got {
		for i, l := range lines {
			got[sec][i] = disamb.ReplaceAllString(secSym.ReplaceAllString(l, "$1"), "")
		}
		sort.Strings(got[sec])
	}
	return got
}

// crossCheckCallgraph compares the symbols of .nv.callgraph and
// .nv.prototype in the normal form n with cuobjdump's raw dump of them
// ("<caller,callee>" symbol indices, mapped to names with cuobjdump's own
// symbol table dump).
func crossCheckCallgraph(t *testing.T, path, n string, out []byte) {
	t.Helper()
	names := map[string]string{} // "0x1a" -> name
	var want []string
	block := ""
	group := ""
	for _, l := range strings.Split(string(out), "\n") {
		switch {
		case l == ".section .symtab" || l == ".nv.callgraph" || l == ".nv.prototype":
			block = l
			continue
		case strings.TrimSpace(l) == "":
			block = ""
			continue
		}
		f := strings.Fields(l)
		switch block {
		case ".section .symtab":
			if len(f) == 7 && strings.HasPrefix(f[0], "0x") {
				names[f[0]] = f[6]
			}
		case ".nv.callgraph", ".nv.prototype":
			var a, b int64
			if _, err := fmt.Sscanf(strings.TrimSpace(l), "<%d,%d>", &a, &b); err != nil {
				t.Errorf("%s: cannot parse cuobjdump line %q", path, l)
				return
			}
			sym := func(i int64) string { return names[fmt.Sprintf("0x%x", i)] }
			switch {
			case block == ".nv.prototype":
				want = append(want, "prototype "+sym(a))
			case a == 0 && b < 0:
				group = fmt.Sprint(b)
				want = append(want, "marker "+group)
			case group == "-1":
				want = append(want, "call "+sym(a)+" -> "+sym(b))
			case group == "-2":
				want = append(want, "addrtaken "+sym(a))
			case group == "-3":
				want = append(want, "indirect "+sym(a))
			}
		}
	}
	var got []string
	for sec, lines := range sectionDetails(n) {
		for _, l := range lines {
			l = regexp.MustCompile(`\{[^}]*\}`).ReplaceAllString(l, "")
			f := strings.Fields(l)
			switch {
			case sec == ".nv.prototype":
				got = append(got, "prototype "+f[0])
			case sec == ".nv.callgraph" && (f[0] == "addrtaken" || f[0] == "indirect"):
				got = append(got, f[0]+" "+f[1])
			case sec == ".nv.callgraph":
				got = append(got, l)
			}
		}
	}
	sort.Strings(want)
	sort.Strings(got)
	if g, w := strings.Join(got, "\n")+"\n", strings.Join(want, "\n")+"\n"; g != w {
		t.Errorf("%s: callgraph/prototype differ from cuobjdump:\n%s", path, Diff(w, g))
	}
}

// sectionDetails maps each section name to its (trimmed) detail lines.
func sectionDetails(n string) map[string][]string {
	m := map[string][]string{}
	cur := ""
	for _, l := range strings.Split(n, "\n") {
		if rest, ok := strings.CutPrefix(l, "section "); ok {
			cur = strings.Fields(rest)[0]
			continue
		}
		if !strings.HasPrefix(l, "  ") {
			cur = ""
			continue
		}
		if cur != "" {
			m[cur] = append(m[cur], strings.TrimSpace(l))
		}
	}
	return m
}

// TestPermutationInvisible rewrites ab.cubin with its section headers and
// symbols permuted (all indices remapped) and the entries of relocation,
// .nv.info, .nv.callgraph and .nv.prototype sections reordered: the
// normalization must not change.
func TestPermutationInvisible(t *testing.T) {
	fx := fixtures(t)
	want := mustNormalize(t, fx.ab)
	for seed := uint64(1); seed <= 5; seed++ {
		p := permute(t, fx.ab, seed)
		if bytes.Equal(p, fx.ab) {
			t.Fatalf("seed %d: permutation changed nothing", seed)
		}
		if got := mustNormalize(t, p); got != want {
			t.Errorf("seed %d: permuted cubin normalizes differently:\n%s", seed, Diff(want, got))
		}
		if seed == 1 {
			if err := toolAccepts(t, p); err != nil {
				t.Errorf("permuted cubin is rejected by the CUDA tools: %v", err)
			}
		}
	}
	// The relocatable inputs too.
	for name, in := range map[string][]byte{"a": fx.a, "b": fx.b} {
		if got, want := mustNormalize(t, permute(t, in, 7)), mustNormalize(t, in); got != want {
			t.Errorf("%s: permuted cubin normalizes differently:\n%s", name, Diff(want, got))
		}
	}
}

// toolAccepts runs cuobjdump -elf and nvdisasm on data when available.
func toolAccepts(t *testing.T, data []byte) error {
	path := filepath.Join(t.TempDir(), "p.cubin")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return err
	}
	for _, args := range [][]string{{"cuobjdump", "-elf", path}, {"nvdisasm", path}} {
		if _, err := exec.LookPath(args[0]); err != nil {
			continue
		}
		if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
			return fmt.Errorf("%s: %v\n%.2000s", strings.Join(args, " "), err, out)
		}
	}
	return nil
}

// TestChangesVisible checks that real changes show up in the normal form
// and in Diff.
func TestChangesVisible(t *testing.T) {
	fx := fixtures(t)
	orig := mustNormalize(t, fx.ab)
	sh := rawSections(t, fx.ab)

	// A changed byte in .text.
	text := sh.byName(t, ".text._Z3fooi")
	mod := bytes.Clone(fx.ab)
	mod[text.off+0x21] ^= 0x40
	d := Diff(orig, mustNormalize(t, mod))
	if d == "" {
		t.Fatal("a changed .text byte is invisible")
	}
	if !strings.Contains(d, "@@ section .text._Z3fooi ") || !strings.Contains(d, "\n-  0x00000020: ") || !strings.Contains(d, "\n+  0x00000020: ") {
		t.Errorf("unexpected diff for a changed .text byte:\n%s", d)
	}
	if del, ins := changedLines(d); del != 1 || ins != 1 {
		t.Errorf("a one-byte change gives more than one changed line:\n%s", d)
	}

	// A relocation pointing at another symbol.
	mod = bytes.Clone(fx.ab)
	rel := sh.byName(t, ".rel.nv.global.init")
	sym := binary.LittleEndian.Uint32(mod[rel.off+12:])
	binary.LittleEndian.PutUint32(mod[rel.off+12:], sym+1)
	d = Diff(orig, mustNormalize(t, mod))
	if !strings.Contains(d, "-  0x00000008 R_CUDA_64 _Z3bari\n") || !strings.Contains(d, "@@ section .rel.nv.global.init ") {
		t.Errorf("unexpected diff for a changed relocation symbol:\n%s", d)
	}

	// The register count of a function (sh_info bits 24-31 of its .text).
	mod = bytes.Clone(fx.ab)
	info := text.hdr + 44
	binary.LittleEndian.PutUint32(mod[info:], binary.LittleEndian.Uint32(mod[info:])+1<<24)
	d = Diff(orig, mustNormalize(t, mod))
	if !strings.Contains(d, "regs=25 sym=_Z3fooi") {
		t.Errorf("unexpected diff for a changed register count:\n%s", d)
	}

	// ab and ba are different link results (input order changes layout of
	// merged sections) and must not compare equal.
	if d := Diff(orig, mustNormalize(t, fx.ba)); d == "" {
		t.Error("ab.cubin and ba.cubin normalize identically")
	} else {
		t.Logf("ab vs ba (expected to differ):\n%s", d)
	}
}

// TestMalformed feeds truncated and corrupted cubins: Normalize must return
// (an error or a text) without panicking.
func TestMalformed(t *testing.T) {
	check := func(what string, data []byte) {
		t.Helper()
		if _, err := Normalize(data); err != nil && strings.Contains(err.Error(), "internal error") {
			t.Fatalf("%s: %v", what, err)
		}
	}
	check("nil", nil)
	check("empty", []byte{})
	check("magic only", []byte("\x7fELF"))
	hdr := make([]byte, 64)
	copy(hdr, "\x7fELF\x02\x01\x01\x33\x07")
	check("bare header", hdr)
	if _, err := Normalize([]byte("not an elf file at all")); err == nil {
		t.Error("garbage normalizes without error")
	}

	fx := fixtures(t)
	for _, in := range [][]byte{fx.ab, fx.a} {
		for n := 0; n < len(in); n += max(1, len(in)/300) {
			check(fmt.Sprintf("truncated to %d", n), in[:n])
		}
		r := rand.New(rand.NewPCG(1, 2))
		sh := rawSections(t, in)
		for i := 0; i < 1000; i++ {
			mod := bytes.Clone(in)
			for k := 0; k < 1+i%4; k++ {
				var pos int
				switch i % 3 {
				case 0: // anywhere
					pos = r.IntN(len(mod))
				case 1: // in the section header table
					pos = sh.shoff + r.IntN(sh.shnum*64)
				default: // in a decoded section
					s := sh.list[r.IntN(len(sh.list))]
					if s.size == 0 || s.typ == 8 {
						continue
					}
					pos = s.off + r.IntN(s.size)
				}
				if pos < len(mod) {
					mod[pos] = byte(r.Uint32())
				}
			}
			check(fmt.Sprintf("mutation %d", i), mod)
		}
	}
}

func FuzzNormalize(f *testing.F) {
	f.Add([]byte("\x7fELF\x02\x01\x01\x33\x07"))
	fixOnce.Do(buildFixtures)
	if fix.err == nil && fix.skipReason == "" {
		f.Add(fix.ab)
		f.Add(fix.a)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := Normalize(data); err != nil && strings.Contains(err.Error(), "internal error") {
			t.Fatal(err)
		}
	})
}

// ---------------------------------------------------------------------------
// Raw ELF64 helpers for the tests (independent of the code under test).

type rawSec struct {
	name           string
	hdr            int // offset of the section header
	typ            uint32
	off, size      int
	link, info     uint32
	flags, entsize uint64
}

type rawELF struct {
	shoff, shnum, shstrndx int
	list                   []rawSec
}

func rawSections(t testing.TB, data []byte) *rawELF {
	t.Helper()
	le := binary.LittleEndian
	e := &rawELF{shoff: int(le.Uint64(data[40:])), shnum: int(le.Uint16(data[60:])), shstrndx: int(le.Uint16(data[62:]))}
	for i := 0; i < e.shnum; i++ {
		h := e.shoff + 64*i
		e.list = append(e.list, rawSec{
			hdr: h, typ: le.Uint32(data[h+4:]), flags: le.Uint64(data[h+8:]),
			off: int(le.Uint64(data[h+24:])), size: int(le.Uint64(data[h+32:])),
			link: le.Uint32(data[h+40:]), info: le.Uint32(data[h+44:]), entsize: le.Uint64(data[h+56:]),
		})
	}
	strs := e.list[e.shstrndx]
	for i := range e.list {
		n := int(le.Uint32(data[e.list[i].hdr:]))
		s := data[strs.off+n:]
		e.list[i].name = string(s[:bytes.IndexByte(s, 0)])
	}
	return e
}

func (e *rawELF) byName(t testing.TB, name string) rawSec {
	t.Helper()
	for _, s := range e.list {
		if s.name == name {
			return s
		}
	}
	t.Fatalf("no section %s", name)
	return rawSec{}
}

// permute returns a copy of an ELF64 cubin with the section header table
// and the symbol table permuted (every index remapped) and the entries of
// relocation (.rel, .rela, .nv.resolvedrela), .nv.info, callgraph and
// prototype sections reordered. File
// offsets of section data do not change.
func permute(t testing.TB, data []byte, seed uint64) []byte {
	t.Helper()
	le := binary.LittleEndian
	r := rand.New(rand.NewPCG(seed, 42))
	e := rawSections(t, data)
	out := bytes.Clone(data)

	// Section permutation (index 0 stays).
	secNew := []int{0}
	for _, i := range r.Perm(e.shnum - 1) {
		secNew = append(secNew, i+1)
	}
	// Symbol permutation (index 0 stays).
	var symtab rawSec
	for _, s := range e.list {
		if s.typ == 2 {
			symtab = s
		}
	}
	nsym := symtab.size / 24
	symNew := []int{0}
	for _, i := range r.Perm(nsym - 1) {
		symNew = append(symNew, i+1)
	}
	mapSym := func(i uint32) uint32 {
		if int(i) < nsym {
			return uint32(symNew[i])
		}
		return i
	}

	// Symbols.
	for i := 1; i < nsym; i++ {
		src := data[symtab.off+24*i : symtab.off+24*i+24]
		dst := out[symtab.off+24*symNew[i]:]
		copy(dst, src)
		if sh := le.Uint16(src[6:]); sh != 0 && sh < 0xff00 {
			le.PutUint16(dst[6:], uint16(secNew[sh]))
		}
	}

	// Section headers and contents.
	for i, s := range e.list {
		if i == 0 {
			continue
		}
		dst := e.shoff + 64*secNew[i]
		copy(out[dst:dst+64], data[s.hdr:s.hdr+64])
		if s.link != 0 {
			le.PutUint32(out[dst+40:], uint32(secNew[s.link]))
		}
		info := s.info
		// REL, RELA and CUDA_RESOLVED_RELA (-preserve-relocs'
		// .nv.resolvedrela<x>: RELA entries, sh_info its target).
		isRel := s.typ == 4 || s.typ == 9 || s.typ == 0x70000003
		switch {
		case strings.HasPrefix(s.name, ".text."):
			info = info&0xff000000 | mapSym(info&0xffffff)
		case isRel || strings.HasPrefix(s.name, ".nv.info.") || strings.HasPrefix(s.name, ".nv.constant") || strings.HasPrefix(s.name, ".nv.shared."):
			if info != 0 {
				info = uint32(secNew[info])
			}
		}
		le.PutUint32(out[dst+44:], info)

		if s.typ == 8 || s.off+s.size > len(out) {
			continue // NOBITS (shared memory, .nv.global): no contents in the file
		}
		b := out[s.off : s.off+s.size]
		switch {
		case isRel:
			size := 16
			if s.typ != 9 {
				size = 24
			}
			var ents [][]byte
			for k := 0; k+size <= len(b); k += size {
				ent := bytes.Clone(b[k : k+size])
				le.PutUint32(ent[12:], mapSym(le.Uint32(ent[12:])))
				ents = append(ents, ent)
			}
			r.Shuffle(len(ents), func(x, y int) { ents[x], ents[y] = ents[y], ents[x] })
			copy(b, bytes.Join(ents, nil))
		case s.typ == 0x70000000: // .nv.info: remap and reverse the records
			var recs [][]byte
			for k := 0; k+4 <= len(b); {
				n := 4
				if b[k] == 4 {
					n += int(le.Uint16(b[k+2:]))
				}
				rec := bytes.Clone(b[k : k+n])
				switch symAttr(rec[1]) {
				case 1:
					le.PutUint32(rec[4:], mapSym(le.Uint32(rec[4:])))
				case 2:
					for w := 4; w+4 <= len(rec); w += 4 {
						le.PutUint32(rec[w:], mapSym(le.Uint32(rec[w:])))
					}
				}
				recs = append(recs, rec)
				k += n
			}
			for x, y := 0, len(recs)-1; x < y; x, y = x+1, y-1 {
				recs[x], recs[y] = recs[y], recs[x]
			}
			copy(b, bytes.Join(recs, nil))
		case s.typ == 0x70000001: // callgraph
			group := uint32(0)
			for k := 0; k+8 <= len(b); k += 8 {
				x, y := le.Uint32(b[k:]), le.Uint32(b[k+4:])
				if x == 0 && y >= 0xfffffffc {
					group = y
					continue
				}
				le.PutUint32(b[k:], mapSym(x))
				if group == 0xffffffff {
					le.PutUint32(b[k+4:], mapSym(y))
				}
			}
		case s.typ == 0x70000002: // prototype: remap and reverse
			var ents [][]byte
			for k := 0; k+8 <= len(b); k += 8 {
				ent := bytes.Clone(b[k : k+8])
				le.PutUint32(ent, mapSym(le.Uint32(ent)))
				ents = append([][]byte{ent}, ents...)
			}
			copy(b, bytes.Join(ents, nil))
		}
	}
	le.PutUint16(out[62:], uint16(secNew[e.shstrndx]))
	return out
}

// TestDebugSections checks that the debug sections of a -g link (nvlink's
// output for the corpus case debug-g-multi-file-dead-functions) are
// compared in full: their bytes as hex, their relocations one per line
// with symbol and addend, and that a changed byte or relocation in them
// shows in the normal form.
func TestDebugSections(t *testing.T) {
	data, err := os.ReadFile("../corpus/cases/debug-g-multi-file-dead-functions/expected.cubin")
	if err != nil {
		t.Skip("SKIP: no debug corpus case (run go run ./tests/corpus/regen debug-g-multi-file-dead-functions)")
	}
	orig := mustNormalize(t, data)
	details := sectionDetails(orig)
	for _, name := range []string{".debug_frame", ".debug_line", ".debug_info", ".debug_abbrev", ".nv_debug_line_sass", ".nv_debug_info_reg_sass"} {
		sec := rawSections(t, data).byName(t, name)
		if got, want := len(details[name]), (sec.size+31)/32; got != want {
			t.Errorf("%s: %d hex lines in the normal form, want %d for %d bytes", name, got, want, sec.size)
		}
	}
	// Relocations of debug sections name the function and its offset.
	for name, want := range map[string]string{
		".rela.debug_info":        " R_CUDA_64 _Z6a_deadi +0x0",
		".rel.debug_frame":        " R_CUDA_64 _Z6b_deadi",
		".rel.debug_line":         " R_CUDA_64 _Z6d_deadi",
		".rel.nv_debug_line_sass": " R_CUDA_64 _Z8a_helperi",
	} {
		found := false
		for _, l := range details[name] {
			found = found || strings.HasSuffix(l, want)
		}
		if !found {
			t.Errorf("%s: no relocation line ending in %q in %q", name, want, details[name])
		}
	}

	sh := rawSections(t, data)
	line := sh.byName(t, ".debug_line")
	mod := bytes.Clone(data)
	mod[line.off+0x10] ^= 0x01
	if d := Diff(orig, mustNormalize(t, mod)); !strings.Contains(d, "@@ section .debug_line ") {
		t.Errorf("a changed .debug_line byte is invisible or misplaced:\n%s", d)
	}
	rela := sh.byName(t, ".rela.debug_info")
	mod = bytes.Clone(data)
	binary.LittleEndian.PutUint64(mod[rela.off+16:], binary.LittleEndian.Uint64(mod[rela.off+16:])+8)
	if d := Diff(orig, mustNormalize(t, mod)); !strings.Contains(d, "@@ section .rela.debug_info ") {
		t.Errorf("a changed .rela.debug_info addend is invisible:\n%s", d)
	}
}
