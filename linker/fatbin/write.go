package fatbin

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// Image is one image to put in a container: what one
// `fatbinary --image3=kind=...,sm=...,file=...` names.
type Image struct {
	Kind Kind // KindELF or KindPTX
	SM   int  // the architecture, as Entry.SM
	// Data is the cubin, or the PTX text exactly as it should be stored
	// (fatbinary itself blanks PTX comments and adds a NUL; Write does not).
	Data []byte
	// Ident is the identifier (fatbinary --ident), stored in every entry
	// header when not empty. nvcc -dlink passes the object names, each
	// followed by a space, when compiling with -G or -lineinfo.
	Ident string
	// Options are the ptxas options (fatbinary --cmdline); fatbinary
	// records them in PTX entries only, so they are an error on an ELF
	// image.
	Options string
	// Debug sets FlagDebug (fatbinary -g).
	Debug bool
	// HeaderPad: write the entry as CUDA 12.4's fatbinary does: an ELF
	// entry without identifier has a 0x48-byte header, the fixed part
	// followed by 8 zero bytes (11.8's and 12.5's write 0x40).
	HeaderPad bool
	// ArchSpecific marks the entry arch-specific, as fatbinary does for
	// --image3=...,sm=90a whatever the cubin's e_flags (nvcc -dlink's
	// sm_90a image is linked with nvlink --arch=sm_90). A cubin whose
	// e_flags say sm_90a is marked either way.
	ArchSpecific bool
}

// compressELFAbove is the size over which fatbinary compresses a cubin
// that is not a debug compile: found with nvlink outputs of one large
// initialized __device__ array (CUDA 11.8: 10,000,000 bytes stored as they
// are, 10,000,008 compressed; 12.4 and 12.5 compress 10,000,008 too;
// TestWriteCompressesAsFatbinary, docs/dlink.md).
const compressELFAbove = 10_000_000

// Write writes one container holding images, in order, byte-identical to
// what `fatbinary -64` writes for them with its default compression (CUDA
// 11.8, 12.4 and 12.5): a cubin marked Debug (fatbinary -g), or one over
// 10,000,000 bytes, is stored as one LZ4 block of LZ4's high-compression
// encoder at level 1 (compressLZ4HC), any other stored as it is. PTX is
// stored uncompressed, as `fatbinary --compress=false` stores it (fatbinary
// compresses it by default).
//
// A cubin must be a little-endian ELF64 whose SM (e_flags bits 0–7) matches
// the image's SM, as fatbinary checks; its code version is [1, EI_ABIVERSION].
// A PTX text's code version is read from its .version directive.
func Write(w io.Writer, images []Image) error {
	var body bytes.Buffer
	for i, img := range images {
		if err := appendEntry(&body, img); err != nil {
			return fmt.Errorf("fatbin: image %d (%s sm_%d): %w", i, img.Kind, img.SM, err)
		}
	}
	var hdr [HeaderSize]byte
	binary.LittleEndian.PutUint32(hdr[0:], Magic)
	binary.LittleEndian.PutUint16(hdr[4:], Version)
	binary.LittleEndian.PutUint16(hdr[6:], HeaderSize)
	binary.LittleEndian.PutUint64(hdr[8:], uint64(body.Len()))
	if _, err := w.Write(hdr[:]); err != nil {
		return err
	}
	_, err := w.Write(body.Bytes())
	return err
}

func appendEntry(buf *bytes.Buffer, img Image) error {
	if img.SM <= 0 || img.SM > 0xffff {
		return fmt.Errorf("SM %d out of range", img.SM)
	}
	var major, minor int
	switch img.Kind {
	case KindELF:
		if img.Options != "" {
			return errors.New("ptxas options apply to PTX images only")
		}
		var err error
		if major, minor, err = cubinVersion(img.Data, img.SM); err != nil {
			return err
		}
	case KindPTX:
		var err error
		if major, minor, err = ptxVersion(img.Data); err != nil {
			return err
		}
	default:
		return fmt.Errorf("unsupported kind %v", img.Kind)
	}

	// Entry header: fixed part, then for PTX the options descriptor, then
	// the options and identifier strings, each NUL-terminated and padded
	// to 8 bytes.
	hdr := make([]byte, EntryHeaderSize, EntryHeaderSize+8+len(img.Options)+len(img.Ident)+16)
	le := binary.LittleEndian
	if img.Kind == KindPTX {
		le.PutUint32(hdr[0x14:], ptxOptionsDescOff)
		hdr = append(hdr, make([]byte, 8)...)
		if img.Options != "" {
			le.PutUint32(hdr[ptxOptionsDescOff:], uint32(len(hdr)))
			le.PutUint32(hdr[ptxOptionsDescOff+4:], uint32(len(img.Options)))
			hdr = appendPaddedString(hdr, img.Options)
		}
	}
	if img.HeaderPad && img.Kind == KindELF && img.Ident == "" {
		hdr = append(hdr, make([]byte, 8)...)
	}
	if img.Ident != "" {
		le.PutUint32(hdr[0x20:], uint32(len(hdr)))
		le.PutUint32(hdr[0x24:], uint32(len(img.Ident)))
		hdr = appendPaddedString(hdr, img.Ident)
	}
	flags := Flag64Bit | FlagHostLinux
	if img.Debug {
		flags |= FlagDebug
	}
	if img.ArchSpecific || img.Kind == KindELF && len(img.Data) >= 52 && binary.LittleEndian.Uint32(img.Data[48:])&0x800 != 0 {
		flags |= FlagArchSpecific // e_flags EF_CUDA_ARCH_SPECIFIC: sm_90a
	}
	data := img.Data
	if img.Kind == KindELF && (img.Debug || len(img.Data) > compressELFAbove) {
		// fatbinary's defaults: it compresses a debug cubin, and any
		// cubin over 10,000,000 bytes, as one LZ4 block.
		data = compressLZ4HC(img.Data)
		flags |= FlagCompressedLZ4
		le.PutUint32(hdr[0x10:], uint32(len(data)))
		le.PutUint64(hdr[0x38:], uint64(len(img.Data)))
	}
	payload := align8(uint64(len(data)))
	le.PutUint16(hdr[0x00:], uint16(img.Kind))
	le.PutUint16(hdr[0x02:], 0x0101)
	le.PutUint32(hdr[0x04:], uint32(len(hdr)))
	le.PutUint64(hdr[0x08:], payload)
	le.PutUint16(hdr[0x18:], uint16(minor))
	le.PutUint16(hdr[0x1a:], uint16(major))
	le.PutUint32(hdr[0x1c:], uint32(img.SM))
	le.PutUint64(hdr[0x28:], uint64(flags))

	buf.Write(hdr)
	buf.Write(data)
	buf.Write(make([]byte, payload-uint64(len(data))))
	return nil
}

func appendPaddedString(b []byte, s string) []byte {
	b = append(b, s...)
	b = append(b, 0)
	for len(b)%8 != 0 {
		b = append(b, 0)
	}
	return b
}

func align8(n uint64) uint64 { return (n + 7) &^ 7 }

// cubinVersion checks a cubin's ELF header the way fatbinary -64 does and
// returns its code version.
func cubinVersion(data []byte, sm int) (major, minor int, err error) {
	const (
		emCUDA    = 190
		abiV7     = 7
		ehdrSize  = 64
		elfClass  = 2 // ELFCLASS64
		elfDataLE = 1
	)
	if len(data) < ehdrSize || string(data[:4]) != "\x7fELF" {
		return 0, 0, errors.New("not an ELF file")
	}
	if data[4] != elfClass || data[5] != elfDataLE {
		return 0, 0, errors.New("not a little-endian ELF64 file (fatbinary -64 requires one)")
	}
	if m := binary.LittleEndian.Uint16(data[18:]); m != emCUDA {
		return 0, 0, fmt.Errorf("e_machine %d is not EM_CUDA", m)
	}
	abi := int(data[8])
	if abi == abiV7 {
		if arch := int(binary.LittleEndian.Uint32(data[48:]) & 0xff); arch != sm {
			return 0, 0, fmt.Errorf("ELF arch %d does not match sm_%d", arch, sm)
		}
	}
	return 1, abi, nil
}

// ptxVersion reads the ".version X.Y" directive of a PTX text.
func ptxVersion(data []byte) (major, minor int, err error) {
	i := bytes.Index(data, []byte(".version"))
	if i < 0 {
		return 0, 0, errors.New("PTX has no .version directive")
	}
	rest := data[i+len(".version"):]
	rest = bytes.TrimLeft(rest, " \t")
	end := bytes.IndexAny(rest, " \t\r\n")
	if end < 0 {
		end = len(rest)
	}
	v := string(rest[:end])
	dot := bytes.IndexByte(rest[:end], '.')
	if dot < 0 {
		return 0, 0, fmt.Errorf("bad PTX .version %q", v)
	}
	major, err1 := strconv.Atoi(v[:dot])
	minor, err2 := strconv.Atoi(v[dot+1:])
	if err1 != nil || err2 != nil || major < 0 || major > 0xffff || minor < 0 || minor > 0xffff {
		return 0, 0, fmt.Errorf("bad PTX .version %q", v)
	}
	return major, minor, nil
}
