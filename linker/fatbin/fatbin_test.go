package fatbin

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func mustParse(t *testing.T, name string) []Entry {
	t.Helper()
	entries, err := Parse(name, readTestdata(t, name))
	if err != nil {
		t.Fatalf("Parse(%s): %v", name, err)
	}
	return entries
}

func mustData(t *testing.T, e Entry) []byte {
	t.Helper()
	data, err := e.Data()
	if err != nil {
		t.Fatalf("%v: Data: %v", e, err)
	}
	return data
}

// TestParseSingleCubin: fatbinary -64 with one cubin gives one uncompressed
// 64-bit ELF entry whose payload is the cubin itself.
func TestParseSingleCubin(t *testing.T) {
	entries := mustParse(t, "one.fatbin")
	if len(entries) != 1 {
		t.Fatalf("got %d entries, want 1", len(entries))
	}
	e := entries[0]
	if e.Kind != KindELF || e.SM != 80 || e.Major != 1 || e.Minor != 7 ||
		e.Flags != Flag64Bit|FlagHostLinux || e.Name != "" || e.Options != "" ||
		e.Compression != CompressionNone || e.Off != HeaderSize || e.HeaderSize != EntryHeaderSize {
		t.Errorf("entry = %+v", e)
	}
	if got, want := mustData(t, e), readTestdata(t, "k_sm80.cubin"); !bytes.Equal(got, want) {
		t.Errorf("payload differs from k_sm80.cubin (%d vs %d bytes)", len(got), len(want))
	}
	if got := e.String(); got != "ELF sm_80 [1,7] 64bit|linux" {
		t.Errorf("String() = %q", got)
	}
}

// TestParseIdentAndOptions: --ident goes in every entry header, --cmdline in
// PTX entry headers only; PTX carries its ISA version.
func TestParseIdentAndOptions(t *testing.T) {
	entries := mustParse(t, "ident.fatbin")
	if len(entries) != 2 {
		t.Fatalf("got %d entries, want 2", len(entries))
	}
	elf, ptx := entries[0], entries[1]
	if elf.Kind != KindELF || elf.SM != 70 || elf.Name != "k.cu" || elf.Options != "" || elf.HeaderSize != 72 {
		t.Errorf("ELF entry = %+v", elf)
	}
	if ptx.Kind != KindPTX || ptx.SM != 80 || ptx.Major != 7 || ptx.Minor != 8 || ptx.Name != "k.cu" ||
		ptx.Options != "--compile-only -O3" || ptx.Compression != CompressionNone {
		t.Errorf("PTX entry = %+v", ptx)
	}
	if text := mustData(t, ptx); !bytes.Contains(text, []byte(".target sm_80")) {
		t.Errorf("PTX payload does not look like PTX: %.60q", text)
	}
	if got, want := mustData(t, elf), readTestdata(t, "k_sm70.cubin"); !bytes.Equal(got, want) {
		t.Error("ELF payload differs from k_sm70.cubin")
	}
}

// TestDecompressLZ4: fatbinary compresses PTX by default, cubins with
// --compress-all and debug cubins with -g; all are LZ4 blocks that must
// give back the original bytes.
func TestDecompressLZ4(t *testing.T) {
	cubin := readTestdata(t, "k_sm80.cubin")
	// The PTX exactly as fatbinary stores it (comments blanked, NUL
	// added), from the uncompressed container, minus the 8-byte padding.
	plainPTX := mustData(t, mustParse(t, "ident.fatbin")[1])

	check := func(file string, e Entry, kind Kind, wantFlags Flags) []byte {
		t.Helper()
		if e.Kind != kind || e.Compression != CompressionLZ4 || e.Flags != wantFlags {
			t.Errorf("%s: entry = %+v", file, e)
		}
		data := mustData(t, e)
		if uint64(len(data)) != e.Size {
			t.Errorf("%s: %d bytes, header says %d", file, len(data), e.Size)
		}
		return data
	}
	lz4Flags := Flag64Bit | FlagHostLinux | FlagCompressedLZ4

	def := mustParse(t, "default.fatbin")
	if def[0].Compression != CompressionNone {
		t.Errorf("default.fatbin: cubin compressed by default: %+v", def[0])
	}
	ptx := check("default.fatbin", def[1], KindPTX, lz4Flags)
	if !bytes.Equal(ptx, plainPTX[:len(ptx)]) || !allZero(plainPTX[len(ptx):]) {
		t.Error("default.fatbin: decompressed PTX differs from the uncompressed copy")
	}

	all := mustParse(t, "all.fatbin")
	if got := check("all.fatbin", all[0], KindELF, lz4Flags); !bytes.Equal(got, cubin) {
		t.Error("all.fatbin: decompressed cubin differs from k_sm80.cubin")
	}
	check("all.fatbin", all[1], KindPTX, lz4Flags)

	dbg := mustParse(t, "debug.fatbin")
	if got := check("debug.fatbin", dbg[0], KindELF, lz4Flags|FlagDebug); !bytes.Equal(got, cubin) {
		t.Error("debug.fatbin: decompressed cubin differs from k_sm80.cubin")
	}
}

// TestParseRelfatbin: the __nv_relfatbin section of an nvcc -dc object holds
// the compressed cubin (the same bytes as nvcc -cubin -rdc=true) and the PTX.
func TestParseRelfatbin(t *testing.T) {
	entries := mustParse(t, "relfatbin.bin")
	if len(entries) != 2 || entries[0].Kind != KindELF || entries[1].Kind != KindPTX {
		t.Fatalf("entries = %v", entries)
	}
	if entries[0].Compression != CompressionLZ4 || entries[1].Compression != CompressionLZ4 {
		t.Errorf("nvcc -dc entries not LZ4-compressed: %v", entries)
	}
	if got, want := mustData(t, entries[0]), readTestdata(t, "k_sm80.cubin"); !bytes.Equal(got, want) {
		t.Error("embedded cubin differs from nvcc -cubin -rdc=true output")
	}
	if entries[1].Options != "--compile-only " {
		t.Errorf("PTX options = %q", entries[1].Options)
	}
	if !HasPTX(entries) {
		t.Error("HasPTX = false")
	}
}

// TestBackToBack: containers concatenated (as ld -r does with sections) are
// all read; zero padding after the last is ignored; anything else is not.
func TestBackToBack(t *testing.T) {
	one, two := readTestdata(t, "one.fatbin"), readTestdata(t, "two.fatbin")
	cat := append(append(append([]byte{}, one...), two...), make([]byte, 24)...)
	entries, err := Parse("cat", cat)
	if err != nil {
		t.Fatal(err)
	}
	var sms []int
	for _, e := range entries {
		sms = append(sms, e.SM)
	}
	if len(sms) != 3 || sms[0] != 80 || sms[1] != 80 || sms[2] != 86 {
		t.Errorf("SMs = %v, want [80 80 86]", sms)
	}
	if entries[1].Off != uint64(len(one))+HeaderSize {
		t.Errorf("second container's entry at 0x%x", entries[1].Off)
	}
	// First: the first container alone, as nvlink reads __nv_relfatbin.
	if got := First(cat); !bytes.Equal(got, one) {
		t.Errorf("First: %d bytes, want the first container's %d", len(got), len(one))
	}
	if got := First(cat[:len(one)-1]); len(got) != len(one)-1 {
		t.Errorf("First of a truncated container: %d bytes, want the input (%d) for Parse to refuse", len(got), len(one)-1)
	}
	cat[len(cat)-3] = 1
	if _, err := Parse("cat", cat); !isFormatError(err, "cat") {
		t.Errorf("trailing garbage: got %v, want a FormatError", err)
	}
}

// TestSelect: nvlink's choice of cubin for -arch: exact SM, else the same
// major with the highest lower minor, else none; the integrated sm_72 and
// sm_87 take no other image (corpus: tegra-host-objects-compile-ptx*).
func TestSelect(t *testing.T) {
	entries := mustParse(t, "two.fatbin") // sm_80, sm_86
	entries = append(entries, mustParse(t, "ident.fatbin")...)
	for _, tc := range []struct{ arch, want int }{
		{80, 80}, {86, 86}, {87, 0}, {89, 86}, {70, 70}, {75, 70}, {72, 0},
		{60, 0}, {90, 0}, {52, 0},
	} {
		e, ok := Select(entries, tc.arch)
		switch {
		case tc.want == 0 && ok:
			t.Errorf("Select(sm_%d) = %v, want none", tc.arch, e)
		case tc.want != 0 && (!ok || e.SM != tc.want || e.Kind != KindELF):
			t.Errorf("Select(sm_%d) = %v, %v; want ELF sm_%d", tc.arch, e, ok, tc.want)
		}
	}
	if e, ok := SelectPTX(entries, 86); !ok || e.SM != 80 {
		t.Errorf("SelectPTX(86) = %v, %v", e, ok)
	}
	if _, ok := SelectPTX(entries, 75); ok {
		t.Error("SelectPTX(75) chose compute_80 PTX")
	}
	if HasPTX(mustParse(t, "two.fatbin")) {
		t.Error("HasPTX(two.fatbin) = true")
	}
}

// TestZstd: CUDA ≥ 12.4 containers (not producible with 11.8) store zstd
// frames; they are recognised by flag 0x8000 or by the frame magic.
func TestZstd(t *testing.T) {
	cubin := readTestdata(t, "k_sm80.cubin")
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	frame := enc.EncodeAll(cubin, nil)
	for _, flag := range []Flags{FlagCompressedZstd, FlagCompressedLZ4} {
		fb := compressedContainer(frame, uint64(len(cubin)), flag)
		entries, err := Parse("zstd.fatbin", fb)
		if err != nil {
			t.Fatal(err)
		}
		if entries[0].Compression != CompressionZstd {
			t.Errorf("flag %v: compression %v", flag, entries[0].Compression)
		}
		if got := mustData(t, entries[0]); !bytes.Equal(got, cubin) {
			t.Errorf("flag %v: zstd payload differs", flag)
		}
		// A declared size that does not match is an error, not a
		// truncated or padded result.
		for _, size := range []uint64{uint64(len(cubin)) - 1, uint64(len(cubin)) + 1} {
			bad := compressedContainer(frame, size, flag)
			entries, err := Parse("zstd.fatbin", bad)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := entries[0].Data(); !isFormatError(err, "zstd.fatbin") {
				t.Errorf("declared %d: got %v, want a FormatError", size, err)
			}
		}
	}
}

// compressedContainer builds a one-entry container around an already
// compressed payload.
func compressedContainer(payload []byte, size uint64, flag Flags) []byte {
	le := binary.LittleEndian
	ent := make([]byte, EntryHeaderSize)
	le.PutUint16(ent[0:], uint16(KindELF))
	le.PutUint16(ent[2:], 0x0101)
	le.PutUint32(ent[4:], EntryHeaderSize)
	le.PutUint64(ent[8:], align8(uint64(len(payload))))
	le.PutUint32(ent[0x10:], uint32(len(payload)))
	le.PutUint16(ent[0x18:], 7)
	le.PutUint16(ent[0x1a:], 1)
	le.PutUint32(ent[0x1c:], 80)
	le.PutUint64(ent[0x28:], uint64(Flag64Bit|FlagHostLinux|flag))
	le.PutUint64(ent[0x38:], size)
	ent = append(ent, payload...)
	ent = append(ent, make([]byte, align8(uint64(len(payload)))-uint64(len(payload)))...)
	hdr := make([]byte, HeaderSize)
	le.PutUint32(hdr[0:], Magic)
	le.PutUint16(hdr[4:], Version)
	le.PutUint16(hdr[6:], HeaderSize)
	le.PutUint64(hdr[8:], uint64(len(ent)))
	return append(hdr, ent...)
}

func isFormatError(err error, file string) bool {
	var fe *FormatError
	return errors.As(err, &fe) && fe.File == file && strings.HasPrefix(fe.Error(), file+": ")
}

// TestMalformed: every class of damage gives a *FormatError naming the file,
// from Parse or from Data, and never a panic or a huge allocation.
func TestMalformed(t *testing.T) {
	good := readTestdata(t, "all.fatbin")
	le := binary.LittleEndian
	mutate := func(f func(b []byte) []byte) []byte {
		return f(append([]byte(nil), good...))
	}
	const ent = HeaderSize // first entry header
	cases := map[string][]byte{
		"empty":              {},
		"short header":       good[:10],
		"bad magic":          mutate(func(b []byte) []byte { b[0] ^= 1; return b }),
		"bad version":        mutate(func(b []byte) []byte { le.PutUint16(b[4:], 2); return b }),
		"header size 0":      mutate(func(b []byte) []byte { le.PutUint16(b[6:], 0); return b }),
		"header size huge":   mutate(func(b []byte) []byte { le.PutUint16(b[6:], 0xffff); return b }),
		"body past end":      mutate(func(b []byte) []byte { le.PutUint64(b[8:], 1<<62); return b }),
		"truncated body":     good[:len(good)-8],
		"entry hdr 0":        mutate(func(b []byte) []byte { le.PutUint32(b[ent+4:], 0); return b }),
		"entry hdr huge":     mutate(func(b []byte) []byte { le.PutUint32(b[ent+4:], 0xffffffff); return b }),
		"payload past end":   mutate(func(b []byte) []byte { le.PutUint64(b[ent+8:], 1<<63); return b }),
		"compressed 0":       mutate(func(b []byte) []byte { le.PutUint32(b[ent+0x10:], 0); return b }),
		"compressed > size":  mutate(func(b []byte) []byte { le.PutUint32(b[ent+0x10:], 0xfffffff); return b }),
		"declared 0":         mutate(func(b []byte) []byte { le.PutUint64(b[ent+0x38:], 0); return b }),
		"declared 1 TiB":     mutate(func(b []byte) []byte { le.PutUint64(b[ent+0x38:], 1<<40); return b }),
		"declared too big":   mutate(func(b []byte) []byte { le.PutUint64(b[ent+0x38:], 1<<29); return b }),
		"declared too small": mutate(func(b []byte) []byte { le.PutUint64(b[ent+0x38:], 100); return b }),
		"declared +1":        mutate(func(b []byte) []byte { le.PutUint64(b[ent+0x38:], le.Uint64(b[ent+0x38:])+1); return b }),
		"name outside":       mutate(func(b []byte) []byte { le.PutUint32(b[ent+0x20:], 0x30); le.PutUint32(b[ent+0x24:], 4); return b }),
		"name past header":   mutate(func(b []byte) []byte { le.PutUint32(b[ent+0x20:], 0x40); le.PutUint32(b[ent+0x24:], 1<<31); return b }),
		"options desc":       mutate(func(b []byte) []byte { le.PutUint32(b[ent+0x14:], 0x3c); return b }),
		"corrupt lz4":        mutate(func(b []byte) []byte { copy(b[ent+EntryHeaderSize:], bytes.Repeat([]byte{0xff}, 16)); return b }),
	}
	for name, data := range cases {
		entries, err := Parse("bad.fatbin", data)
		if err == nil {
			for _, e := range entries {
				if _, err = e.Data(); err != nil {
					break
				}
			}
		}
		if !isFormatError(err, "bad.fatbin") {
			t.Errorf("%s: got %v, want a FormatError naming bad.fatbin", name, err)
		}
	}
}

func TestStrings(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{KindPTX.String(), "PTX"},
		{KindELF.String(), "ELF"},
		{Kind(0x10).String(), "Kind(16)"},
		{(Flag64Bit | FlagHostLinux | FlagCompressedLZ4).String(), "64bit|linux|lz4"},
		{(FlagDebug | 0x100).String(), "debug|0x100"},
		{Flags(0).String(), "0x0"},
		{CompressionZstd.String(), "zstd"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// TestContainer: an entry's container parses back to that entry alone,
// with the same header fields and payload.
func TestContainer(t *testing.T) {
	entries := append(mustParse(t, "ident.fatbin"), mustParse(t, "all.fatbin")...)
	for i, e := range entries {
		again, err := Parse("one.fatbin", e.Container())
		if err != nil {
			t.Fatalf("entry %d: %v", i, err)
		}
		if len(again) != 1 {
			t.Fatalf("entry %d: container holds %d entries", i, len(again))
		}
		a := again[0]
		if a.Kind != e.Kind || a.SM != e.SM || a.Flags != e.Flags || a.Options != e.Options || a.Name != e.Name || !bytes.Equal(a.Raw(), e.Raw()) {
			t.Errorf("entry %d: %v came back as %v", i, e, a)
		}
		if !bytes.Equal(mustData(t, a), mustData(t, e)) {
			t.Errorf("entry %d: the payload differs", i)
		}
	}
}

// TestLZ4Block checks decodeLZ4Block against the reference Go LZ4 package:
// the same bytes for blocks it compresses (the cubins of testdata, text,
// runs that make overlapping matches), and, for every truncation and for
// single-byte changes of such a block, no full-size result unless the
// reference decoder gives the same one; never more than dst.
func TestLZ4Block(t *testing.T) {
	var inputs [][]byte
	for _, name := range []string{"k_sm80.cubin"} {
		inputs = append(inputs, readTestdata(t, name))
	}
	inputs = append(inputs,
		bytes.Repeat([]byte("abc"), 5000),
		bytes.Repeat([]byte{0}, 70000),
		[]byte("short"),
		[]byte(strings.Repeat("the quick brown fox ", 300)+"jumps"))
	for _, in := range inputs {
		block := make([]byte, lz4.CompressBlockBound(len(in)))
		n, err := lz4.CompressBlock(in, block, nil)
		if err != nil || n == 0 {
			t.Fatalf("CompressBlock(%d bytes): %d, %v", len(in), n, err)
		}
		block = block[:n]
		got := make([]byte, len(in))
		if m, err := decodeLZ4Block(block, got); err != nil || m != len(in) || !bytes.Equal(got, in) {
			t.Fatalf("%d bytes: decoded %d, %v; equal %v", len(in), m, err, bytes.Equal(got[:m], in[:m]))
		}
		if _, err := decodeLZ4Block(block, make([]byte, len(in)-1)); err == nil {
			t.Errorf("%d bytes into %d: no error", len(in), len(in)-1)
		}
		check := func(what string, b []byte) {
			t.Helper()
			want := make([]byte, len(in))
			wn, werr := lz4.UncompressBlock(b, want)
			dst := make([]byte, len(in))
			gn, gerr := decodeLZ4Block(b, dst)
			// Data takes a result of exactly the declared size only.
			if gerr == nil && gn == len(in) && (werr != nil || gn != wn || !bytes.Equal(dst, want)) {
				t.Errorf("%s: decoded %d bytes without error; reference %d, %v", what, gn, wn, werr)
			}
		}
		for i := 0; i < len(block); i += 1 + len(block)/200 {
			check(fmt.Sprintf("truncated at %d", i), block[:i])
			for _, v := range []byte{0, 0xff, block[i] ^ 0x10} {
				b := bytes.Clone(block)
				b[i] = v
				check(fmt.Sprintf("byte %d = %#x", i, v), b)
			}
		}
	}
}

// TestHead: Head(n) is the first n bytes of what Data returns (all of them
// when n is larger), for the LZ4 images nvcc wrote (cubins, PTX, -G),
// uncompressed ones and a zstd frame; and decodeLZ4's head mode gives every
// prefix of the reference LZ4 package's blocks (overlapping matches cut
// anywhere).
func TestHead(t *testing.T) {
	var entries []Entry
	for _, name := range []string{"all.fatbin", "debug.fatbin", "default.fatbin", "cuda12_sm80.fatbin"} {
		entries = append(entries, mustParse(t, name)...)
	}
	cubin := readTestdata(t, "k_sm80.cubin")
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	z, err := Parse("zstd.fatbin", compressedContainer(enc.EncodeAll(cubin, nil), uint64(len(cubin)), FlagCompressedZstd))
	if err != nil {
		t.Fatal(err)
	}
	entries = append(entries, z...)
	sawLZ4 := false
	for i, e := range entries {
		sawLZ4 = sawLZ4 || e.Compression == CompressionLZ4
		full := mustData(t, e)
		for _, n := range []int{0, 1, 63, 64, 65, 1000, len(full) - 1, len(full), len(full) + 10} {
			if n < 0 {
				continue
			}
			got, err := e.Head(n)
			if want := full[:min(n, len(full))]; err != nil || !bytes.Equal(got, want) {
				t.Errorf("entry %d (%v, %v): Head(%d) = %d bytes, %v; want the first %d of Data", i, e.Kind, e.Compression, n, len(got), err, len(want))
			}
		}
	}
	if !sawLZ4 {
		t.Fatal("no LZ4 entry in testdata")
	}
	for _, in := range [][]byte{cubin, bytes.Repeat([]byte("abc"), 5000), bytes.Repeat([]byte{0}, 70000)} {
		block := make([]byte, lz4.CompressBlockBound(len(in)))
		n, err := lz4.CompressBlock(in, block, nil)
		if err != nil || n == 0 {
			t.Fatalf("CompressBlock(%d bytes): %d, %v", len(in), n, err)
		}
		for k := 0; k <= len(in); k += 1 + len(in)/300 {
			dst := make([]byte, k)
			if m, err := decodeLZ4(block[:n], dst, true); err != nil || m != k || !bytes.Equal(dst, in[:k]) {
				t.Fatalf("%d bytes, head %d: decoded %d, %v", len(in), k, m, err)
			}
		}
	}
}
