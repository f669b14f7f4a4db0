package linker

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/cudalink/cudalink/linker/cubin"
)

// TestBank3RebuildLayout checks the order and places of the rebuild of
// bank 3 (nvlinkListSortFunc with bank3Less, then bank3Layout) against
// what nvlink 12.4 wrote for one-file programs (nvcc -dc -arch=sm_80,
// linked with a second file's 0xa100-byte pad and -kernels-used naming the
// first file's kernel, which uses every variable listed; the statics and
// weak ones without pruning): the variables in the order of the symbol
// table, each "name:size" (a trailing "s" for a static one, "w" for one
// first seen weak), and the output's layout, "name@offset" by offset.
func TestBank3RebuildLayout(t *testing.T) {
	for _, tc := range []struct {
		in, want    string
		size, align uint64
	}{
		// Equal keys keep no order of the inputs': nvlink's sort.
		{"r1:16 r2:16 r3:16 r4:16 r5:16 r6:16 big:24576", "r3@0x0 r1@0x10 r5@0x20 r2@0x30 r6@0x40 r4@0x50 big@0x60", 0x6060, 8},
		{"zz:16 aa:16 mm:16 kk:16 big:24576", "zz@0x0 mm@0x10 kk@0x20 aa@0x30 big@0x40", 0x6040, 8},
		{"b24:24 b16:16 b10:10 v16:16 c8:8 big:24576", "c8@0x0 b10@0x8 b16@0x18 v16@0x28 b24@0x38 big@0x50", 0x6050, 8},
		{"qa:16 qb:16 qc:16 qd:16 qe:16 qf:16 qg:16 ia:4 ib:4 la:8 lb:8 big:24576",
			"lb@0x0 la@0x8 qc@0x10 qg@0x20 qa@0x30 qe@0x40 qd@0x50 qb@0x60 qf@0x70 big@0x80 ib@0x6080 ia@0x6084", 0x6088, 8},
		// Sizes 8 and up ascending at multiples of 8, then the smaller
		// ones descending at multiples of their size.
		{"x1:4 x2:8 x3:12 x4:16 x5:20 x6:24 big:24576", "x2@0x0 x3@0x8 x4@0x18 x5@0x28 x6@0x40 big@0x58 x1@0x6058", 0x605c, 8},
		{"s1:1 s2:2 s3:3 s5:5 s7:7 big:24576", "big@0x0 s7@0x6001 s5@0x6009 s3@0x600f s2@0x6012 s1@0x6014", 0x6015, 8},
		{"t1:2 t2:4 t3:6 big:24576", "big@0x0 t3@0x6000 t2@0x6008 t1@0x600c", 0x600e, 8},
		// One 5-byte array (-variables-used): alignment 5.
		{"g5:5", "g5@0x0", 5, 5},
		// Statics (no pruning) last, by size; the globals' alignment.
		{"a:32753s b4:16s b:32753s", "b4@0x0 b@0x10 a@0x8008", 0xfff9, 1},
		// Inline variables of two files (w) sort as statics (the case
		// cuda12-constant-bank3-rebuild-weak-and-statics-sm80).
		{"wvv:6w wll:16w c1:4s h1:8s c3:3s h3:6s c5:2s h5:4s c7:1s h7:2s big:65216 q0:16 c0:1 h0:2 q1:16 q2:16 c2:7 h2:14 q3:16 q4:16 c4:6 h4:12 q5:16 q6:16 c6:5 h6:10 q7:16",
			"h6@0x0 h4@0x10 h2@0x20 q7@0x30 q3@0x40 q5@0x50 q1@0x60 q4@0x70 q0@0x80 q6@0x90 q2@0xa0 big@0xb0 c2@0xff72 c4@0xff7e c6@0xff87 h0@0xff8c c0@0xff8e c7@0xff8f c5@0xff90 h7@0xff92 c3@0xff96 c1@0xff9c h5@0xffa0 wvv@0xffa8 h3@0xffae h1@0xffb8 wll@0xffc0",
			0xffd0, 8},
	} {
		var syms []*symbol
		for _, f := range strings.Fields(tc.in) {
			name, size, _ := strings.Cut(f, ":")
			sym := &symbol{name: name, local: strings.HasSuffix(size, "s"), firstBind: cubin.STB_GLOBAL}
			if strings.HasSuffix(size, "w") {
				sym.firstBind = cubin.STB_WEAK
			}
			fmt.Sscan(strings.TrimRight(size, "sw"), &sym.size)
			syms = append(syms, sym)
		}
		sorted := nvlinkListSortFunc(slices.Clone(syms), bank3Less)
		offs, size, align := bank3Layout(sorted)
		var got []string
		for i, sym := range sorted {
			got = append(got, fmt.Sprintf("%s@%#x", sym.name, offs[i]))
		}
		if g := strings.Join(got, " "); g != tc.want || size != tc.size || align != tc.align {
			t.Errorf("%s:\ngot  %s, size %#x, alignment %d\nwant %s, size %#x, alignment %d", tc.in, g, size, align, tc.want, tc.size, tc.align)
		}
	}
}
