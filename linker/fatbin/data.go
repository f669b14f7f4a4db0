package fatbin

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"errors"
	"io"
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
func (e Entry) Data() ([]byte, error) { return e.DataIn(nil) }

// DataIn is Data, decompressing into a buffer of alloc's (n bytes, the
// declared size, which it returns zeroed or not) instead of a new one
// (alloc nil). An uncompressed entry's payload is its window, as Data's.
func (e Entry) DataIn(alloc func(n int) []byte) ([]byte, error) {
	if alloc == nil {
		alloc = func(n int) []byte { return make([]byte, n) }
	}
	switch e.Compression {
	case CompressionNone:
		return e.raw, nil
	case CompressionLZ4:
		return e.lz4(alloc)
	case CompressionZstd:
		return e.zstd(alloc)
	}
	return nil, e.errorf(e.Off+0x28, "unknown compression %v", e.Compression)
}

// Head returns the first n bytes of the entry's payload (all of it if it
// is shorter), decompressing no more than that: enough to read an ELF
// header without decompressing the image (a library as NVIDIA ships them
// holds thousands). Errors past those bytes go unnoticed; Data finds them.
func (e Entry) Head(n int) ([]byte, error) {
	switch e.Compression {
	case CompressionNone:
		return e.raw[:min(n, len(e.raw))], nil
	case CompressionLZ4:
		if err := e.checkDeclared(lz4MaxRatio); err != nil {
			return nil, err
		}
		dst := make([]byte, min(uint64(n), e.Size))
		m, err := decodeLZ4(e.raw, dst, true)
		if err != nil {
			return nil, e.errorf(e.rawOff, "LZ4 block: %v", err)
		}
		return dst[:m], nil
	case CompressionZstd:
		if err := e.checkDeclared(zstdMaxRatio); err != nil {
			return nil, err
		}
		r, err := zstdReader(e.raw, e.Size)
		if err != nil {
			return nil, e.errorf(e.rawOff, "zstd: %v", err)
		}
		out := make([]byte, min(uint64(n), e.Size))
		m, err := io.ReadFull(r, out)
		if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
			return nil, e.errorf(e.rawOff, "zstd: %v", err)
		}
		return out[:m], nil
	}
	return nil, e.errorf(e.Off+0x28, "unknown compression %v", e.Compression)
}

func (e Entry) errorf(off uint64, format string, args ...any) error {
	p := parser{file: e.file, section: e.section, base: e.base}
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

func (e Entry) lz4(alloc func(int) []byte) ([]byte, error) {
	if err := e.checkDeclared(lz4MaxRatio); err != nil {
		return nil, err
	}
	dst := alloc(int(e.Size))
	n, err := decodeLZ4Block(e.raw, dst)
	if err != nil {
		return nil, e.errorf(e.rawOff, "LZ4 block: %v", err)
	}
	if uint64(n) != e.Size {
		return nil, e.errorf(e.rawOff, "LZ4 block decompresses to %d bytes, header says %d", n, e.Size)
	}
	return dst, nil
}

var (
	errLZ4Truncated = errors.New("truncated")
	errLZ4Offset    = errors.New("match offset outside the output")
	errLZ4Overflow  = errors.New("larger than the declared size")
)

// decodeLZ4Block decompresses one LZ4 block (a run of sequences: a token,
// literals, and a match of a 2-byte offset, the last sequence literals
// only) into dst, and returns the length it wrote. It writes nothing past
// dst: a block that decompresses to more is an error.
func decodeLZ4Block(src, dst []byte) (int, error) { return decodeLZ4(src, dst, false) }

// decodeLZ4 is decodeLZ4Block; with head, it stops where dst is full
// instead (the block's start, what Entry.Head returns).
func decodeLZ4(src, dst []byte, head bool) (int, error) {
	// length reads the rest of a length whose 4-bit part was 15: bytes
	// are added while they are 255.
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
		if lit <= 16 && len(src)-si >= 16 && len(dst)-di >= 16 {
			// Most literal runs are short: one 16-byte move, whose
			// bytes past the run are written again by what follows.
			*(*[16]byte)(dst[di:]) = *(*[16]byte)(src[si:])
			di += lit
		} else {
			if lit > len(src)-si {
				return 0, errLZ4Truncated
			}
			if lit > len(dst)-di && !head {
				return 0, errLZ4Overflow
			}
			di += copy(dst[di:], src[si:si+lit])
		}
		si += lit
		if head && di == len(dst) {
			return di, nil
		}
		if si == len(src) {
			return di, nil // the last sequence has no match
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
		if match <= 16 && off >= 16 && len(dst)-di > 16 {
			// A short match that does not overlap what it writes: one
			// 16-byte move, as for the literals (dst does not end with
			// it, so Head's check below has nothing to stop).
			*(*[16]byte)(dst[di:]) = *(*[16]byte)(dst[di-off:])
			di += match
			continue
		}
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
		switch {
		case off >= match:
			di += copy(dst[di:di+match], dst[di-off:])
		default:
			// The match overlaps what it writes (off < match): the bytes
			// from di-off repeat with period off, so each step copies
			// all that is written from there, twice the step before.
			start := di - off
			for match > 0 {
				n := copy(dst[di:di+min(match, di-start)], dst[start:di])
				di += n
				match -= n
			}
		}
		if head && di == len(dst) {
			return di, nil
		}
	}
}

func (e Entry) zstd(alloc func(int) []byte) ([]byte, error) {
	if err := e.checkDeclared(zstdMaxRatio); err != nil {
		return nil, err
	}
	r, err := zstdReader(e.raw, e.Size)
	if err != nil {
		return nil, e.errorf(e.rawOff, "zstd: %v", err)
	}
	out := alloc(int(e.Size))
	n, err := io.ReadFull(r, out)
	switch {
	case err == io.ErrUnexpectedEOF || err == io.EOF:
		return nil, e.errorf(e.rawOff, "zstd frame decompresses to %d bytes, header says %d", n, e.Size)
	case err != nil:
		return nil, e.errorf(e.rawOff, "zstd: %v", err)
	}
	// One byte more is enough to know: the reader holds at most a block
	// (128 KiB) and a window (at most 8 MiB) beyond what it returned.
	if n, err := r.Read(make([]byte, 1)); n > 0 || (err != nil && err != io.EOF) {
		if err != nil && err != io.EOF {
			return nil, e.errorf(e.rawOff, "zstd: %v", err)
		}
		return nil, e.errorf(e.rawOff, "zstd frame larger than the declared 0x%x bytes", e.Size)
	}
	return out, nil
}

// zstdReader decompresses zstd frames with the standard library's decoder,
// which Go exposes only through debug/elf's compressed sections: the frames
// become the one SHF_COMPRESSED section of a minimal ELF file made here.
// A third-party decoder would put its package initialisation (tables,
// crypto/rand) into the start of every cudalink process, links that never
// read a compressed payload included: about 0.5 MiB of peak memory and
// 0.4 ms of CPU time of a 10-object link.
func zstdReader(frames []byte, size uint64) (io.Reader, error) {
	const (
		ehdrSize = 64
		shdrSize = 64
		chdrSize = 24
	)
	le := binary.LittleEndian
	dataOff := uint64(ehdrSize)
	strtabOff := dataOff + chdrSize + uint64(len(frames))
	shoff := (strtabOff + 1 + 7) &^ 7
	f := make([]byte, shoff+3*shdrSize)
	copy(f, elf.ELFMAG)
	f[elf.EI_CLASS] = byte(elf.ELFCLASS64)
	f[elf.EI_DATA] = byte(elf.ELFDATA2LSB)
	f[elf.EI_VERSION] = byte(elf.EV_CURRENT)
	le.PutUint16(f[16:], uint16(elf.ET_REL))
	le.PutUint32(f[20:], uint32(elf.EV_CURRENT))
	le.PutUint64(f[40:], shoff)                          // e_shoff
	le.PutUint16(f[52:], ehdrSize)                       // e_ehsize
	le.PutUint16(f[58:], shdrSize)                       // e_shentsize
	le.PutUint16(f[60:], 3)                              // e_shnum: null, names, data
	le.PutUint16(f[62:], 1)                              // e_shstrndx
	le.PutUint32(f[dataOff:], uint32(elf.COMPRESS_ZSTD)) // Chdr64: ch_type,
	le.PutUint64(f[dataOff+8:], size)                    // ch_size,
	le.PutUint64(f[dataOff+16:], 1)                      // ch_addralign
	copy(f[dataOff+chdrSize:], frames)
	sh := f[shoff+shdrSize:] // section 1: the names, one empty string
	le.PutUint32(sh[4:], uint32(elf.SHT_STRTAB))
	le.PutUint64(sh[24:], strtabOff)
	le.PutUint64(sh[32:], 1)
	sh = f[shoff+2*shdrSize:] // section 2: the compressed data
	le.PutUint32(sh[4:], uint32(elf.SHT_PROGBITS))
	le.PutUint64(sh[8:], uint64(elf.SHF_COMPRESSED))
	le.PutUint64(sh[24:], dataOff)
	le.PutUint64(sh[32:], chdrSize+uint64(len(frames)))
	le.PutUint64(sh[48:], 1)
	ef, err := elf.NewFile(bytes.NewReader(f))
	if err != nil {
		return nil, err
	}
	return ef.Sections[2].Open(), nil
}
