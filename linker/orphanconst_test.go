package linker

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOrphanConstantOverlaps links the corpus's cubins whose bank-2
// sections are tied to no function (sh_info 0), with their four
// .const_opt. symbols moved and resized, and checks the outcome nvlink 11.8
// had for each layout (recorded by running it on the same edited files):
// overlapping bytes must be identical, a symbol starting inside another
// must end within it, and some overlaps nvlink never checks. a and c hold
// the same jump table, b another one of the same size (60 bytes).
func TestOrphanConstantOverlaps(t *testing.T) {
	const corpus = "../tests/corpus/cases/"
	files := map[byte]string{
		'a': corpus + "bank2-orphan-identical-overlap/a_orphan.cubin",
		'c': corpus + "bank2-orphan-identical-overlap/c_orphan.cubin",
		'b': corpus + "error-bank2-orphan-non-identical/b_orphan.cubin",
	}
	type layout [4][2]uint64 // (st_value, st_size) of the .const_opt. symbols, in symbol-table order
	normal := layout{{0, 16}, {32, 16}, {16, 16}, {48, 12}}
	for _, tc := range []struct {
		files string
		lay   []layout
		want  string // "" (linked), or nvlink's error message
	}{
		{"ac", []layout{normal, normal}, ""}, // the corpus case
		{"ab", []layout{normal, normal}, "overlapping non-identical data"},
		{"ab", []layout{normal, {{0, 0}, {32, 0}, {16, 0}, {48, 0}}}, ""},                                                             // empty symbols: nothing to compare
		{"ac", []layout{normal, {{0, 32}, {32, 16}, {16, 16}, {48, 12}}}, ""},                                                         // same start, longer: replaces, swallows the next
		{"ac", []layout{normal, {{0, 16}, {32, 16}, {8, 24}, {48, 12}}}, "overlapping data spans too much"},                           // starts inside, runs past
		{"ac", []layout{{{8, 8}, {32, 16}, {16, 16}, {48, 12}}, normal}, ""},                                                          // starts before, same end
		{"ab", []layout{{{8, 8}, {32, 0}, {16, 0}, {48, 0}}, {{0, 16}, {32, 0}, {16, 0}, {48, 0}}}, "overlapping non-identical data"}, // ... other bytes
		{"ab", []layout{{{0, 8}, {32, 0}, {16, 0}, {48, 0}}, {{0, 16}, {32, 0}, {16, 0}, {48, 0}}}, "overlapping non-identical data"}, // same start, longer
		{"ab", []layout{{{0, 16}, {32, 0}, {16, 0}, {48, 0}}, {{0, 8}, {32, 0}, {16, 0}, {48, 0}}}, "overlapping non-identical data"}, // same start, shorter
		{"ab", []layout{{{16, 16}, {32, 16}, {0, 0}, {48, 12}}, {{4, 40}, {0, 4}, {0, 0}, {0, 0}}}, ""},                               // starts before a node, ends inside: unchecked
		{"ac", []layout{{{0, 16}, {16, 8}, {16, 0}, {48, 0}}, {{0, 24}, {32, 0}, {16, 0}, {48, 0}}}, "overlapping data spans too much"},
		// An empty symbol inside another goes before it, and hides it from
		// the symbols after it.
		{"ac", []layout{{{24, 20}, {28, 4}, {8, 0}, {0, 0}}, {{56, 0}, {40, 0}, {28, 32}, {52, 8}}}, ""},
		{"a", []layout{{{0, 24}, {32, 16}, {16, 16}, {48, 12}}}, "overlapping data spans too much"}, // one file's own symbols
	} {
		dir := t.TempDir()
		var inputs []Input
		for i, f := range []byte(tc.files) {
			data, err := os.ReadFile(files[f])
			if err != nil {
				t.Fatal(err)
			}
			setConstOptSymbols(t, data, tc.lay[i])
			path := filepath.Join(dir, string(f)+".cubin")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			inputs = append(inputs, Input{Path: path})
		}
		var stderr bytes.Buffer
		cfg := &Config{Arch: 80, Output: filepath.Join(dir, "out.cubin"), Inputs: inputs, Stdout: &stderr, Stderr: &stderr}
		err := Run(cfg)
		_, statErr := os.Stat(cfg.Output)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s %v: %v\n%s", tc.files, tc.lay, err, stderr.String())
		case tc.want != "" && (err == nil || !strings.Contains(stderr.String(), tc.want)):
			t.Errorf("%s %v: err %v, want nvlink's %q\n%s", tc.files, tc.lay, err, tc.want, stderr.String())
		case tc.want != "" && statErr == nil:
			t.Errorf("%s %v: failed link left an output", tc.files, tc.lay)
		}
	}
}

// setConstOptSymbols rewrites st_value and st_size of a cubin's
// .const_opt. symbols, in symbol-table order.
func setConstOptSymbols(t *testing.T, d []byte, lay [4][2]uint64) {
	le := binary.LittleEndian
	shoff, shentsize, shnum := le.Uint64(d[0x28:]), uint64(le.Uint16(d[0x3a:])), uint64(le.Uint16(d[0x3c:]))
	hdr := func(i uint64) []byte { return d[shoff+i*shentsize:] }
	n := 0
	for i := uint64(1); i < shnum; i++ {
		if le.Uint32(hdr(i)[4:]) != 2 { // SHT_SYMTAB
			continue
		}
		off, size := le.Uint64(hdr(i)[0x18:]), le.Uint64(hdr(i)[0x20:])
		strs := le.Uint64(hdr(uint64(le.Uint32(hdr(i)[0x28:])))[0x18:])
		for e := off; e+24 <= off+size; e += 24 {
			name := d[strs+uint64(le.Uint32(d[e:])):]
			name = name[:bytes.IndexByte(name, 0)]
			if bytes.Contains(name, []byte(".const_opt.")) {
				le.PutUint64(d[e+8:], lay[n][0])
				le.PutUint64(d[e+16:], lay[n][1])
				n++
			}
		}
	}
	if n != 4 {
		t.Fatalf("%d .const_opt. symbols, want 4", n)
	}
}
