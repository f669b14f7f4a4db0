// Package robustness holds the mutation sweep: structure-blind and
// structure-aware corruptions of real corpus inputs, each linked by the
// command-line entry point, which must succeed or fail cleanly.
package robustness

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"testing"

	"github.com/cudalink/cudalink/linker"
	"github.com/cudalink/cudalink/linker/cli"
	"github.com/cudalink/cudalink/linker/cubin"
)

// corpusInput is one input file of the corpus (not nvlink's output) and
// the architecture to link it for.
type corpusInput struct {
	data []byte
	sm   int
}

// corpusInputs returns the corpus's cubins, linked for the architecture
// of their ELF header, and its host objects (nvcc -dc), linked for the
// architecture their case names: each trial links its input for an
// architecture it holds code for, so the corruption reaches past the
// architecture check (two thirds of the corpus is not sm_80).
func corpusInputs(t *testing.T) map[string]corpusInput {
	t.Helper()
	cubins, err := filepath.Glob("../corpus/cases/*/*.cubin")
	if err != nil || len(cubins) == 0 {
		t.Fatalf("no corpus cubins found: %v", err)
	}
	objects, err := filepath.Glob("../corpus/cases/*/*.o")
	if err != nil || len(objects) == 0 {
		t.Fatalf("no corpus host objects found: %v", err)
	}
	inputs := map[string]corpusInput{}
	for _, p := range append(cubins, objects...) {
		if filepath.Base(p) == "expected.cubin" {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) < 64 || string(b[:4]) != "\x7fELF" {
			continue
		}
		in := corpusInput{data: b}
		if strings.HasSuffix(p, ".cubin") {
			if !cubin.IsCubin(b) {
				// A bad input named .cubin on purpose (an x86-64
				// object: error-host-object-named-cubin-sm80).
				continue
			}
			h, err := cubin.ParseHeader(p, b)
			if err != nil {
				t.Fatal(err)
			}
			in.sm = h.SM()
		} else if in.sm = caseArch(t, filepath.Dir(p)); in.sm == 0 {
			continue // a case linking for a virtual architecture
		}
		inputs[p] = in
	}
	return inputs
}

// caseArch reads the target architecture of a corpus case (its case.txt's
// "arch: sm_NN" line), 0 for a case that links for a virtual one.
func caseArch(t *testing.T, dir string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "case.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		var sm int
		if _, err := fmt.Sscanf(line, "arch: sm_%d", &sm); err == nil {
			return sm
		}
	}
	return 0
}

// mutate applies one seeded corruption: a truncation, random bytes, or a
// rewritten field of the ELF header, a section header, a symbol or a
// relocation.
func mutate(rng *rand.Rand, b []byte) ([]byte, string) {
	b = append([]byte(nil), b...)
	le := binary.LittleEndian
	shoff := le.Uint64(b[0x28:])
	shnum := uint64(le.Uint16(b[0x3c:]))
	randSection := func() uint64 { return shoff + uint64(rng.Intn(int(max(shnum, 1))))*64 }
	values := []uint64{0, 1, 0xff, 0xffff, 0xffffffff, 1 << 31, 1<<63 - 1, 1 << 63, uint64(len(b)), uint64(len(b)) - 1}
	put := func(off uint64, width int) string {
		if off+uint64(width) > uint64(len(b)) {
			return "out-of-file field"
		}
		v := values[rng.Intn(len(values))]
		if rng.Intn(3) == 0 {
			v = rng.Uint64()
		}
		switch width {
		case 2:
			le.PutUint16(b[off:], uint16(v))
		case 4:
			le.PutUint32(b[off:], uint32(v))
		default:
			le.PutUint64(b[off:], v)
		}
		return fmt.Sprintf("field at 0x%x = 0x%x", off, v)
	}
	switch rng.Intn(6) {
	case 0:
		n := rng.Intn(len(b))
		return b[:n], fmt.Sprintf("truncated to %d bytes", n)
	case 1:
		fields := []struct {
			off   uint64
			width int
		}{{0x20, 8}, {0x28, 8}, {0x30, 4}, {0x3a, 2}, {0x3c, 2}, {0x3e, 2}}
		f := fields[rng.Intn(len(fields))]
		return b, "ELF header " + put(f.off, f.width)
	case 2, 3:
		offs := []struct {
			off   uint64
			width int
		}{{4, 4}, {8, 8}, {0x18, 8}, {0x20, 8}, {0x28, 4}, {0x2c, 4}, {0x30, 8}, {0x38, 8}}
		f := offs[rng.Intn(len(offs))]
		return b, "section header " + put(randSection()+f.off, f.width)
	case 4:
		// A symbol or relocation entry: somewhere in a section's contents.
		sh := randSection()
		if sh+64 > uint64(len(b)) {
			return b, "no section"
		}
		off, size := le.Uint64(b[sh+0x18:]), le.Uint64(b[sh+0x20:])
		if size < 8 || off+size > uint64(len(b)) {
			return b, "empty section"
		}
		at := off + uint64(rng.Intn(int(size/8)))*8
		return b, "section contents " + put(at, []int{2, 4, 8}[rng.Intn(3)])
	default:
		n := 1 + rng.Intn(16)
		for i := 0; i < n; i++ {
			b[rng.Intn(len(b))] = byte(rng.Intn(256))
		}
		return b, fmt.Sprintf("%d random bytes", n)
	}
}

// siblings returns the other inputs of src's corpus case linked for the
// same architecture, in name order.
func siblings(src string, names []string, inputs map[string]corpusInput) []string {
	var out []string
	for _, p := range names {
		if p != src && filepath.Dir(p) == filepath.Dir(src) && inputs[p].sm == inputs[src].sm {
			out = append(out, p)
		}
	}
	return out
}

// maxOutput bounds what one trial of the sweep may write.
const maxOutput = 64 << 20

// TestSectionContentsBeyondSize links a cubin the sweep made: a kernel's
// .nv.shared section whose type was changed to one with file contents. The
// shared-memory layout gives the output section size 0 while its 5 bytes
// of contents remain; the writer once padded by the negative difference,
// writing tens of gigabytes. The link must fail, name the section and
// leave no file.
func TestSectionContentsBeyondSize(t *testing.T) {
	limitFileSize(t, maxOutput)
	out := filepath.Join(t.TempDir(), "out.cubin")
	var stdout, stderr bytes.Buffer
	status := cli.Run([]string{"-arch=sm_80", "-o", out, "testdata/shared-section-with-contents.cubin"}, &stdout, &stderr)
	if status == 0 {
		t.Fatalf("linked; want an error")
	}
	msg := stderr.String()
	for _, want := range []string{"error", ".nv.shared._Z16k_dyn_and_staticPf", "shared-section-with-contents.cubin", "do not fit the section's size"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q does not contain %q", msg, want)
		}
	}
	entries, _ := os.ReadDir(filepath.Dir(out))
	if len(entries) != 0 {
		t.Errorf("left %s behind", entries[0].Name())
	}
}

// TestSweepFindings links cubins the sweep made, each reduced to the
// fields that matter, beside the intact inputs of its corpus case. Each
// panicked the link once; each must now fail with exit 1, a message naming
// the file, the place and what is wrong, and no output, or link.
//   - seed 103: the name of a kernel's .rel.text section points at
//     ".nv.callgraph". The output relocation section took that name first,
//     the linker's .nv.callgraph then found a relocation section under it
//     and the call graph's writer a nil section. (nvlink, which goes by
//     the section's type, links it.)
//   - seed 132: the null section (index 0) has a type and a size of 2^63
//     and more: it was merged as data, and the layout allocated its size.
//     (nvlink ignores it.)
//   - seed 128: a kernel's .nv.constant0 section has the type of resolved
//     relocations (0x70000003). It was taken for one of the kernel's own
//     sections, and a partial link made it a relocation section with no
//     target. It is now left out as relocation sections are, and the
//     partial link succeeds (the full link reports the case's undefined
//     function); want is then empty and the status 0.
func TestSweepFindings(t *testing.T) {
	for _, c := range []struct {
		name, arch string
		peers      []string // of the corpus case, after the mutated input
		relocating bool     // -r
		want       string   // in the error; "" for a link that succeeds
	}{
		{"rel-section-named-callgraph.cubin", "sm_80",
			[]string{"text-inputs-with-other-extensions-ignored/b.cubin"},
			false, "malformed cubin at offset 0x450: .nv.callgraph: a relocation section whose name does not start with .rel"},
		{"null-section-with-type-and-size.cubin", "sm_75",
			[]string{"error-maxrregcount-weak-copy-place-callgraph-dump-sm75/k.cubin", "error-maxrregcount-weak-copy-place-callgraph-dump-sm75/w1.cubin", "error-maxrregcount-weak-copy-place-callgraph-dump-sm75/w2.cubin"},
			false, "malformed cubin at offset 0xc04: section 0: type 0x73000000, want SHT_NULL"},
		{"function-section-with-resolved-rela-type.cubin", "sm_80",
			[]string{"error-undefined-device-function/b.cubin"}, true, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out.cubin")
			args := []string{"-arch=" + c.arch, "-o", out, "testdata/" + c.name}
			for _, p := range c.peers {
				args = append(args, "../corpus/cases/"+p)
			}
			if c.relocating {
				args = append(args, "-r")
			}
			var stdout, stderr bytes.Buffer
			status := cli.Run(args, &stdout, &stderr)
			if c.want == "" {
				if _, err := os.Stat(out); status != 0 || err != nil {
					t.Fatalf("exit %d (%v), want 0 and an output; stderr: %q", status, err, stderr.String())
				}
				return
			}
			if status != 1 {
				t.Fatalf("exit %d, want 1; stderr: %q", status, stderr.String())
			}
			for _, want := range []string{"error", c.name, c.want} {
				if !strings.Contains(stderr.String(), want) {
					t.Errorf("message %q does not contain %q", stderr.String(), want)
				}
			}
			if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) != 0 {
				t.Errorf("left %s behind", entries[0].Name())
			}
		})
	}
}

// TestMutationSweep links thousands of corrupted inputs (the corpus's
// cubins and host objects), alone and next to the intact other inputs of
// their case, with a fixed seed so any failure is reproducible
// (CUDALINK_SWEEP_SEED picks another). Each
// trial must either succeed or fail with a non-zero exit, a message and no
// output file (nor any temporary file) left behind; a panic fails the test.
func TestMutationSweep(t *testing.T) {
	inputs := corpusInputs(t)
	var names []string
	for p := range inputs {
		names = append(names, p)
	}
	// Map iteration order is random; sort for reproducibility.
	sort.Strings(names)
	sameSM := map[int][]string{}
	for _, p := range names {
		sameSM[inputs[p].sm] = append(sameSM[inputs[p].sm], p)
	}
	trials := 3000
	if testing.Short() {
		trials = 300
	}
	seed := int64(20261122)
	if v := os.Getenv("CUDALINK_SWEEP_SEED"); v != "" {
		// Off CI, other seeds explore further; a failure names its seed.
		fmt.Sscan(v, &seed)
	}
	t.Logf("seed %d", seed)
	// No corpus output comes near 64 MiB; a trial that writes that much is
	// a runaway (a size computed from corrupt values), reported below.
	limitFileSize(t, maxOutput)
	rng := rand.New(rand.NewSource(seed))
	dir := t.TempDir()
	var ok, failed int
	for trial := 0; trial < trials; trial++ {
		src := names[rng.Intn(len(names))]
		data, how := mutate(rng, inputs[src].data)
		in := filepath.Join(dir, "mutated"+filepath.Ext(src))
		if err := os.WriteFile(in, data, 0o644); err != nil {
			t.Fatal(err)
		}
		outDir := filepath.Join(dir, fmt.Sprintf("out%d", trial))
		if err := os.Mkdir(outDir, 0o755); err != nil {
			t.Fatal(err)
		}
		arch := fmt.Sprintf("-arch=sm_%d", inputs[src].sm)
		args := []string{arch, "-o", filepath.Join(outDir, "out.cubin"), in}
		if trial%2 == 1 {
			// Beside an intact input, so resolution and merging see it too.
			// The other inputs of its corpus case where it has some
			// (they define what it references, so more trials get through
			// resolution to layout, relocation and the writer), else any.
			if peers := siblings(src, names, inputs); len(peers) > 0 {
				args = append(args, peers...)
			} else {
				peers := sameSM[inputs[src].sm]
				args = append(args, peers[rng.Intn(len(peers))])
			}
		}
		if trial%4 >= 2 {
			args = append(args, "-r") // a partial link reads the same things differently
		}
		var stdout, stderr bytes.Buffer
		status := func() (status int) {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("trial %d (%s, %s): panic: %v\n%s", trial, src, how, r, debug.Stack())
				}
			}()
			ctx := context.Background()
			if trial%8 >= 4 {
				// Read as cmd/cudalink reads a small link's cubins: into
				// one buffer, with what only parsing reads given back.
				ctx = linker.WithLastLinkReads(ctx)
			}
			return cli.RunContext(ctx, args, &stdout, &stderr, nil)
		}()
		if status == 3 {
			// cli turns a panic of the link into this status and a line.
			t.Fatalf("trial %d (%s, %s): panic (internal error): %s", trial, src, how, stderr.String())
		}
		entries, _ := os.ReadDir(outDir)
		if strings.Contains(stderr.String(), "file too large") {
			t.Errorf("trial %d (%s, %s): the output grew past %d bytes; stderr: %q", trial, src, how, maxOutput, stderr.String())
		}
		switch {
		case status == 0:
			ok++
			if len(entries) != 1 {
				t.Errorf("trial %d (%s, %s): success but %d files in the output directory", trial, src, how, len(entries))
			}
		default:
			failed++
			if len(entries) != 0 {
				t.Errorf("trial %d (%s, %s): failed but left %v", trial, src, how, entries[0].Name())
			}
			if !strings.Contains(stderr.String(), "error") {
				t.Errorf("trial %d (%s, %s): exit %d without an error message; stderr: %q", trial, src, how, status, stderr.String())
			}
		}
		os.RemoveAll(outDir)
	}
	t.Logf("%d trials: %d linked, %d failed cleanly, 0 panics", trials, ok, failed)
	if failed == 0 {
		t.Error("no trial failed: the mutations are not reaching the parser")
	}
}
