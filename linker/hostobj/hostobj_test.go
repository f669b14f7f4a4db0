package hostobj

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func mustParse(t *testing.T, name string) *Object {
	t.Helper()
	obj, err := Parse(name, readTestdata(t, name))
	if err != nil {
		t.Fatalf("Parse(%s): %v", name, err)
	}
	return obj
}

const hrStatic = "__nv_static_26__9b48992b_5_hr_cu_936f3fb5_"

// TestParseRelocatable: an nvcc -dc object gives its __nv_relfatbin, its
// module id and all six host-reference lists, internal names as patterns.
func TestParseRelocatable(t *testing.T) {
	obj := mustParse(t, "hr.o")
	if obj.Fatbin != nil {
		t.Error("nvcc -dc object has a .nv_fatbin")
	}
	if len(obj.RelFatbin) == 0 || binary.LittleEndian.Uint32(obj.RelFatbin) != 0xBA55ED50 {
		t.Errorf("RelFatbin does not start with a fatbinary header: %.16x", obj.RelFatbin)
	}
	if obj.ModuleID != "_9b48992b_5_hr_cu_936f3fb5" || !reflect.DeepEqual(obj.ModuleIDs, []string{obj.ModuleID}) {
		t.Errorf("module ids = %q %q", obj.ModuleID, obj.ModuleIDs)
	}
	want := [NumRefKinds][]string{
		KernelExtern:   {"_Z4kext*", "_Z5ktmpl*"},
		KernelIntern:   {hrStatic + "*4kint*", hrStatic + "*5ktmpl*"},
		DeviceExtern:   {"dext"},
		DeviceIntern:   {hrStatic + "*dint"},
		ConstantExtern: {"cext"},
		ConstantIntern: {hrStatic + "*cint"},
	}
	for k := RefKind(0); k < NumRefKinds; k++ {
		if !reflect.DeepEqual(obj.HostRefs[k], want[k]) {
			t.Errorf("%v = %q, want %q", k, obj.HostRefs[k], want[k])
		}
	}
	if !obj.HasHostRefSections || !obj.HasHostRefs() {
		t.Error("host-reference lists not reported")
	}
}

// TestSectionsMatchObjcopy: the zero-copy section windows hold exactly the
// bytes objcopy -O binary extracts (hashes recorded by regen.sh).
func TestSectionsMatchObjcopy(t *testing.T) {
	obj := mustParse(t, "hr.o")
	sc := bufio.NewScanner(bytes.NewReader(readTestdata(t, "hr.o.sections")))
	n := 0
	for sc.Scan() {
		name, sum, _ := strings.Cut(sc.Text(), " ")
		s := obj.Section(name)
		if s == nil {
			t.Errorf("section %s missing", name)
			continue
		}
		got := sha256.Sum256(s.Data)
		if hex.EncodeToString(got[:]) != sum {
			t.Errorf("section %s: contents differ from objcopy's", name)
		}
		n++
	}
	if n != 8 {
		t.Errorf("checked %d sections, want 8", n)
	}
}

// TestParseNoHostRefs: a -dc object whose device code host code never uses
// has the lists, all empty.
func TestParseNoHostRefs(t *testing.T) {
	obj := mustParse(t, "plain.o")
	if len(obj.RelFatbin) == 0 || obj.ModuleID == "" {
		t.Errorf("RelFatbin %d bytes, module id %q", len(obj.RelFatbin), obj.ModuleID)
	}
	if !obj.HasHostRefSections || obj.HasHostRefs() {
		t.Errorf("HasHostRefSections %v, HasHostRefs %v", obj.HasHostRefSections, obj.HasHostRefs())
	}
	for k, l := range obj.HostRefs {
		if l == nil || len(l) != 0 {
			t.Errorf("%v = %#v, want empty non-nil", RefKind(k), l)
		}
	}
}

// TestParseWholeProgram: nvcc -c without -rdc gives .nv_fatbin and no
// relocatable device code or lists.
func TestParseWholeProgram(t *testing.T) {
	obj := mustParse(t, "wholeprog.o")
	if obj.RelFatbin != nil || len(obj.Fatbin) == 0 || obj.ModuleID == "" {
		t.Errorf("RelFatbin %d bytes, Fatbin %d bytes, module id %q", len(obj.RelFatbin), len(obj.Fatbin), obj.ModuleID)
	}
	if obj.HasHostRefSections {
		t.Error("whole-program object reports host-reference sections")
	}
}

// TestParseMerged: after ld -r the module ids and lists of both objects are
// concatenated, with alignment padding between them.
func TestParseMerged(t *testing.T) {
	obj := mustParse(t, "merged.o")
	hr, plain := mustParse(t, "hr.o"), mustParse(t, "plain.o")
	if !reflect.DeepEqual(obj.ModuleIDs, []string{hr.ModuleID, plain.ModuleID}) || obj.ModuleID != hr.ModuleID {
		t.Errorf("module ids = %q", obj.ModuleIDs)
	}
	if !bytes.HasPrefix(obj.RelFatbin, hr.RelFatbin) || !bytes.HasSuffix(obj.RelFatbin, plain.RelFatbin) {
		t.Error("merged __nv_relfatbin is not the two containers back to back")
	}
	if !reflect.DeepEqual(obj.HostRefs, hr.HostRefs) {
		t.Errorf("merged lists %q, want hr.o's %q", obj.HostRefs, hr.HostRefs)
	}
}

// TestParseNoDevice: an ordinary object is a host object with no device code.
func TestParseNoDevice(t *testing.T) {
	obj := mustParse(t, "nodevice.o")
	if obj.RelFatbin != nil || obj.Fatbin != nil || obj.ModuleID != "" || obj.HasHostRefSections {
		t.Errorf("device code found in a plain C object: %+v", obj)
	}
}

func TestIsHostObject(t *testing.T) {
	for _, name := range []string{"hr.o", "plain.o", "wholeprog.o", "merged.o", "nodevice.o"} {
		if !IsHostObject(readTestdata(t, name)) {
			t.Errorf("IsHostObject(%s) = false", name)
		}
	}
	hr := readTestdata(t, "hr.o")
	cubin := append([]byte(nil), hr...)
	binary.LittleEndian.PutUint16(cubin[18:], 190)
	exec := append([]byte(nil), hr...)
	binary.LittleEndian.PutUint16(exec[16:], 2)
	for name, data := range map[string][]byte{
		"empty": nil, "short": hr[:20], "cubin": cubin, "ET_EXEC": exec,
		"archive": []byte("!<arch>\n" + strings.Repeat(" ", 60)),
	} {
		if IsHostObject(data) {
			t.Errorf("IsHostObject(%s) = true", name)
		}
	}
}

func isFormatError(err error, file string) bool {
	var fe *FormatError
	return errors.As(err, &fe) && fe.File == file && strings.HasPrefix(fe.Error(), file+": ")
}

// TestMalformed: every class of damage gives a *FormatError naming the file.
func TestMalformed(t *testing.T) {
	good := readTestdata(t, "hr.o")
	le := binary.LittleEndian
	shoff := le.Uint64(good[0x28:])
	shnum := uint64(le.Uint16(good[0x3c:]))
	obj := mustParse(t, "hr.o")
	var relIdx uint64
	for i, s := range obj.Sections {
		if s.Name == SectionRelFatbin {
			relIdx = uint64(i)
		}
	}
	sh := func(i uint64) uint64 { return shoff + i*shdrSize }
	mutate := func(f func(b []byte)) []byte {
		b := append([]byte(nil), good...)
		f(b)
		return b
	}
	cases := map[string][]byte{
		"empty":            nil,
		"short":            good[:40],
		"not ELF":          mutate(func(b []byte) { b[0] = 0 }),
		"ELF32":            mutate(func(b []byte) { b[4] = 1 }),
		"big endian":       mutate(func(b []byte) { b[5] = 2 }),
		"not x86-64":       mutate(func(b []byte) { le.PutUint16(b[18:], 190) }),
		"not REL":          mutate(func(b []byte) { le.PutUint16(b[16:], 3) }),
		"shoff past end":   mutate(func(b []byte) { le.PutUint64(b[0x28:], 1<<62) }),
		"shentsize":        mutate(func(b []byte) { le.PutUint16(b[0x3a:], 40) }),
		"shnum huge":       mutate(func(b []byte) { le.PutUint16(b[0x3c:], 0xfff0) }),
		"shnum extended":   mutate(func(b []byte) { le.PutUint16(b[0x3c:], 0); le.PutUint64(b[shoff+0x20:], 1<<60) }),
		"shstrndx":         mutate(func(b []byte) { le.PutUint16(b[0x3e:], uint16(shnum)) }),
		"shstrndx xindex":  mutate(func(b []byte) { le.PutUint16(b[0x3e:], SHN_XINDEX); le.PutUint32(b[shoff+0x28:], 1<<30) }),
		"section past end": mutate(func(b []byte) { le.PutUint64(b[sh(relIdx)+0x20:], 1<<63) }),
		"section off":      mutate(func(b []byte) { le.PutUint64(b[sh(relIdx)+0x18:], 1<<63) }),
		"name past table":  mutate(func(b []byte) { le.PutUint32(b[sh(relIdx):], 1<<31) }),
		"nobits relfatbin": mutate(func(b []byte) { le.PutUint32(b[sh(relIdx)+4:], SHT_NOBITS) }),
		"duplicate":        mutate(func(b []byte) { copy(b[sh(relIdx+1):sh(relIdx+2)], b[sh(relIdx):sh(relIdx+1)]) }),
	}
	for name, data := range cases {
		if _, err := Parse("bad.o", data); !isFormatError(err, "bad.o") {
			t.Errorf("%s: got %v, want a FormatError naming bad.o", name, err)
		}
	}
}

func TestRefKindString(t *testing.T) {
	if KernelIntern.String() != ".nvHRKI" || ConstantExtern.String() != ".nvHRCE" || RefKind(9).String() != "RefKind(9)" {
		t.Error("RefKind names")
	}
}

// FuzzParse: no input makes Parse panic or allocate beyond the bounds, and
// every window it returns lies inside the input.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"hr.o", "plain.o", "wholeprog.o", "merged.o", "nodevice.o"} {
		f.Add(readTestdata(f, name))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		obj, err := Parse("fuzz", data)
		if err != nil {
			if !isFormatError(err, "fuzz") {
				t.Fatalf("error is not a FormatError: %v", err)
			}
			return
		}
		for _, s := range obj.Sections {
			if len(s.Data) > 0 && (s.Offset+uint64(len(s.Data)) > uint64(len(data)) || &s.Data[:1][0] != &data[s.Offset]) {
				t.Fatalf("section %q window outside the input", s.Name)
			}
		}
		obj.HasHostRefs()
	})
}
