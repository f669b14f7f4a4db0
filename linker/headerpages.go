package linker

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"

	"github.com/cudalink/cudalink/linker/archive"
	"github.com/cudalink/cudalink/linker/fatbin"
	"github.com/cudalink/cudalink/linker/hostobj"
)

// headPayloadBytes is how much of each fatbinary payload walkHeaders
// reads: its compression magic, and more than the compressed bytes of an
// ELF header (deferredImage, headerVersion: Head(64)).
const headPayloadBytes = 256

// walkHeaders visits what parsing a library that the link may not need
// reads of it (libcudadevrt.a, parsed lazily: deferredImage): the archive's
// member headers and tables, each host object's ELF header, section header
// table and name table, its module id and host-reference lists, and in its
// fatbinary sections the container and entry headers and each payload's
// first headPayloadBytes. fill(off, n) must make data[off:off+n] readable
// (or say false); walkHeaders reads nothing of data that it did not fill.
//
// It only says where to look: what it misses, the parsers read all the
// same (readHeaders: from the file's mapping, as any other input), and it
// stops at anything it does not expect.
func walkHeaders(data []byte, fill func(off, n uint64) bool) {
	if !fill(0, uint64(len(archive.Magic))) {
		return
	}
	if !archive.IsArchive(data) {
		walkHostObject(data, fill)
		return
	}
	archive.WalkHeaders(filledReader{data, fill}, int64(len(data)), func(m archive.MemberHeader) bool {
		start, n := uint64(m.Start), uint64(m.Size)
		switch name := m.Name; {
		case archive.IsTable(name) || len(name) > 3 && name[:3] == "#1/":
			// The tables, and a BSD name before the member's data.
			return fill(start, n)
		default:
			walkHostObject(data[start:start+n], func(o, n uint64) bool { return fill(start+o, n) })
			return true
		}
	})
}

// filledReader reads data for archive.WalkHeaders, which reads only
// what fill made readable first (walkHeaders).
type filledReader struct {
	data []byte
	fill func(off, n uint64) bool
}

func (r filledReader) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 || off > int64(len(r.data)) {
		return 0, io.EOF
	}
	n := min(len(p), len(r.data)-int(off))
	if !r.fill(uint64(off), uint64(n)) {
		return 0, errNotFilled
	}
	copy(p, r.data[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// errNotFilled is filledReader's error for bytes fill did not make
// readable.
var errNotFilled = errors.New("not filled")

// walkHostObject is walkHeaders for a host object.
func walkHostObject(data []byte, fill func(off, n uint64) bool) {
	const ehdr, shdr = 64, 64
	le := binary.LittleEndian
	size := uint64(len(data))
	if !fill(0, ehdr) || !hostobj.IsHostObject(data) {
		return
	}
	shoff, shnum, shstrndx := le.Uint64(data[0x28:]), uint64(le.Uint16(data[0x3c:])), uint64(le.Uint16(data[0x3e:]))
	if shoff == 0 || shoff > size || shnum == 0 || shnum > (size-shoff)/shdr || shstrndx >= shnum ||
		!fill(shoff, shnum*shdr) {
		return
	}
	section := func(i uint64) (name uint32, off, n uint64, ok bool) {
		sh := data[shoff+i*shdr:]
		name, off, n = le.Uint32(sh), le.Uint64(sh[0x18:]), le.Uint64(sh[0x20:])
		return name, off, n, off <= size && n <= size-off
	}
	_, soff, sn, ok := section(shstrndx)
	if !ok || !fill(soff, sn) {
		return
	}
	names := data[soff : soff+sn]
	for i := uint64(1); i < shnum; i++ {
		nameOff, off, n, ok := section(i)
		if !ok || uint64(nameOff) >= sn {
			continue
		}
		name := names[nameOff:]
		name = name[:max(0, bytes.IndexByte(name, 0))]
		switch string(name) {
		case hostobj.SectionRelFatbin, hostobj.SectionFatbin:
			walkFatbin(data[off:off+n], func(o, m uint64) bool { return fill(off+o, m) })
		case hostobj.SectionModuleID, hostobj.KernelExtern.String(), hostobj.KernelIntern.String(),
			hostobj.DeviceExtern.String(), hostobj.DeviceIntern.String(),
			hostobj.ConstantExtern.String(), hostobj.ConstantIntern.String():
			fill(off, n)
		}
	}
}

// walkFatbin is walkHeaders for a fatbinary section.
func walkFatbin(data []byte, fill func(off, n uint64) bool) {
	le := binary.LittleEndian
	size := uint64(len(data))
	for off := uint64(0); off < size; {
		if size-off < fatbin.HeaderSize || !fill(off, fatbin.HeaderSize) || le.Uint32(data[off:]) != fatbin.Magic {
			// The padding after the last container, which parsing reads
			// to its end.
			fill(off, size-off)
			return
		}
		hdr, body := uint64(le.Uint16(data[off+6:])), le.Uint64(data[off+8:])
		if hdr < fatbin.HeaderSize || hdr > size-off || body > size-off-hdr {
			return
		}
		end := off + hdr + body
		for e := off + hdr; end-e >= fatbin.EntryHeaderSize; {
			if !fill(e, fatbin.EntryHeaderSize) {
				return
			}
			hs, payload := uint64(le.Uint32(data[e+4:])), le.Uint64(data[e+8:])
			if hs < fatbin.EntryHeaderSize || hs > end-e || payload > end-e-hs || !fill(e, hs) {
				return
			}
			fill(e+hs, min(payload, headPayloadBytes))
			e += hs + payload
		}
		off = end
	}
}
