package archive

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cudalink/cudalink/linker/fatbin"
	"github.com/cudalink/cudalink/linker/hostobj"
)

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func mustParse(t *testing.T, name string) *Archive {
	t.Helper()
	ar, err := Parse(name, readTestdata(t, name))
	if err != nil {
		t.Fatalf("Parse(%s): %v", name, err)
	}
	return ar
}

// arListing returns, per archive, the member names and sizes that `ar tv`
// printed when regen.sh ran.
func arListing(t *testing.T) map[string][]string {
	out := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(readTestdata(t, "members.txt")))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		out[f[0]] = append(out[f[0]], f[2]+" "+f[1])
	}
	return out
}

func listing(ar *Archive) []string {
	var out []string
	for _, m := range ar.Members {
		out = append(out, m.Name+" "+strconv.Itoa(len(m.Data)))
	}
	return out
}

// TestMembersMatchAr: member names (short and from the // table) and sizes
// are what ar itself lists, in order, and the data are zero-copy windows.
func TestMembersMatchAr(t *testing.T) {
	want := arListing(t)
	for _, file := range []string{"librdc.a", "cubins.a"} {
		data := readTestdata(t, file)
		ar, err := Parse(file, data)
		if err != nil {
			t.Fatal(err)
		}
		if got := listing(ar); strings.Join(got, ",") != strings.Join(want[file], ",") {
			t.Errorf("%s: members %q, want %q", file, got, want[file])
		}
		for _, m := range ar.Members {
			if len(m.Data) > 0 && &m.Data[0] != &data[m.Off+HeaderSize] {
				t.Errorf("%s: member %s is not a window into the archive", file, m.Name)
			}
		}
	}
}

// TestOddSizePadding: a 3-byte member is followed by a padding byte and the
// next member is still found.
func TestOddSizePadding(t *testing.T) {
	ar := mustParse(t, "cubins.a")
	if len(ar.Members) != 3 || string(ar.Members[1].Data) != "odd" {
		t.Fatalf("members = %q", listing(ar))
	}
	if next := ar.Members[2].Off; next != ar.Members[1].Off+HeaderSize+4 {
		t.Errorf("member after odd-size member at 0x%x", next)
	}
	if string(ar.Members[0].Data[:4]) != "\x7fELF" || string(ar.Members[2].Data[:4]) != "\x7fELF" {
		t.Error("cubin members do not start with an ELF header")
	}
}

// TestSymbolTable: the "/" index maps every symbol nm -s lists to the right
// member, in order (GNU ar indexes any ELF member, cubins included);
// duplicates keep the first member for Lookup.
func TestSymbolTable(t *testing.T) {
	want := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(readTestdata(t, "symbols.txt"))), "\n") {
		file, rest, _ := strings.Cut(line, " ")
		want[file] = append(want[file], rest)
	}
	for _, file := range []string{"librdc.a", "cubins.a"} {
		ar := mustParse(t, file)
		var got []string
		for _, s := range ar.Symbols {
			got = append(got, s.Name+" in "+ar.Members[s.Member].Name)
		}
		if strings.Join(got, "\n") != strings.Join(want[file], "\n") {
			t.Errorf("%s symbols:\n%s\nwant:\n%s", file, strings.Join(got, "\n"), strings.Join(want[file], "\n"))
		}
	}
	ar := mustParse(t, "librdc.a")
	if i, ok := ar.Lookup("lib_var"); !ok || i != 1 {
		t.Errorf("Lookup(lib_var) = %d, %v", i, ok)
	}
	if i, ok := ar.Lookup("hostRefKernelArrayExternalLinkage"); !ok || i != 0 {
		t.Errorf("Lookup of a symbol in both members = %d, %v; want the first", i, ok)
	}
	if _, ok := ar.Lookup("nope"); ok {
		t.Error("Lookup(nope) found something")
	}
}

// TestRdcLibraryMembers: every member of an nvcc -rdc=true -lib archive is a
// host object with relocatable device code for sm_80.
func TestRdcLibraryMembers(t *testing.T) {
	ar := mustParse(t, "librdc.a")
	for _, m := range ar.Members {
		if !hostobj.IsHostObject(m.Data) {
			t.Errorf("%s is not a host object", m.Name)
			continue
		}
		obj, err := hostobj.Parse(m.Name, m.Data)
		if err != nil {
			t.Fatal(err)
		}
		entries, err := fatbin.Parse(m.Name, obj.RelFatbin)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := fatbin.Select(entries, 80); !ok {
			t.Errorf("%s: no sm_80 cubin", m.Name)
		}
	}
}

// findLibcudadevrt looks for the installed CUDA device runtime library.
func findLibcudadevrt() string {
	var dirs []string
	for _, env := range []string{"CUDA_HOME", "CUDA_PATH"} {
		if d := os.Getenv(env); d != "" {
			dirs = append(dirs, filepath.Join(d, "lib64"), filepath.Join(d, "lib"))
		}
	}
	dirs = append(dirs, "/usr/lib/x86_64-linux-gnu", "/usr/local/cuda/lib64", "/usr/local/cuda/targets/x86_64-linux/lib",
		"/usr/lib/cuda/lib64", "/opt/cuda/lib64")
	for _, d := range dirs {
		p := filepath.Join(d, "libcudadevrt.a")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// TestLibcudadevrt: the real libcudadevrt.a (CUDA 11.8) is one host object,
// cuda_device_runtime.o, whose __nv_relfatbin holds cubins for sm_35…sm_90
// and compute_90 PTX.
func TestLibcudadevrt(t *testing.T) {
	path := findLibcudadevrt()
	if path == "" {
		t.Skip("SKIPPING: libcudadevrt.a not found (set CUDA_HOME); the real device runtime library is not tested")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ar, err := Parse(path, data)
	if err != nil {
		t.Fatal(err)
	}
	if len(ar.Members) != 1 || ar.Members[0].Name != "cuda_device_runtime.o" {
		t.Fatalf("members = %q", listing(ar))
	}
	obj, err := hostobj.Parse("cuda_device_runtime.o", ar.Members[0].Data)
	if err != nil {
		t.Fatal(err)
	}
	// The index holds host symbols only (device functions such as
	// cudaLaunchDeviceV2 live inside the fatbinary), among them the
	// fatbinary wrapper named after the module id.
	if i, ok := ar.Lookup("__fatbinwrap" + obj.ModuleID); !ok || i != 0 {
		t.Errorf("Lookup(__fatbinwrap%s) = %d, %v", obj.ModuleID, i, ok)
	}
	if _, ok := ar.Lookup("cudaLaunchDeviceV2"); ok {
		t.Error("device function cudaLaunchDeviceV2 in the host symbol index")
	}
	entries, err := fatbin.Parse("cuda_device_runtime.o", obj.RelFatbin)
	if err != nil {
		t.Fatal(err)
	}
	var sms []string
	for _, e := range entries {
		sms = append(sms, fmt.Sprintf("%s%d", map[fatbin.Kind]string{fatbin.KindELF: "sm_", fatbin.KindPTX: "compute_"}[e.Kind], e.SM))
		if _, err := e.Data(); err != nil {
			t.Errorf("%v: %v", e, err)
		}
	}
	t.Logf("%s: %d symbols, module %s, entries %v", path, len(ar.Symbols), obj.ModuleID, sms)
	if len(data) == 1021860 { // the CUDA 11.8.89 build the notes describe
		want := "sm_35 sm_37 sm_50 sm_52 sm_60 sm_61 sm_70 sm_75 sm_80 sm_86 sm_89 compute_90 sm_90"
		if strings.Join(sms, " ") != want {
			t.Errorf("entries %v, want %s", sms, want)
		}
	}
	e, ok := fatbin.Select(entries, 86)
	if !ok || e.SM != 86 {
		t.Errorf("Select(86) = %v, %v", e, ok)
	}
	if !obj.HasHostRefs() {
		t.Error("cuda_device_runtime.o has no host-reference lists")
	}
}

// TestBSDNames: BSD "#1/N" names (not written by GNU ar) are read from the
// start of the member data.
func TestBSDNames(t *testing.T) {
	body := "long_bsd_member_name.o\x00\x00payload" // odd size: a padding byte follows
	data := Magic + header("#1/24", len(body)) + body + "\n" + header("short.o/", 2) + "xy"
	ar, err := Parse("bsd.a", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if got := listing(ar); strings.Join(got, ",") != "long_bsd_member_name.o 7,short.o 2" {
		t.Errorf("members = %q", got)
	}
	if string(ar.Members[0].Data) != "payload" {
		t.Errorf("data = %q", ar.Members[0].Data)
	}
}

// TestSym64: the 64-bit symbol table "/SYM64/" (GNU ar, archives > 4 GiB).
func TestSym64(t *testing.T) {
	var st bytes.Buffer
	binary.Write(&st, binary.BigEndian, uint64(1))
	memberOff := uint64(len(Magic) + HeaderSize + 16 + len("sym\x00"))
	binary.Write(&st, binary.BigEndian, memberOff)
	st.WriteString("sym\x00")
	data := Magic + header("/SYM64/", st.Len()) + st.String() + header("m.o/", 1) + "x\n"
	ar, err := Parse("sym64.a", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if i, ok := ar.Lookup("sym"); !ok || i != 0 || len(ar.Members) != 1 || ar.Members[0].Name != "m.o" {
		t.Errorf("Lookup = %d %v, members %q", i, ok, listing(ar))
	}
}

// header builds a member header.
func header(name string, size int) string {
	return fmt.Sprintf("%-16s%-12s%-6s%-6s%-8s%-10d`\n", name, "0", "0", "0", "644", size)
}

func isFormatError(err error, file string) bool {
	var fe *FormatError
	return errors.As(err, &fe) && fe.File == file && strings.HasPrefix(fe.Error(), file+": ")
}

// TestMalformed: every class of damage gives a *FormatError naming the file.
func TestMalformed(t *testing.T) {
	good := string(readTestdata(t, "librdc.a"))
	symOff := len(Magic) // "/" is the first member
	mutate := func(off int, s string) string { return good[:off] + s + good[off+len(s):] }
	cases := map[string]string{
		"empty":                "",
		"bad magic":            "!<arch>x" + good[8:],
		"thin member no table": ThinMagic + header("/0", 1),
		"truncated header":     Magic + "abc",
		"bad fmag":             mutate(symOff+58, "xx"),
		"bad size":             mutate(symOff+48, "12a       "),
		"size past end":        mutate(symOff+48, "9999999999"),
		"symbol count huge":    mutate(symOff+HeaderSize, "\xff\xff\xff\xff"),
		"symbol offset":        mutate(symOff+HeaderSize+4, "\x00\x00\x00\x09"),
		"long name no table":   Magic + header("/0", 1) + "x\n",
		"long name offset":     Magic + header("//", 4) + "a/\n\n" + header("/99", 1) + "x\n",
		"bad long ref":         Magic + header("//", 4) + "a/\n\n" + header("/x", 1) + "x\n",
		"bsd name too long":    Magic + header("#1/99", 2) + "ab",
		"two symtabs":          Magic + header("/", 4) + "\x00\x00\x00\x00" + header("/", 4) + "\x00\x00\x00\x00",
		"two long tables":      Magic + header("//", 2) + "\n\n" + header("//", 2) + "\n\n",
		"unterminated sym":     Magic + header("/", 9) + "\x00\x00\x00\x01\x00\x00\x00\x08x",
	}
	for name, data := range cases {
		if _, err := Parse("bad.a", []byte(data)); !isFormatError(err, "bad.a") {
			t.Errorf("%s: got %v, want a FormatError naming bad.a", name, err)
		}
	}
	// A thin archive with only the magic is empty too.
	if ar, err := Parse("thin.a", []byte(ThinMagic)); err != nil || len(ar.Members) != 0 || !ar.Thin {
		t.Errorf("empty thin archive: %v, %v", ar, err)
	}
	// An archive with only the magic is empty, not malformed.
	if ar, err := Parse("empty.a", []byte(Magic)); err != nil || len(ar.Members) != 0 {
		t.Errorf("empty archive: %v, %v", ar, err)
	}
}

// TestWalkHeaders: WalkHeaders finds the members Parse finds, at the same
// offsets and sizes, after the tables (the odd-size member's padding
// skipped); it stops where yield says, and says false at a damaged header.
func TestWalkHeaders(t *testing.T) {
	for _, file := range []string{"librdc.a", "cubins.a"} {
		data := readTestdata(t, file)
		ar := mustParse(t, file)
		var got []Member
		ok := WalkHeaders(bytes.NewReader(data), int64(len(data)), func(m MemberHeader) bool {
			if m.Name != "/" && m.Name != "//" {
				got = append(got, Member{Off: uint64(m.Off), Size: uint64(m.Size)})
			}
			return true
		})
		if !ok || len(got) != len(ar.Members) {
			t.Fatalf("%s: %v, %d members, want true, %d", file, ok, len(got), len(ar.Members))
		}
		for i, m := range ar.Members {
			if got[i].Off != m.Off || got[i].Size != uint64(len(m.Data)) {
				t.Errorf("%s: member %d at 0x%x, %d bytes, want 0x%x, %d", file, i, got[i].Off, got[i].Size, m.Off, len(m.Data))
			}
		}
		n := 0
		if !WalkHeaders(bytes.NewReader(data), int64(len(data)), func(MemberHeader) bool { n++; return false }) || n != 1 {
			t.Errorf("%s: a yield of false: %d headers, want 1", file, n)
		}
	}
	good := string(readTestdata(t, "librdc.a"))
	for name, data := range map[string]string{
		"bad fmag":      good[:len(Magic)+58] + "xx" + good[len(Magic)+60:],
		"size past end": good[:len(Magic)+48] + "9999999999" + good[len(Magic)+58:],
		"cut header":    good[:len(Magic)+30],
		"not padding":   Magic + header("a.o", 1) + "x\nzz",
	} {
		if WalkHeaders(strings.NewReader(data), int64(len(data)), func(MemberHeader) bool { return true }) {
			t.Errorf("%s: WalkHeaders says true, want false", name)
		}
	}
	if data := Magic + header("a.o", 1) + "x\n\n"; !WalkHeaders(strings.NewReader(data), int64(len(data)), func(MemberHeader) bool { return true }) {
		t.Error("newlines after the last member: WalkHeaders says false, want true")
	}
}

// FuzzParse: no input makes Parse panic or allocate beyond the bounds; every
// member is a window inside the input and every symbol names a member.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"librdc.a", "cubins.a"} {
		f.Add(readTestdata(f, name))
	}
	f.Add([]byte(Magic + header("#1/8", 10) + "name.o\x00\x00ab"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ar, err := Parse("fuzz", data)
		if err != nil {
			if !isFormatError(err, "fuzz") {
				t.Fatalf("error is not a FormatError: %v", err)
			}
			return
		}
		for _, m := range ar.Members {
			if m.Off+HeaderSize+uint64(len(m.Data)) > uint64(len(data)) {
				t.Fatalf("member %q outside the input", m.Name)
			}
		}
		for _, s := range ar.Symbols {
			if s.Member < 0 || s.Member >= len(ar.Members) {
				t.Fatalf("symbol %q names member %d of %d", s.Name, s.Member, len(ar.Members))
			}
		}
	})
}

// TestIsTable: the tables of GNU and BSD archives are tables; members,
// GNU's long-name references and BSD's "#1/N" names are not.
func TestIsTable(t *testing.T) {
	for name, want := range map[string]bool{
		"/": true, "/SYM64/": true, "//": true, "__.SYMDEF": true, "__.SYMDEF SORTED": true,
		"a.o/": false, "/12": false, "#1/20": false, "__.SYM": false, "": false,
	} {
		if got := IsTable(name); got != want {
			t.Errorf("IsTable(%q) = %v, want %v", name, got, want)
		}
	}
}
