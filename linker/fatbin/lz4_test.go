package fatbin

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/cudalink/cudalink/linker/archive"
	"github.com/cudalink/cudalink/linker/hostobj"
	"github.com/pierrec/lz4/v4"
)

// decodeLZ4Plain is decodeLZ4 as it was before its 16-byte moves: each
// literal run and match copied by copy, an overlapping match a period at a
// time. TestDecodeLZ4SameAsPlain holds decodeLZ4 to its results.
func decodeLZ4Plain(src, dst []byte, head bool) (int, error) {
	length := func(n int, si *int) (int, error) {
		for {
			if *si >= len(src) {
				return 0, errLZ4Truncated
			}
			b := src[*si]
			*si++
			n += int(b)
			if n > len(dst) && !head {
				return 0, errLZ4Overflow
			}
			if b != 255 {
				return n, nil
			}
		}
	}
	si, di := 0, 0
	for {
		if si >= len(src) {
			return 0, errLZ4Truncated
		}
		token := src[si]
		si++
		lit := int(token >> 4)
		if lit == 15 {
			var err error
			if lit, err = length(lit, &si); err != nil {
				return 0, err
			}
		}
		if lit > len(src)-si {
			return 0, errLZ4Truncated
		}
		if lit > len(dst)-di && !head {
			return 0, errLZ4Overflow
		}
		di += copy(dst[di:], src[si:si+lit])
		si += lit
		if head && di == len(dst) {
			return di, nil
		}
		if si == len(src) {
			return di, nil
		}
		if len(src)-si < 2 {
			return 0, errLZ4Truncated
		}
		off := int(binary.LittleEndian.Uint16(src[si:]))
		si += 2
		if off == 0 || off > di {
			return 0, errLZ4Offset
		}
		match := int(token&15) + 4
		if match == 19 {
			var err error
			if match, err = length(match, &si); err != nil {
				return 0, err
			}
		}
		if match > len(dst)-di {
			if !head {
				return 0, errLZ4Overflow
			}
			match = len(dst) - di
		}
		for match > 0 {
			n := copy(dst[di:di+min(match, off)], dst[di-off:])
			di += n
			match -= n
		}
		if head && di == len(dst) {
			return di, nil
		}
	}
}

// lz4Blocks are LZ4 blocks to decode, with their decompressed sizes: the
// compressed images of the corpus's libcudadevrt.a (11.8, 12.4, 12.5),
// and blocks pierrec/lz4 makes of data with runs of every period from 1 to
// 40 bytes (matches that overlap what they write) and of random bytes.
func lz4Blocks(t testing.TB) (blocks [][]byte, sizes []int) {
	for _, lib := range []string{"libs", "cuda-12.4/libs", "cuda-12.5/libs"} {
		path := filepath.Join("..", "..", "tests", "corpus", lib, "libcudadevrt.a")
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		ar, err := archive.Parse(path, data)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ar.Members {
			obj, err := hostobj.Parse(m.Name, m.Data)
			if err != nil {
				t.Fatal(err)
			}
			entries, err := Parse(m.Name, obj.RelFatbin)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				if e.Compression == CompressionLZ4 {
					blocks, sizes = append(blocks, e.raw), append(sizes, int(e.Size))
				}
			}
		}
	}
	if len(blocks) < 10 {
		t.Fatalf("%d compressed images in the corpus's libcudadevrt.a, want more", len(blocks))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for period := 1; period <= 40; period++ {
		var b []byte
		for len(b) < 20000 {
			run := make([]byte, period)
			for i := range run {
				run[i] = byte(rng.IntN(4))
			}
			for range rng.IntN(300) {
				b = append(b, run...)
			}
			for range rng.IntN(40) {
				b = append(b, byte(rng.Uint32()))
			}
		}
		dst := make([]byte, lz4.CompressBlockBound(len(b)))
		n, err := lz4.CompressBlock(b, dst, nil)
		if err != nil || n == 0 {
			t.Fatalf("period %d: lz4.CompressBlock: %d, %v", period, n, err)
		}
		blocks, sizes = append(blocks, dst[:n]), append(sizes, len(b))
	}
	return blocks, sizes
}

// TestDecodeLZ4SameAsPlain: decodeLZ4 gives decodeLZ4Plain's results, and
// pierrec/lz4's bytes, for whole blocks and for their first bytes (Head),
// and the same result and error for each block cut short, grown or with a
// byte changed.
func TestDecodeLZ4SameAsPlain(t *testing.T) {
	blocks, sizes := lz4Blocks(t)
	same := func(what string, src []byte, size int, head bool) {
		t.Helper()
		got, want := make([]byte, size), make([]byte, size)
		n, err := decodeLZ4(src, got, head)
		wn, werr := decodeLZ4Plain(src, want, head)
		if n != wn || err != werr || err == nil && !bytes.Equal(got[:n], want[:n]) {
			t.Fatalf("%s: decodeLZ4 %d, %v; plain %d, %v (same bytes: %v)", what, n, err, wn, werr, bytes.Equal(got[:n], want[:wn]))
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i, src := range blocks {
		ref := make([]byte, sizes[i])
		if n, err := lz4.UncompressBlock(src, ref); err != nil || n != sizes[i] {
			t.Fatalf("block %d: lz4.UncompressBlock: %d, %v", i, n, err)
		}
		got := make([]byte, sizes[i])
		if n, err := decodeLZ4Block(src, got); err != nil || n != sizes[i] || !bytes.Equal(got, ref) {
			t.Fatalf("block %d: decodeLZ4Block: %d, %v (want %d bytes, same: %v)", i, n, err, sizes[i], bytes.Equal(got, ref))
		}
		for _, h := range []int{1, 15, 16, 17, 64, 100, sizes[i] / 2, sizes[i] - 1} {
			if h > 0 && h <= sizes[i] {
				same("head", src, h, true)
			}
		}
		for range 8 {
			bad := bytes.Clone(src)
			switch rng.IntN(4) {
			case 0:
				bad = bad[:rng.IntN(len(bad))]
			case 1:
				bad[rng.IntN(len(bad))] = byte(rng.Uint32())
			case 2:
				bad = append(bad, byte(rng.Uint32()), byte(rng.Uint32()))
			}
			size := sizes[i] + rng.IntN(33) - 16
			if size <= 0 {
				size = 1
			}
			same("changed", bad, size, false)
			same("changed, head", bad, size, true)
		}
	}
}

// BenchmarkDecodeLZ4 decompresses the images of the corpus's
// libcudadevrt.a (11.8, 12.4, 12.5), as a link with -lcudadevrt does the
// one for its target.
func BenchmarkDecodeLZ4(b *testing.B) {
	blocks, sizes := lz4Blocks(b)
	dsts := make([][]byte, len(blocks))
	total := 0
	for i, n := range sizes {
		dsts[i] = make([]byte, n)
		total += n
	}
	b.SetBytes(int64(total))
	for b.Loop() {
		for i, src := range blocks {
			if _, err := decodeLZ4Block(src, dsts[i]); err != nil {
				b.Fatal(err)
			}
		}
	}
}
