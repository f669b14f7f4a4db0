// Package hostobj reads the device-code sections of x86-64 host objects made
// by `nvcc -dc` (and `nvcc -c`): the fatbinary payloads nvlink consumes, the
// module id, and the lists of device symbols that host code references.
//
// It has its own minimal ELF64 section reader rather than debug/elf, so that
// every size, offset and count read from the file is checked before use and a
// hostile input gives a *FormatError, never a panic or an allocation larger
// than the input justifies. Section contents are windows into the input.
package hostobj

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"unsafe"
)

// ELF constants used here.
const (
	EM_X86_64 = 62
	EM_CUDA   = 190
	ET_REL    = 1

	SHT_NOBITS = 8

	SHN_UNDEF     = 0
	SHN_LORESERVE = 0xff00
	SHN_XINDEX    = 0xffff

	ehdrSize = 64
	shdrSize = 64
)

// Names of the sections nvcc puts in host objects.
const (
	// SectionRelFatbin holds the fatbinary of relocatable device code
	// (nvcc -dc): what nvlink links.
	SectionRelFatbin = "__nv_relfatbin"
	// SectionFatbin holds the fatbinary of whole-program device code
	// (nvcc -c without -rdc, and nvcc -dlink output).
	SectionFatbin = ".nv_fatbin"
	// SectionModuleID holds the module id string(s), NUL-terminated.
	SectionModuleID = "__nv_module_id"
	// SectionFatbinSegment holds the __fatBinC_Wrapper_t that points at
	// the fatbinary.
	SectionFatbinSegment = ".nvFatBinSegment"
)

// RefKind names one of the host-reference lists: device symbols that host
// code uses (launches, cudaMemcpyToSymbol, ...), split by symbol class and
// linkage. Internal names are wildcard patterns such as
// `__nv_static_21__9a5ab678_4_a_cu_gvar_*7kstatic*`; external kernels also
// end in `*` (`_Z4kadd*`).
type RefKind uint8

const (
	KernelExtern   RefKind = iota // .nvHRKE
	KernelIntern                  // .nvHRKI
	DeviceExtern                  // .nvHRDE: __device__ variables
	DeviceIntern                  // .nvHRDI
	ConstantExtern                // .nvHRCE: __constant__ variables
	ConstantIntern                // .nvHRCI
	NumRefKinds                   // the number of kinds
)

var refSections = [NumRefKinds]string{".nvHRKE", ".nvHRKI", ".nvHRDE", ".nvHRDI", ".nvHRCE", ".nvHRCI"}

// String returns the name of the section that holds the list.
func (k RefKind) String() string {
	if k < NumRefKinds {
		return refSections[k]
	}
	return fmt.Sprintf("RefKind(%d)", uint8(k))
}

// FormatError reports a malformed input: the file, the byte offset where the
// problem was found, and what was wrong.
type FormatError struct {
	File string // the host object as named on the command line
	Off  uint64 // where in it the problem was found
	Msg  string // what is wrong
}

// Error names the object, the byte offset and what is wrong there.
func (e *FormatError) Error() string {
	return fmt.Sprintf("%s: malformed host object at offset 0x%x: %s", e.File, e.Off, e.Msg)
}

// Section is one section header of the object.
type Section struct {
	Name   string // from .shstrtab
	Type   uint32 // sh_type
	Flags  uint64 // sh_flags
	Offset uint64 // sh_offset
	Size   uint64 // sh_size
	// Data is the section's contents, a window into the input (nil for
	// SHT_NOBITS).
	Data []byte
}

// Object is what a host object carries for the device link.
type Object struct {
	// RelFatbin is the contents of __nv_relfatbin (nil if absent): one or
	// more fatbinary containers of relocatable device code.
	RelFatbin []byte
	// Fatbin is the contents of .nv_fatbin (nil if absent): whole-program
	// device code, which nvlink does not link.
	Fatbin []byte
	// ModuleID is the first module id in __nv_module_id, the name nvcc
	// uses for __fatbinwrap<id> and that nvcc -dlink's register file
	// lists. ModuleIDs has all of them (`ld -r` concatenates the section,
	// padding each id with NULs to the section alignment).
	ModuleID  string
	ModuleIDs []string
	// HostRefs are the host-reference lists, indexed by RefKind; an
	// absent or empty section gives an empty list.
	HostRefs [NumRefKinds][]string
	// HasHostRefSections reports whether the object has the .nvHR*
	// sections at all (nvcc -dc always writes them, possibly empty).
	HasHostRefSections bool
	// Sections are all section headers, in file order.
	Sections []Section
}

// HasHostRefs reports whether any host-reference list is non-empty.
func (o *Object) HasHostRefs() bool {
	for _, l := range o.HostRefs {
		if len(l) > 0 {
			return true
		}
	}
	return false
}

// Section returns the first section with the given name, or nil.
func (o *Object) Section(name string) *Section {
	for i := range o.Sections {
		if o.Sections[i].Name == name {
			return &o.Sections[i]
		}
	}
	return nil
}

// IsHostObject reports whether data looks like a relocatable host object:
// ELF64, little-endian, e_type ET_REL, for any machine but CUDA's (x86-64,
// or aarch64 from nvcc on or for an aarch64 host: nvlink reads an nvcc -dc
// object's device code whatever its host machine;
// aarch64-host-object-device-code-linked-sm80).
func IsHostObject(data []byte) bool {
	return len(data) >= ehdrSize && string(data[:4]) == "\x7fELF" && data[4] == 2 && data[5] == 1 &&
		binary.LittleEndian.Uint16(data[16:]) == ET_REL && binary.LittleEndian.Uint16(data[18:]) != EM_CUDA
}

// Parse reads the section headers of the host object in data and the
// device-code sections among them. name is used in errors only. An object
// with no device code at all is not an error: RelFatbin and Fatbin are nil.
// The Object refers to data (section contents and section names share its
// memory), which must not be modified afterwards.
func Parse(name string, data []byte) (*Object, error) {
	p := parser{file: name, data: data}
	return p.parse()
}

type parser struct {
	file string
	data []byte
}

func (p *parser) errorf(off uint64, format string, args ...any) error {
	return &FormatError{File: p.file, Off: off, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) parse() (*Object, error) {
	data := p.data
	size := uint64(len(data))
	le := binary.LittleEndian
	if size < ehdrSize {
		return nil, p.errorf(0, "file too short for an ELF header (%d bytes)", size)
	}
	if string(data[:4]) != "\x7fELF" {
		return nil, p.errorf(0, "not an ELF file")
	}
	if data[4] != 2 || data[5] != 1 {
		return nil, p.errorf(4, "not a little-endian ELF64 file (class %d, data %d)", data[4], data[5])
	}
	if t := le.Uint16(data[16:]); t != ET_REL {
		return nil, p.errorf(16, "e_type %d is not ET_REL", t)
	}
	if m := le.Uint16(data[18:]); m == EM_CUDA {
		return nil, p.errorf(18, "e_machine %d is CUDA's: a cubin, not a host object", m)
	}
	shoff := le.Uint64(data[0x28:])
	shentsize := uint64(le.Uint16(data[0x3a:]))
	shnum := uint64(le.Uint16(data[0x3c:]))
	shstrndx := uint64(le.Uint16(data[0x3e:]))
	if shoff == 0 {
		if shnum != 0 {
			return nil, p.errorf(0x3c, "%d sections but no section header table", shnum)
		}
		return &Object{}, nil
	}
	if shentsize != shdrSize {
		return nil, p.errorf(0x3a, "e_shentsize %d, want %d", shentsize, shdrSize)
	}
	if shoff > size || size-shoff < shdrSize {
		return nil, p.errorf(0x28, "section header table at 0x%x outside the file (0x%x bytes: truncated? rebuild it)", shoff, size)
	}
	// Extended numbering: counts that do not fit in the ELF header live
	// in section 0.
	if shnum == 0 {
		shnum = le.Uint64(data[shoff+0x20:])
	}
	if shstrndx == SHN_XINDEX {
		shstrndx = uint64(le.Uint32(data[shoff+0x28:]))
	}
	if shnum == 0 || shnum > (size-shoff)/shdrSize {
		return nil, p.errorf(0x3c, "section count %d does not fit in the file (0x%x bytes: truncated? rebuild it)", shnum, size)
	}
	if shstrndx == SHN_UNDEF || shstrndx >= shnum {
		return nil, p.errorf(0x3e, "section name table index %d out of range", shstrndx)
	}

	obj := &Object{Sections: make([]Section, shnum)}
	for i := uint64(0); i < shnum; i++ {
		sh := data[shoff+i*shdrSize:]
		s := Section{
			Type:   le.Uint32(sh[4:]),
			Flags:  le.Uint64(sh[8:]),
			Offset: le.Uint64(sh[0x18:]),
			Size:   le.Uint64(sh[0x20:]),
		}
		if s.Type != SHT_NOBITS && i != 0 {
			if s.Offset > size || s.Size > size-s.Offset {
				return nil, p.errorf(shoff+i*shdrSize+0x18, "section %d [0x%x,+0x%x) outside the file (0x%x bytes: truncated? rebuild it)", i, s.Offset, s.Size, size)
			}
			s.Data = data[s.Offset : s.Offset+s.Size]
		}
		obj.Sections[i] = s
	}
	strtab := obj.Sections[shstrndx].Data
	for i := range obj.Sections {
		nameOff := uint64(le.Uint32(data[shoff+uint64(i)*shdrSize:]))
		n, ok := cstring(strtab, nameOff)
		if !ok {
			return nil, p.errorf(shoff+uint64(i)*shdrSize, "section %d name offset 0x%x outside the name table", i, nameOff)
		}
		obj.Sections[i].Name = n
	}

	seen := map[string]bool{}
	for i := range obj.Sections {
		s := &obj.Sections[i]
		kind := -1
		switch s.Name {
		case SectionRelFatbin, SectionFatbin, SectionModuleID:
		default:
			for k, n := range refSections {
				if s.Name == n {
					kind = k
				}
			}
			if kind < 0 {
				continue
			}
		}
		if seen[s.Name] {
			return nil, p.errorf(shoff+uint64(i)*shdrSize, "duplicate section %s", s.Name)
		}
		seen[s.Name] = true
		if s.Type == SHT_NOBITS {
			return nil, p.errorf(shoff+uint64(i)*shdrSize, "section %s has no contents (SHT_NOBITS)", s.Name)
		}
		switch s.Name {
		case SectionRelFatbin:
			obj.RelFatbin = s.Data
		case SectionFatbin:
			obj.Fatbin = s.Data
		case SectionModuleID:
			obj.ModuleIDs = splitNUL(s.Data)
			if len(obj.ModuleIDs) > 0 {
				obj.ModuleID = obj.ModuleIDs[0]
			}
		default:
			obj.HostRefs[kind] = splitNUL(s.Data)
			obj.HasHostRefSections = true
		}
	}
	for k := range obj.HostRefs {
		if obj.HostRefs[k] == nil {
			obj.HostRefs[k] = []string{}
		}
	}
	return obj, nil
}

// cstring returns the NUL-terminated string at off in tab. The string shares
// tab's memory: many section headers may name overlapping parts of one long
// string, and copying each would allocate quadratically in the input.
func cstring(tab []byte, off uint64) (string, bool) {
	if off >= uint64(len(tab)) {
		return "", off == 0 && len(tab) == 0
	}
	s := tab[off:]
	if i := bytes.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	if len(s) == 0 {
		return "", true
	}
	return unsafe.String(&s[0], len(s)), true
}

// splitNUL splits NUL-separated names, dropping empty ones (an empty list is
// a single NUL; `ld -r` leaves alignment padding between lists).
func splitNUL(b []byte) []string {
	out := []string{}
	for len(b) > 0 {
		i := bytes.IndexByte(b, 0)
		if i < 0 {
			i = len(b)
		}
		if i > 0 {
			out = append(out, string(b[:i]))
		}
		b = b[min(i+1, len(b)):]
	}
	return out
}
