package fatbin

import (
	"bytes"
	"testing"

	"github.com/klauspost/compress/zstd"
)

var fuzzSeeds = []string{"one.fatbin", "two.fatbin", "ident.fatbin", "default.fatbin",
	"all.fatbin", "debug.fatbin", "relfatbin.bin"}

// FuzzParse: no input makes Parse or Data panic or allocate beyond the
// bounds; whatever parses describes windows inside the input.
func FuzzParse(f *testing.F) {
	for _, name := range fuzzSeeds {
		f.Add(readTestdata(f, name))
	}
	// A zstd entry (CUDA ≥ 12.4 layout), which 11.8 cannot produce.
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		f.Fatal(err)
	}
	cubin := readTestdata(f, "k_sm80.cubin")
	f.Add(compressedContainer(enc.EncodeAll(cubin, nil), uint64(len(cubin)), FlagCompressedZstd))
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := Parse("fuzz", data)
		if err != nil {
			if !isFormatError(err, "fuzz") {
				t.Fatalf("error is not a FormatError: %v", err)
			}
			return
		}
		for _, e := range entries {
			if e.rawOff+uint64(len(e.raw)) > uint64(len(data)) || e.Off+uint64(e.HeaderSize) > e.rawOff {
				t.Fatalf("entry %v: window [0x%x,+%d) outside input of %d bytes", e, e.rawOff, len(e.raw), len(data))
			}
			out, err := e.Data()
			if err != nil {
				if !isFormatError(err, "fuzz") {
					t.Fatalf("Data error is not a FormatError: %v", err)
				}
				continue
			}
			if e.Compression != CompressionNone && uint64(len(out)) != e.Size {
				t.Fatalf("entry %v: %d bytes, header says %d", e, len(out), e.Size)
			}
		}
		Select(entries, 80)
		SelectPTX(entries, 80)
	})
}

// FuzzWrite: whatever Write accepts parses back to the same images.
func FuzzWrite(f *testing.F) {
	f.Add(readTestdata(f, "k_sm80.cubin"), 80, "", "", false, false)
	f.Add([]byte(".version 7.8\n.target sm_80\n"), 80, "k.cu", "--compile-only ", true, true)
	f.Fuzz(func(t *testing.T, data []byte, sm int, ident, options string, ptx, debug bool) {
		img := Image{Kind: KindELF, SM: sm, Data: data, Ident: ident, Options: options, Debug: debug}
		if ptx {
			img.Kind = KindPTX
		}
		var buf bytes.Buffer
		if err := Write(&buf, []Image{img}); err != nil {
			return
		}
		entries, err := Parse("fuzz", buf.Bytes())
		if err != nil {
			t.Fatalf("Write output does not parse: %v", err)
		}
		if len(entries) != 1 {
			t.Fatalf("%d entries", len(entries))
		}
		e := entries[0]
		got, _ := e.Data()
		trimmed := func(s string) string { return string(bytes.TrimRight([]byte(s), "\x00")) }
		if e.Kind != img.Kind || e.SM != sm || e.Name != trimmed(ident) || e.Options != trimmed(options) ||
			(e.Flags&FlagDebug != 0) != debug || !bytes.Equal(got[:len(data)], data) || !allZero(got[len(data):]) {
			t.Fatalf("round trip: wrote %+v, read %+v", img, e)
		}
	})
}
