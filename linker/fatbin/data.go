package fatbin

import (
	"errors"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// MaxDecompressedSize bounds the decompressed size of one payload. A real
// cubin is at most tens of megabytes; a larger declared size is taken as
// corruption.
const MaxDecompressedSize = 1 << 30

// Upper bounds on the expansion ratio of each compression format, so that a
// few hostile bytes cannot declare (and make us allocate) a gigabyte.
const (
	// An LZ4 block grows by at most 255 bytes of match per input byte
	// (each 0xff length-extension byte adds 255).
	lz4MaxRatio = 255
	// A zstd RLE block turns 4 bytes (3 header + 1) into at most 128 KiB.
	zstdMaxRatio = 128 << 10 / 4

	zstdMagic = 0xFD2FB528
)

// Data returns the entry's payload, decompressed if the container stores it
// compressed. For an uncompressed entry it is a window into the parsed input
// and includes the container's padding to a multiple of 8 bytes (harmless
// for a cubin, NULs after a PTX text). A decompressed payload must have
// exactly the size the header declares.
func (e Entry) Data() ([]byte, error) {
	switch e.Compression {
	case CompressionNone:
		return e.raw, nil
	case CompressionLZ4:
		return e.lz4()
	case CompressionZstd:
		return e.zstd()
	}
	return nil, e.errorf(e.Off+0x28, "unknown compression %v", e.Compression)
}

func (e Entry) errorf(off uint64, format string, args ...any) error {
	p := parser{file: e.file}
	return p.errorf(off, format, args...)
}

// checkDeclared bounds the declared decompressed size before anything is
// allocated for it.
func (e Entry) checkDeclared(ratio uint64) error {
	if e.Size == 0 || e.Size > MaxDecompressedSize {
		return e.errorf(e.Off+0x38, "decompressed size 0x%x out of range (limit 0x%x)", e.Size, MaxDecompressedSize)
	}
	if limit := uint64(len(e.raw))*ratio + 64; e.Size > limit {
		return e.errorf(e.Off+0x38, "decompressed size 0x%x impossible for %d compressed bytes (%v)", e.Size, len(e.raw), e.Compression)
	}
	return nil
}

func (e Entry) lz4() ([]byte, error) {
	if err := e.checkDeclared(lz4MaxRatio); err != nil {
		return nil, err
	}
	dst := make([]byte, e.Size)
	n, err := lz4.UncompressBlock(e.raw, dst)
	if err != nil {
		return nil, e.errorf(e.rawOff, "LZ4 block: %v", err)
	}
	if uint64(n) != e.Size {
		return nil, e.errorf(e.rawOff, "LZ4 block decompresses to %d bytes, header says %d", n, e.Size)
	}
	return dst, nil
}

func (e Entry) zstd() ([]byte, error) {
	if err := e.checkDeclared(zstdMaxRatio); err != nil {
		return nil, err
	}
	// The decoder refuses frames (and windows) larger than the declared
	// size, so it never allocates more than that.
	dec, err := zstd.NewReader(nil,
		zstd.WithDecoderConcurrency(1),
		zstd.WithDecoderLowmem(true),
		zstd.WithDecoderMaxMemory(e.Size))
	if err != nil {
		return nil, e.errorf(e.rawOff, "zstd: %v", err)
	}
	defer dec.Close()
	out, err := dec.DecodeAll(e.raw, make([]byte, 0, e.Size))
	if err != nil {
		if errors.Is(err, zstd.ErrDecoderSizeExceeded) || errors.Is(err, zstd.ErrWindowSizeExceeded) {
			return nil, e.errorf(e.rawOff, "zstd frame larger than the declared 0x%x bytes", e.Size)
		}
		return nil, e.errorf(e.rawOff, "zstd: %v", err)
	}
	if uint64(len(out)) != e.Size {
		return nil, e.errorf(e.rawOff, "zstd frame decompresses to %d bytes, header says %d", len(out), e.Size)
	}
	return out, nil
}
