// Package fatbin reads and writes NVIDIA fatbinary containers: the
// 0xBA55ED50 format that `fatbinary` writes, that host objects carry in their
// `.nv_fatbin` and `__nv_relfatbin` sections, and that nvlink consumes.
//
// A container is a 16-byte header followed by entries; each entry is a header
// (64 bytes plus optional strings) followed by its payload, a PTX text or a
// cubin, possibly compressed. Several containers may sit back to back (after
// `ld -r`, or when a tool concatenates them).
//
// Parsing is zero-copy: an Entry's payload is a window into the input. Every
// size, offset and count read from the input is checked before use, so a
// hostile input gives a *FormatError, never a panic or an allocation larger
// than the input justifies. Decompression happens only when Entry.Data is
// called and is bounded the same way.
package fatbin

import (
	"encoding/binary"
	"fmt"
	"strings"
)

// Container layout.
const (
	Magic      = 0xBA55ED50 // first word of a container
	Version    = 1          // the only container version seen (CUDA 11.x–13.x)
	HeaderSize = 16         // size of the container header

	// EntryHeaderSize is the size of the fixed part of an entry header;
	// strings (identifier, ptxas options) follow it, and newer toolkits
	// append extension words (entries of 80 and 112 bytes for sm_100+).
	EntryHeaderSize = 64

	// ptxOptionsDescOff is the offset, inside a PTX entry header, of the
	// (offset, length) pair that locates the ptxas options string; entry
	// header word 0x14 holds it for PTX entries and is 0 for ELF entries.
	ptxOptionsDescOff = 0x40
)

// Kind is the kind of an entry's payload.
type Kind uint16

const (
	KindPTX Kind = 1 // PTX text
	KindELF Kind = 2 // a cubin
	// KindNVVM is NVVM IR for link-time optimization (nvcc -dlto, the
	// lto_XX code of -gencode); nvlink -dlto hands it to libnvvm.
	KindNVVM Kind = 8
)

// String names the kind: ptx or elf.
func (k Kind) String() string {
	switch k {
	case KindPTX:
		return "PTX"
	case KindELF:
		return "ELF"
	case KindNVVM:
		return "NVVM"
	}
	return fmt.Sprintf("Kind(%d)", uint16(k))
}

// Flags is the flags word of an entry header.
type Flags uint64

const (
	Flag64Bit Flags = 0x1 // code for a 64-bit host (fatbinary -64)
	FlagDebug Flags = 0x2 // debug compile (fatbinary -g)
	// FlagHostLinux is set by fatbinary on Linux hosts ("host = linux"
	// in cuobjdump).
	FlagHostLinux Flags = 0x10
	// FlagCompressedLZ4 marks a payload compressed as one LZ4 block (no
	// frame header, no checksum). This is the only compression CUDA 11.8
	// writes.
	FlagCompressedLZ4 Flags = 0x2000
	// FlagCompressedZstd marks a zstd-compressed payload (CUDA ≥ 12.4,
	// per third-party reverse engineering; not verified with a real
	// toolkit here). Readers also recognise zstd by its frame magic.
	FlagCompressedZstd Flags = 0x8000
	// FlagArchSpecific marks an image of an arch-specific target
	// (sm_90a: CUDA 12's fatbinary sets it on such cubins).
	FlagArchSpecific Flags = 0x100000
)

var flagNames = []struct {
	bit  Flags
	name string
}{
	{Flag64Bit, "64bit"},
	{FlagDebug, "debug"},
	{FlagHostLinux, "linux"},
	{FlagCompressedLZ4, "lz4"},
	{FlagCompressedZstd, "zstd"},
	{FlagArchSpecific, "arch-specific"},
}

// String lists the flags set, by name.
func (f Flags) String() string {
	var parts []string
	for _, fn := range flagNames {
		if f&fn.bit != 0 {
			parts = append(parts, fn.name)
			f &^= fn.bit
		}
	}
	if f != 0 || len(parts) == 0 {
		parts = append(parts, fmt.Sprintf("0x%x", uint64(f)))
	}
	return strings.Join(parts, "|")
}

// Compression is the way an entry's payload is stored.
type Compression uint8

// How a payload is stored.
const (
	CompressionNone Compression = iota
	CompressionLZ4              // one LZ4 block (CUDA 11.8)
	CompressionZstd             // one zstd frame (CUDA ≥ 12.4)
)

// String names the compression: none, lz4 or zstd.
func (c Compression) String() string {
	switch c {
	case CompressionNone:
		return "none"
	case CompressionLZ4:
		return "lz4"
	case CompressionZstd:
		return "zstd"
	}
	return fmt.Sprintf("Compression(%d)", uint8(c))
}

// FormatError reports a malformed input: the file, the byte offset where the
// problem was found, and what was wrong.
type FormatError struct {
	File string // the fatbinary as named on the command line
	Off  uint64 // where in it the problem was found
	Msg  string // what is wrong
	// Section is the section of File that holds the fatbinary
	// (__nv_relfatbin of a host object; ParseSection), "" for a .fatbin
	// file; Base is the section's offset in File.
	Section string
	Base    uint64
}

// Error names the container, the byte offset and what is wrong there. For
// a fatbinary in a host object's section, the offset is given both in the
// section and in the object, which is where a user's tools (cmp, xxd) look.
func (e *FormatError) Error() string {
	if e.Section != "" {
		return fmt.Sprintf("%s:(%s): malformed fatbinary at offset 0x%x of the section (0x%x of the object): %s",
			e.File, e.Section, e.Off, e.Base+e.Off, e.Msg)
	}
	return fmt.Sprintf("%s: malformed fatbinary at offset 0x%x: %s", e.File, e.Off, e.Msg)
}

// Entry is one image of a container.
type Entry struct {
	Kind Kind // ELF (a cubin), PTX or NVVM IR
	// SM is the architecture the image is for, major*10+minor (80 for
	// sm_80, or compute_80 for PTX).
	SM int
	// Major and Minor are the code version: the PTX ISA version for PTX
	// (7.8), the cubin format version for ELF (1.7, printed "[1,7]" by
	// cuobjdump).
	Major, Minor int
	Flags        Flags
	// Name is the identifier (fatbinary --ident), often empty.
	Name string
	// Options are the ptxas options recorded for a PTX entry
	// (fatbinary --cmdline), often empty.
	Options string
	// Off is the offset of the entry header in the input.
	Off uint64
	// HeaderSize is the size of the entry header, strings included.
	HeaderSize uint32
	// Compression says how the payload is stored. Size is the size of the
	// payload once decompressed as declared by the header (for an
	// uncompressed payload, its stored size including padding).
	Compression Compression
	Size        uint64

	file string
	// section and base are the parser's: where in file the fatbinary is.
	section string
	base    uint64
	// raw is the payload as stored: exactly the compressed bytes for a
	// compressed entry, the whole (8-byte padded) payload otherwise.
	raw []byte
	// rawOff is the offset of raw in the input.
	rawOff uint64
	// stored is the entry as the input holds it: its header, then its
	// payload.
	stored []byte
}

// Stored says where the entry's payload is stored, as FormatError gives
// offsets: section is the host object's section that holds the fatbinary
// ("" for a .fatbin file), off the payload's offset in the fatbinary and
// fileOff its offset in the file. Errors found inside the image give
// offsets in the image; these say where the image is.
func (e Entry) Stored() (section string, off, fileOff uint64) {
	return e.section, e.rawOff, e.base + e.rawOff
}

// Is64Bit reports whether the entry is for a 64-bit host.
func (e Entry) Is64Bit() bool { return e.Flags&Flag64Bit != 0 }

// Raw returns the payload as stored in the container (compressed or not),
// a window into the parsed input.
func (e Entry) Raw() []byte { return e.raw }

// Container returns a fatbinary of this entry alone, as the input stores
// it (header and payload, compressed or encoded as they are).
func (e Entry) Container() []byte {
	out := make([]byte, HeaderSize, HeaderSize+len(e.stored))
	binary.LittleEndian.PutUint32(out, Magic)
	binary.LittleEndian.PutUint16(out[4:], Version)
	binary.LittleEndian.PutUint16(out[6:], HeaderSize)
	binary.LittleEndian.PutUint64(out[8:], uint64(len(e.stored)))
	return append(out, e.stored...)
}

// String describes the entry: kind, architecture, versions, flags and ident.
func (e Entry) String() string {
	s := fmt.Sprintf("%s sm_%d [%d,%d] %s", e.Kind, e.SM, e.Major, e.Minor, e.Flags)
	if e.Name != "" {
		s += " ident=" + e.Name
	}
	return s
}

// IsFatbin reports whether data begins with a fatbinary container header.
func IsFatbin(data []byte) bool {
	return len(data) >= HeaderSize && binary.LittleEndian.Uint32(data) == Magic
}

// First returns the first container of data, header and body: what
// nvlink reads of a host object's __nv_relfatbin, where `ld -r` puts the
// containers of several objects back to back. It returns data itself when
// its first header cannot be read (Parse then says why).
func First(data []byte) []byte {
	if !IsFatbin(data) {
		return data
	}
	size := uint64(len(data))
	hdr := uint64(binary.LittleEndian.Uint16(data[6:]))
	body := binary.LittleEndian.Uint64(data[8:])
	if hdr < HeaderSize || hdr > size || body > size-hdr {
		return data
	}
	return data[:hdr+body]
}

// Parse reads every container in data (back-to-back containers are read in
// order; zero padding after the last one is ignored) and returns their
// entries in file order. name is used in errors only.
func Parse(name string, data []byte) ([]Entry, error) {
	p := parser{file: name, data: data}
	return p.parse()
}

// ParseSection is Parse for a fatbinary held in section of the file name
// at offset base (a host object's __nv_relfatbin): its errors, and those of
// its entries' Data, name the section and give offsets in both.
func ParseSection(name, section string, base uint64, data []byte) ([]Entry, error) {
	p := parser{file: name, section: section, base: base, data: data}
	return p.parse()
}

type parser struct {
	file    string
	section string
	base    uint64
	data    []byte
}

func (p *parser) errorf(off uint64, format string, args ...any) error {
	return &FormatError{File: p.file, Section: p.section, Base: p.base, Off: off, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) parse() ([]Entry, error) {
	data := p.data
	if len(data) == 0 {
		return nil, p.errorf(0, "empty input")
	}
	var entries []Entry
	off := uint64(0)
	size := uint64(len(data))
	for off < size {
		if off > 0 && allZero(data[off:]) {
			break // section padding after the last container
		}
		next, err := p.container(off, &entries)
		if err != nil {
			return nil, err
		}
		off = next
	}
	return entries, nil
}

// container parses the container at off, appends its entries, and returns
// the offset just past it.
func (p *parser) container(off uint64, entries *[]Entry) (uint64, error) {
	data := p.data
	size := uint64(len(data))
	if size-off < HeaderSize {
		return 0, p.errorf(off, "truncated container header: %d bytes left, need %d", size-off, HeaderSize)
	}
	h := data[off:]
	if m := binary.LittleEndian.Uint32(h); m != Magic {
		return 0, p.errorf(off, "bad magic 0x%08x, want 0x%08x", m, uint32(Magic))
	}
	if v := binary.LittleEndian.Uint16(h[4:]); v != Version {
		return 0, p.errorf(off+4, "unsupported container version %d", v)
	}
	hdrSize := uint64(binary.LittleEndian.Uint16(h[6:]))
	bodySize := binary.LittleEndian.Uint64(h[8:])
	if hdrSize < HeaderSize || hdrSize > size-off {
		return 0, p.errorf(off+6, "container header size %d out of range", hdrSize)
	}
	start := off + hdrSize
	if bodySize > size-start {
		return 0, p.errorf(off+8, "container size 0x%x runs past end of input (0x%x bytes left)", bodySize, size-start)
	}
	end := start + bodySize
	for eoff := start; eoff < end; {
		e, next, err := p.entry(eoff, end)
		if err != nil {
			return 0, err
		}
		*entries = append(*entries, e)
		eoff = next
	}
	return end, nil
}

// entry parses the entry header at off, which must lie with its payload
// before end, and returns the entry and the offset of the next one.
func (p *parser) entry(off, end uint64) (Entry, uint64, error) {
	le := binary.LittleEndian
	if end-off < EntryHeaderSize {
		return Entry{}, 0, p.errorf(off, "truncated entry header: %d bytes left, need %d", end-off, EntryHeaderSize)
	}
	h := p.data[off:end]
	e := Entry{
		file:       p.file,
		section:    p.section,
		base:       p.base,
		Off:        off,
		Kind:       Kind(le.Uint16(h[0x00:])),
		HeaderSize: le.Uint32(h[0x04:]),
		Minor:      int(le.Uint16(h[0x18:])),
		Major:      int(le.Uint16(h[0x1a:])),
		SM:         int(le.Uint32(h[0x1c:])),
		Flags:      Flags(le.Uint64(h[0x28:])),
	}
	payloadSize := le.Uint64(h[0x08:])
	compSize := uint64(le.Uint32(h[0x10:]))
	optDesc := uint64(le.Uint32(h[0x14:]))
	nameOff, nameLen := uint64(le.Uint32(h[0x20:])), uint64(le.Uint32(h[0x24:]))
	declared := le.Uint64(h[0x38:])

	hs := uint64(e.HeaderSize)
	if hs < EntryHeaderSize || hs > end-off {
		return Entry{}, 0, p.errorf(off+4, "entry header size %d out of range (%d bytes left in container)", hs, end-off)
	}
	if e.SM < 0 || e.SM > 0xffff {
		return Entry{}, 0, p.errorf(off+0x1c, "implausible SM %d", uint32(e.SM))
	}
	hdr := h[:hs]
	if payloadSize > end-off-hs {
		return Entry{}, 0, p.errorf(off+8, "payload size 0x%x runs past end of container", payloadSize)
	}

	var err error
	if e.Name, err = p.headerString(hdr, off, nameOff, nameLen, 0x20); err != nil {
		return Entry{}, 0, err
	}
	if optDesc != 0 {
		if optDesc < EntryHeaderSize || optDesc > hs-8 {
			return Entry{}, 0, p.errorf(off+0x14, "options descriptor offset 0x%x outside entry header", optDesc)
		}
		oo, ol := uint64(le.Uint32(hdr[optDesc:])), uint64(le.Uint32(hdr[optDesc+4:]))
		if e.Options, err = p.headerString(hdr, off, oo, ol, optDesc); err != nil {
			return Entry{}, 0, err
		}
	}

	payload := p.data[off+hs : off+hs+payloadSize]
	e.rawOff = off + hs
	e.stored = p.data[off : off+hs+payloadSize]
	switch {
	case e.Flags&(FlagCompressedLZ4|FlagCompressedZstd) != 0:
		if compSize == 0 || compSize > payloadSize {
			return Entry{}, 0, p.errorf(off+0x10, "compressed size 0x%x out of range (payload 0x%x)", compSize, payloadSize)
		}
		if declared == 0 {
			return Entry{}, 0, p.errorf(off+0x38, "compressed entry declares no decompressed size")
		}
		e.raw = payload[:compSize]
		e.Size = declared
		e.Compression = CompressionLZ4
		if e.Flags&FlagCompressedZstd != 0 || hasZstdMagic(e.raw) {
			e.Compression = CompressionZstd
		}
	default:
		e.raw = payload
		e.Size = payloadSize
	}
	return e, off + hs + payloadSize, nil
}

// headerString reads the string at [so, so+sl) of an entry header; descOff
// is where the descriptor was read (for errors). An empty descriptor gives "".
func (p *parser) headerString(hdr []byte, off, so, sl, descOff uint64) (string, error) {
	if sl == 0 {
		return "", nil
	}
	hs := uint64(len(hdr))
	if so < EntryHeaderSize || so > hs || sl > hs-so {
		return "", p.errorf(off+descOff, "string at 0x%x+%d outside entry header (size %d)", so, sl, hs)
	}
	s := hdr[so : so+sl]
	// fatbinary stores the length without the NUL; be lenient about a NUL
	// counted in the length.
	for len(s) > 0 && s[len(s)-1] == 0 {
		s = s[:len(s)-1]
	}
	return string(s), nil
}

func hasZstdMagic(b []byte) bool {
	return len(b) >= 4 && binary.LittleEndian.Uint32(b) == zstdMagic
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
