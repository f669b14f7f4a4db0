// Package archive reads Unix `ar` archives in the GNU (System V) format that
// `ar rcs` and `nvcc -lib` write: the `/` (or `/SYM64/`) symbol table, the
// `//` long-name table with `/N` references, and 2-byte padding of members.
// BSD-style `#1/N` names are read too, and so are GNU thin archives
// (`ar rcsT`, magic `!<thin>`), whose members are only headers naming files
// stored outside the archive (Archive.Thin, Member.Size); a thin archive's
// member that GNU ar took from a nested archive, named "/N:M", is named
// after that archive's file (N; M, its offset in that archive, is not kept).
//
// Parsing is zero-copy: member contents, member names and symbol names share
// the input's memory. Every size and offset read from the input is checked
// before use, so a hostile input gives a *FormatError, never a panic or an
// allocation larger than the input justifies.
package archive

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unsafe"
)

// Archive layout.
const (
	Magic     = "!<arch>\n"
	ThinMagic = "!<thin>\n"
	// HeaderSize is the size of a member header.
	HeaderSize = 60

	fmag = "`\n"
)

// FormatError reports a malformed input: the file, the byte offset where the
// problem was found, and what was wrong.
type FormatError struct {
	File string // the archive as named on the command line
	Off  uint64 // where in it the problem was found
	Msg  string // what is wrong
}

// Error names the archive, the byte offset and what is wrong there.
func (e *FormatError) Error() string {
	return fmt.Sprintf("%s: malformed archive at offset 0x%x: %s", e.File, e.Off, e.Msg)
}

// Member is one file of the archive.
type Member struct {
	// Name is the member's file name, resolved through the long-name
	// table, without GNU's trailing '/'.
	Name string
	// Off is the offset of the member's header in the archive.
	Off uint64
	// Data is the member's contents, a window into the archive; nil in a
	// thin archive, where Name is the member's file.
	Data []byte
	// Size is the member's size as its header gives it (in a thin
	// archive, that of the file it names).
	Size uint64
}

// Symbol is one entry of the archive's symbol table: a global symbol that
// the member with index Member (in Archive.Members) defines.
type Symbol struct {
	Name   string // the symbol's name
	Member int    // the index in Archive.Members of the member defining it
}

// Archive is a parsed archive.
type Archive struct {
	// Members are the archive's files in order; the symbol and long-name
	// tables are not members.
	Members []Member
	// Symbols is the symbol table in file order (a name defined by several
	// members appears several times). Empty if the archive has none.
	Symbols []Symbol
	// Thin says the archive is a GNU thin archive: the members' contents
	// are the files their names give, not in the archive.
	Thin bool

	index map[string]int
}

// Lookup returns the index of the first member that defines name according
// to the symbol table.
func (a *Archive) Lookup(name string) (int, bool) {
	i, ok := a.index[name]
	return i, ok
}

// IsThinArchive reports whether data starts with the thin archive magic.
func IsThinArchive(data []byte) bool {
	return len(data) >= len(ThinMagic) && string(data[:len(ThinMagic)]) == ThinMagic
}

// IsArchive reports whether data starts with the ar magic.
func IsArchive(data []byte) bool {
	return len(data) >= len(Magic) && string(data[:len(Magic)]) == Magic
}

// Parse reads the archive in data. name is used in errors only. The Archive
// refers to data, which must not be modified afterwards.
func Parse(name string, data []byte) (*Archive, error) {
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

// zstring makes a string that shares b's memory. Many members may name
// overlapping parts of one long-name table, so copying each name could
// allocate quadratically in the input.
func zstring(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// symtab is a symbol table member, kept until every member's offset is known.
type symtab struct {
	off   uint64 // header offset, for errors
	data  []byte
	width int // 4 for "/", 8 for "/SYM64/"
}

func (p *parser) parse() (*Archive, error) {
	data := p.data
	size := uint64(len(data))
	thin := IsThinArchive(data)
	if !IsArchive(data) && !thin {
		return nil, p.errorf(0, "not an ar archive (no %q magic)", strings.TrimSpace(Magic))
	}
	ar := &Archive{Thin: thin}
	var (
		longNames []byte
		haveLong  bool
		syms      *symtab
	)
	memberAt := map[uint64]int{} // header offset → member index
	for off := uint64(len(Magic)); off < size; {
		// Members start on even offsets; a lone '\n' before a header is
		// the previous member's padding (tolerated where a writer did not
		// count it in the size).
		if size-off < HeaderSize {
			if allByte(data[off:], '\n') {
				break
			}
			return nil, p.errorf(off, "truncated member header: %d bytes left, need %d", size-off, HeaderSize)
		}
		h := data[off : off+HeaderSize]
		if string(h[58:60]) != fmag {
			return nil, p.errorf(off+58, "bad member header terminator %q", h[58:60])
		}
		msize, ok := memberSize(h)
		if !ok {
			return nil, p.errorf(off+48, "bad member size %q", h[48:58])
		}
		start := off + HeaderSize
		rawName := string(bytes.TrimRight(h[0:16], " "))
		// A thin archive holds the symbol and long-name tables; its
		// members' contents are elsewhere.
		inline := !thin || rawName == "/" || rawName == "/SYM64/" || rawName == "//"
		if !inline {
			if strings.HasPrefix(rawName, "#1/") {
				return nil, p.errorf(off, "BSD name %q in a thin archive", rawName)
			}
			m := Member{Off: off, Size: msize}
			if len(rawName) > 1 && rawName[0] == '/' {
				num := rawName[1:]
				// GNU ar names a member it took from a nested
				// archive "/N:M": N is the nested archive's long
				// name, M the member's header offset in it. The
				// name is the nested archive's file (nvlink opens
				// it and reads the thin archive no further: not
				// an object).
				if i := strings.IndexByte(num, ':'); i >= 0 {
					if _, ok := parseDecimal([]byte(num[i+1:])); !ok {
						return nil, p.errorf(off, "bad member name %q", rawName)
					}
					num = num[:i]
				}
				n, ok := parseDecimal([]byte(num))
				if !ok || !haveLong {
					return nil, p.errorf(off, "bad member name %q", rawName)
				}
				name, ok := longName(longNames, n)
				if !ok {
					return nil, p.errorf(off, "long name offset %d outside the // table (%d bytes)", n, len(longNames))
				}
				m.Name = name
			} else {
				m.Name = zstring(bytes.TrimSuffix(bytes.TrimRight(h[0:16], " "), []byte("/")))
			}
			memberAt[off] = len(ar.Members)
			ar.Members = append(ar.Members, m)
			off = start
			continue
		}
		if msize > size-start {
			return nil, p.errorf(off+48, "member size %d runs past end of archive (%d bytes left)", msize, size-start)
		}
		body := data[start : start+msize]
		next := start + msize
		if msize%2 == 1 && next < size {
			next++ // padding byte
		}

		switch {
		case rawName == "/" || rawName == "/SYM64/":
			if syms != nil {
				return nil, p.errorf(off, "second symbol table")
			}
			syms = &symtab{off: off, data: body, width: 4}
			if rawName == "/SYM64/" {
				syms.width = 8
			}
		case rawName == "//":
			if haveLong {
				return nil, p.errorf(off, "second long-name table")
			}
			longNames, haveLong = body, true
		case strings.HasPrefix(rawName, "__.SYMDEF"):
			// BSD symbol table: not used (GNU archives carry "/").
		default:
			m := Member{Off: off, Data: body, Size: msize}
			switch {
			case strings.HasPrefix(rawName, "#1/"):
				// BSD: the name is the first N bytes of the data.
				n, ok := parseDecimal([]byte(rawName[3:]))
				if !ok || n > msize {
					return nil, p.errorf(off, "bad BSD name length in %q", rawName)
				}
				m.Name = zstring(bytes.TrimRight(body[:n], "\x00"))
				m.Data = body[n:]
			case len(rawName) > 1 && rawName[0] == '/':
				n, ok := parseDecimal([]byte(rawName[1:]))
				if !ok {
					return nil, p.errorf(off, "bad member name %q", rawName)
				}
				if !haveLong {
					return nil, p.errorf(off, "long name %q before (or without) the // table", rawName)
				}
				name, ok := longName(longNames, n)
				if !ok {
					return nil, p.errorf(off, "long name offset %d outside the // table (%d bytes)", n, len(longNames))
				}
				m.Name = name
			default:
				m.Name = zstring(bytes.TrimSuffix(bytes.TrimRight(h[0:16], " "), []byte("/")))
			}
			memberAt[off] = len(ar.Members)
			ar.Members = append(ar.Members, m)
		}
		off = next
	}
	if syms != nil {
		if err := p.symbols(ar, syms, memberAt); err != nil {
			return nil, err
		}
	}
	return ar, nil
}

// symbols decodes the GNU symbol table: a big-endian count, that many
// big-endian member header offsets, then that many NUL-terminated names.
func (p *parser) symbols(ar *Archive, st *symtab, memberAt map[uint64]int) error {
	b := st.data
	w := uint64(st.width)
	base := st.off + HeaderSize
	if uint64(len(b)) < w {
		return p.errorf(base, "symbol table too short for its count")
	}
	count := readBE(b, w)
	if count > (uint64(len(b))-w)/w {
		return p.errorf(base, "symbol count %d does not fit in a %d-byte table", count, len(b))
	}
	names := b[w+count*w:]
	// Each name takes at least its NUL, so count is also bounded by the
	// string area: checked before allocating.
	if count > uint64(len(names)) {
		return p.errorf(base, "symbol count %d exceeds the %d-byte name area", count, len(names))
	}
	ar.Symbols = make([]Symbol, 0, count)
	ar.index = make(map[string]int, count)
	for i := uint64(0); i < count; i++ {
		moff := readBE(b[w+i*w:], w)
		idx, ok := memberAt[moff]
		if !ok {
			return p.errorf(base+w+i*w, "symbol %d refers to offset 0x%x, which is not a member header", i, moff)
		}
		end := bytes.IndexByte(names, 0)
		if end < 0 {
			return p.errorf(base+uint64(len(b)-len(names)), "symbol %d name not NUL-terminated", i)
		}
		name := zstring(names[:end])
		names = names[end+1:]
		ar.Symbols = append(ar.Symbols, Symbol{Name: name, Member: idx})
		if _, dup := ar.index[name]; !dup {
			ar.index[name] = idx
		}
	}
	return nil
}

func readBE(b []byte, w uint64) uint64 {
	if w == 8 {
		return binary.BigEndian.Uint64(b)
	}
	return uint64(binary.BigEndian.Uint32(b))
}

// longName returns the name at off in the GNU long-name table, where each
// name ends with "/\n".
func longName(tab []byte, off uint64) (string, bool) {
	if off >= uint64(len(tab)) {
		return "", false
	}
	s := tab[off:]
	if i := bytes.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return zstring(bytes.TrimSuffix(s, []byte("/"))), true
}

// memberSize is the member size the member header h (HeaderSize bytes)
// declares, if it is a space-padded decimal number.
func memberSize(h []byte) (uint64, bool) { return parseDecimal(h[48:58]) }

// parseDecimal parses a space-padded decimal field.
func parseDecimal(b []byte) (uint64, bool) {
	s := strings.TrimRight(string(b), " ")
	if s == "" || len(s) > 19 {
		return 0, false
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	v, err := strconv.ParseUint(s, 10, 64)
	return v, err == nil
}

func allByte(b []byte, c byte) bool {
	for _, x := range b {
		if x != c {
			return false
		}
	}
	return true
}

// MemberHeader is a member header as WalkHeaders finds it.
type MemberHeader struct {
	Off   int64  // the header's offset in the archive
	Name  string // its name field, without the spaces after it
	Start int64  // where the member's data starts (Off+HeaderSize)
	Size  int64  // the member's size, as the header says
}

// WalkHeaders calls yield with each member header of the ar archive that
// r holds (size bytes, magic included), in order, reading the headers
// alone, until yield returns false. It says false at a header that is
// cut, not terminated by "`\n", or declares a size that is not a number
// or runs past the end, and at what cannot be read; the newlines that may
// pad the last member end the walk. Parse reads more, and reports what is
// wrong; ReadsNoObject and the linker's walk of a library's headers
// (walkHeaders) read only this.
func WalkHeaders(r io.ReaderAt, size int64, yield func(MemberHeader) bool) bool {
	var h [HeaderSize]byte
	for off := int64(len(Magic)); off < size; {
		if size-off < HeaderSize {
			n, _ := r.ReadAt(h[:size-off], off)
			return int64(n) == size-off && allByte(h[:n], '\n') // padding: no member after it
		}
		if _, err := r.ReadAt(h[:], off); err != nil || string(h[58:60]) != fmag {
			return false
		}
		msize, ok := memberSize(h[:])
		if !ok || msize > uint64(size-off-HeaderSize) {
			return false
		}
		m := MemberHeader{Off: off, Name: string(bytes.TrimRight(h[0:16], " ")), Start: off + HeaderSize, Size: int64(msize)}
		if !yield(m) {
			return true
		}
		off = m.Start + m.Size + m.Size%2
	}
	return true
}

// IsTable says whether a member header's name (MemberHeader.Name: the
// field without the spaces after it) is one of the archive's tables, not a
// member: the symbol table (GNU's "/" and its 64-bit "/SYM64/", BSD's
// "__.SYMDEF" and "__.SYMDEF SORTED") or GNU's long-name table "//".
// Parse reads each in its own way; ReadsNoObject passes them by, and the
// linker's walk of a library's headers (walkHeaders) reads them whole.
func IsTable(name string) bool {
	return name == "/" || name == "/SYM64/" || name == "//" || strings.HasPrefix(name, "__.SYMDEF")
}

// ReadsNoObject says whether the archive that r holds (size bytes) gives
// a reader that stops at its first member that is not an ELF file no
// object at all: it has no member, or its first member is not ELF. It
// reads only the member headers and the first bytes of the first member;
// an input that is not a well-formed ar archive says false (the full
// parse reports it).
func ReadsNoObject(r io.ReaderAt, size int64) bool {
	var magic [len(Magic)]byte
	if _, err := r.ReadAt(magic[:], 0); err != nil || string(magic[:]) != Magic {
		return false
	}
	none := true
	ok := WalkHeaders(r, size, func(m MemberHeader) bool {
		start, msize := m.Start, uint64(m.Size)
		switch {
		case IsTable(m.Name):
			return true
		case strings.HasPrefix(m.Name, "#1/"):
			n, ok := parseDecimal([]byte(m.Name[3:]))
			if !ok || n > msize {
				none = false
				return false
			}
			start += int64(n)
			msize -= n
		}
		var elf [4]byte
		if msize >= uint64(len(elf)) {
			_, err := r.ReadAt(elf[:], start)
			none = err == nil && string(elf[:]) != "\x7fELF"
		}
		return false
	})
	return ok && none
}
