package linker

import (
	"encoding/binary"
	"fmt"
	"iter"

	"github.com/cudalink/cudalink/linker/cubin"
)

var le = binary.LittleEndian

// .nv.info record formats.
const (
	eifmtNVal = 1 // no value
	eifmtBVal = 2 // one byte
	eifmtHVal = 3 // two bytes
	eifmtSVal = 4 // u16 size, then that many bytes
)

// infoRecord is one .nv.info record: format, attribute and payload (for
// EIFMT_BVAL/HVAL the two value bytes).
type infoRecord struct {
	format  uint8
	attr    cubin.Attr
	payload []byte
}

// symWord says whether the record's first payload word is a symbol index.
func (r infoRecord) symWord() bool {
	if r.format != eifmtSVal || len(r.payload) < 4 {
		return false
	}
	switch r.attr {
	case cubin.EIATTR_IMAGE_SLOT, cubin.EIATTR_IMAGE_OFFSET, cubin.EIATTR_IMAGE_SIZE,
		cubin.EIATTR_TEXTURE_NORMALIZED, cubin.EIATTR_SAMPLER_INIT, cubin.EIATTR_PARAM_CBANK,
		cubin.EIATTR_FRAME_SIZE, cubin.EIATTR_MIN_STACK_SIZE, cubin.EIATTR_SAMPLER_FORCE_UNNORMALIZED,
		cubin.EIATTR_BINDLESS_IMAGE_OFFSETS, cubin.EIATTR_MAX_STACK_SIZE, cubin.EIATTR_REGCOUNT,
		cubin.EIATTR_LOAD_CACHE_REQUEST, cubin.EIATTR_SAM_REGION_STACK_SIZE:
		return true
	}
	return false
}

// sym returns the symbol index of a record for which symWord is true.
func (r infoRecord) sym() uint32 { return le.Uint32(r.payload) }

// value returns the u32 after the symbol index (FRAME_SIZE, REGCOUNT, ...).
func (r infoRecord) value() uint32 {
	if len(r.payload) < 8 {
		return 0
	}
	return le.Uint32(r.payload[4:])
}

// walkInfo checks the records of a .nv.info section and calls yield with
// each, until yield returns false. The records' payloads are windows of
// the section's bytes.
func walkInfo(file *Object, sec *cubin.Section, yield func(infoRecord) bool) error {
	data := sec.Data
	for off := 0; off < len(data); {
		if len(data)-off < 4 {
			return infoError(file, sec, off, "record header truncated")
		}
		r := infoRecord{format: data[off], attr: cubin.Attr(data[off+1])}
		switch r.format {
		case eifmtNVal, eifmtBVal, eifmtHVal:
			r.payload = data[off+2 : off+4]
			off += 4
		case eifmtSVal:
			n := int(le.Uint16(data[off+2:]))
			if n > len(data)-off-4 {
				return infoError(file, sec, off, fmt.Sprintf("%s record of %d bytes runs past the section", r.attr.Name(file.ELF.Header.Version), n))
			}
			r.payload = data[off+4 : off+4+n]
			off += 4 + n
			if off%4 != 0 && off < len(data) {
				off += 4 - off%4 // records are 4-byte aligned
			}
		default:
			return infoError(file, sec, off, fmt.Sprintf("unknown record format %d", r.format))
		}
		if r.symWord() && r.sym() >= uint32(len(file.ELF.Symbols)) {
			return infoError(file, sec, off, fmt.Sprintf("%s names symbol %d, out of range", r.attr.Name(file.ELF.Header.Version), r.sym()))
		}
		if !yield(r) {
			return nil
		}
	}
	return nil
}

func infoError(file *Object, sec *cubin.Section, off int, msg string) error {
	return &cubin.FormatError{File: file.Name, Off: file.ELF.Offset(sec) + uint64(off), Msg: sec.Name + ": " + msg}
}

// appendFunctionInfo appends to dst the records of a per-function
// .nv.info section. They are decoded when a pass reads them (buildFunctions,
// then the metadata passes, each into a buffer it reuses) rather than kept
// with the parse: the records take several times the section's bytes. An
// error is reported by the pass that reads the section.
func (file *Object) appendFunctionInfo(dst []infoRecord, sec *cubin.Section) ([]infoRecord, error) {
	err := walkInfo(file, sec, func(r infoRecord) bool {
		dst = append(dst, r)
		return true
	})
	return dst, err
}

// globalRec is a record of a file's module-wide .nv.info that every link
// reads: one naming a symbol in its first word (symWord), or an
// EIATTR_GEN_ERRBAR_AT_EXIT marker (sym and value 0).
type globalRec struct {
	sym, value uint32 // value as infoRecord.value
	attr       cubin.Attr
	format     uint8
}

// checkGlobalInfo checks the records of the module-wide .nv.info sections
// of a file, notes the sections for globalInfo, and keeps the records
// buildFunctions and infoOrder read (Object.globalRecs), so that those
// passes do not decode the sections again: 12 bytes a record, the size of
// a symbol record in the section.
func checkGlobalInfo(file *Object) error {
	n := 0
	for _, s := range file.ELF.Sections {
		if s.Type == cubin.SHT_CUDA_INFO && s.Name == ".nv.info" {
			n += len(s.Data) / 12 // a symbol record is 12 bytes
		}
	}
	recs := make([]globalRec, 0, n)
	for _, s := range file.ELF.Sections {
		if s.Type == cubin.SHT_CUDA_INFO && s.Name == ".nv.info" {
			if err := walkInfo(file, s, func(r infoRecord) bool {
				switch {
				case r.symWord():
					recs = append(recs, globalRec{sym: r.sym(), value: r.value(), attr: r.attr, format: r.format})
				case r.attr == cubin.EIATTR_GEN_ERRBAR_AT_EXIT && r.format == eifmtNVal:
					recs = append(recs, globalRec{attr: r.attr, format: r.format})
				}
				return true
			}); err != nil {
				return err
			}
			file.info = append(file.info, s)
		}
	}
	file.globalRecs = recs
	return nil
}

// globalInfo yields the records of the file's module-wide .nv.info, in
// file order (checked by checkGlobalInfo when the file was parsed).
func (file *Object) globalInfo() iter.Seq[infoRecord] {
	return func(yield func(infoRecord) bool) {
		more := true
		for _, s := range file.info {
			walkInfo(file, s, func(r infoRecord) bool {
				more = yield(r)
				return more
			})
			if !more {
				return
			}
		}
	}
}

// Call graph markers in .nv.callgraph.
const (
	cgCalls     = 0xffffffff // -1: (caller, callee) edges follow
	cgAddrTaken = 0xfffffffe // -2: (function, prototype) address-taken functions
	cgIndirect  = 0xfffffffd // -3: (caller, prototype) indirect call sites
	cgRefs      = 0xfffffffc // -4 (CUDA 12): (function, function it takes the address of)
)

// decodeCallgraph reads .nv.callgraph and .nv.prototype of a file.
func decodeCallgraph(file *Object) error {
	ef := file.ELF
	nsyms := uint32(len(ef.Symbols))
	var strtab []byte
	if ef.Symtab != nil {
		strtab = ef.Sections[ef.Symtab.Link].Data
	}
	proto := func(s *cubin.Section, off int, p uint32) error {
		if _, ok := file.protoStrings[p]; ok || p == 0 {
			return nil
		}
		str, ok := cstr(strtab, p)
		if !ok {
			return &cubin.FormatError{File: file.Name, Off: ef.Offset(s) + uint64(off), Msg: fmt.Sprintf("%s: prototype string offset 0x%x out of range", s.Name, p)}
		}
		if file.protoStrings == nil {
			file.protoStrings = map[uint32]string{}
		}
		file.protoStrings[p] = str
		return nil
	}
	// The records' counts first, so that each list is allocated once, at
	// its size.
	var nCalls, nAddrTaken, nIndirect, nRefs int
	nproto := 0
	for _, s := range ef.Sections {
		switch s.Type {
		case cubin.SHT_CUDA_CALLGRAPH:
			var group uint32
			for off := 0; off+8 <= len(s.Data); off += 8 {
				if b := le.Uint32(s.Data[off+4:]); le.Uint32(s.Data[off:]) == 0 && b >= cgRefs {
					group = b
					continue
				}
				switch group {
				case cgCalls:
					nCalls++
				case cgAddrTaken:
					nAddrTaken++
				case cgIndirect:
					nIndirect++
				case cgRefs:
					nRefs++
				}
			}
		case cubin.SHT_CUDA_PROTOTYPE:
			nproto += len(s.Data) / 8
		}
	}
	file.calls = make([][2]uint32, 0, nCalls)
	file.addrTaken = make([][2]uint32, 0, nAddrTaken)
	file.indirect = make([][2]uint32, 0, nIndirect)
	file.refs = make([][2]uint32, 0, nRefs)
	file.protoList = make([]prototype, 0, nproto)
	for _, s := range ef.Sections {
		switch s.Type {
		case cubin.SHT_CUDA_CALLGRAPH:
			var group uint32
			for off := 0; off+8 <= len(s.Data); off += 8 {
				a, b := le.Uint32(s.Data[off:]), le.Uint32(s.Data[off+4:])
				if a == 0 && b >= cgRefs {
					group = b
					continue
				}
				bad := func(what string, v uint32) error {
					return &cubin.FormatError{File: file.Name, Off: ef.Offset(s) + uint64(off), Msg: fmt.Sprintf("%s: %s symbol index %d is the null symbol or out of range", s.Name, what, v)}
				}
				if a == 0 || a >= nsyms {
					return bad("caller", a)
				}
				switch group {
				case cgCalls:
					if b == 0 || b >= nsyms {
						return bad("callee", b)
					}
					file.calls = append(file.calls, [2]uint32{a, b})
				case cgAddrTaken:
					if err := proto(s, off, b); err != nil {
						return err
					}
					file.addrTaken = append(file.addrTaken, [2]uint32{a, b})
				case cgIndirect:
					if err := proto(s, off, b); err != nil {
						return err
					}
					file.indirect = append(file.indirect, [2]uint32{a, b})
				case cgRefs:
					if b == 0 || b >= nsyms {
						return bad("referenced function", b)
					}
					file.refs = append(file.refs, [2]uint32{a, b})
				}
			}
		case cubin.SHT_CUDA_PROTOTYPE:
			for off := 0; off+8 <= len(s.Data); off += 8 {
				a, p := le.Uint32(s.Data[off:]), le.Uint32(s.Data[off+4:])
				if a == 0 || a >= nsyms {
					return &cubin.FormatError{File: file.Name, Off: ef.Offset(s) + uint64(off), Msg: fmt.Sprintf("%s: symbol %d out of range", s.Name, a)}
				}
				if err := proto(s, off, p); err != nil {
					return err
				}
				file.protoList = append(file.protoList, prototype{a, file.protoStrings[p]})
			}
		}
	}
	return nil
}

// cstr returns the NUL-terminated string at off in tab.
func cstr(tab []byte, off uint32) (string, bool) {
	if uint64(off) >= uint64(len(tab)) {
		return "", false
	}
	for i := int(off); i < len(tab); i++ {
		if tab[i] == 0 {
			return string(tab[off:i]), true
		}
	}
	return "", false
}
