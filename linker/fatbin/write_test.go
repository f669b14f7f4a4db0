package fatbin

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func mustWrite(t *testing.T, images []Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, images); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func elfImage(t *testing.T, sm int, file string) Image {
	return Image{Kind: KindELF, SM: sm, Data: readTestdata(t, file)}
}

// TestWriteMatchesFatbinary: Write gives the bytes of
// `fatbinary -64 --create` for one and for two cubins.
func TestWriteMatchesFatbinary(t *testing.T) {
	for _, tc := range []struct {
		golden string
		images []Image
	}{
		{"one.fatbin", []Image{elfImage(t, 80, "k_sm80.cubin")}},
		{"two.fatbin", []Image{elfImage(t, 80, "k_sm80.cubin"), elfImage(t, 86, "k_sm86.cubin")}},
	} {
		if got, want := mustWrite(t, tc.images), readTestdata(t, tc.golden); !bytes.Equal(got, want) {
			t.Errorf("%s: Write output differs (%d vs %d bytes)", tc.golden, len(got), len(want))
		}
	}
}

// TestWriteCUDA12: with HeaderPad set, Write gives the bytes of CUDA 12.4's
// `fatbinary -64 --create`: 0x48-byte ELF entry headers; and the
// arch-specific flag for an sm_90a cubin.
func TestWriteCUDA12(t *testing.T) {
	corpus := "../../tests/corpus/cuda-12.4/cases/"
	for _, tc := range []struct {
		golden, cubin string
		sm            int
	}{
		{"cuda12_sm80.fatbin", "two-file-cross-calls/expected.cubin", 80},
		{"cuda12_sm90a.fatbin", "cuda12-sm90a-wgmma/expected.cubin", 90},
	} {
		data, err := os.ReadFile(corpus + tc.cubin)
		if err != nil {
			t.Fatal(err)
		}
		got := mustWrite(t, []Image{{Kind: KindELF, SM: tc.sm, Data: data, HeaderPad: true}})
		if want := readTestdata(t, tc.golden); !bytes.Equal(got, want) {
			t.Errorf("%s: Write output differs (%d vs %d bytes)", tc.golden, len(got), len(want))
		}
	}
}

// TestWriteCompressesAsFatbinary: fatbinary -64 compresses a debug cubin
// (-g) and a cubin over 10,000,000 bytes as one LZ4 block, and Write gives
// its bytes: debug.fatbin (a 3,200-byte cubin), large.fatbin and
// cuda12_large.fatbin (CUDA 11.8's and 12.4's containers of an nvlink output
// of 10,000,008 bytes, which the test takes back out of them; the same
// cubin 8 bytes shorter is stored as it is).
func TestWriteCompressesAsFatbinary(t *testing.T) {
	debug := Image{Kind: KindELF, SM: 80, Data: readTestdata(t, "k_sm80.cubin"), Debug: true}
	if got, want := mustWrite(t, []Image{debug}), readTestdata(t, "debug.fatbin"); !bytes.Equal(got, want) {
		t.Errorf("debug.fatbin: Write output differs (%d vs %d bytes)", len(got), len(want))
	}
	for _, tc := range []struct {
		golden    string
		headerPad bool
	}{{"large.fatbin", false}, {"cuda12_large.fatbin", true}} {
		entries := mustParse(t, tc.golden)
		if len(entries) != 1 || entries[0].Compression != CompressionLZ4 {
			t.Fatalf("%s: want one LZ4-compressed entry, got %v", tc.golden, entries)
		}
		cubin := mustData(t, entries[0])
		if len(cubin) != compressELFAbove+8 {
			t.Fatalf("%s: the cubin has %d bytes, want %d", tc.golden, len(cubin), compressELFAbove+8)
		}
		got := mustWrite(t, []Image{{Kind: KindELF, SM: 80, Data: cubin, HeaderPad: tc.headerPad}})
		if want := readTestdata(t, tc.golden); !bytes.Equal(got, want) {
			t.Errorf("%s: Write output differs (%d vs %d bytes)", tc.golden, len(got), len(want))
		}
		// 8 bytes fewer (a cubin's size stays a multiple of 8): stored as it is.
		short := mustWrite(t, []Image{{Kind: KindELF, SM: 80, Data: cubin[:compressELFAbove], HeaderPad: tc.headerPad}})
		if e, err := Parse("short", short); err != nil || e[0].Compression != CompressionNone {
			t.Errorf("%s: a cubin of %d bytes is compressed (%v)", tc.golden, compressELFAbove, err)
		}
	}
}

// TestWriteRoundTrip: for every uncompressed container fatbinary wrote,
// writing back the parsed entries reproduces it, identifier and ptxas
// options included.
func TestWriteRoundTrip(t *testing.T) {
	for _, file := range []string{"one.fatbin", "two.fatbin", "ident.fatbin"} {
		want := readTestdata(t, file)
		var images []Image
		for _, e := range mustParse(t, file) {
			images = append(images, Image{Kind: e.Kind, SM: e.SM, Data: mustData(t, e),
				Ident: e.Name, Options: e.Options, Debug: e.Flags&FlagDebug != 0})
		}
		if got := mustWrite(t, images); !bytes.Equal(got, want) {
			t.Errorf("%s: round trip differs", file)
		}
	}
}

// TestWriteRejects: the checks fatbinary makes on its images.
func TestWriteRejects(t *testing.T) {
	cubin := readTestdata(t, "k_sm80.cubin")
	for name, img := range map[string]Image{
		"arch mismatch":   {Kind: KindELF, SM: 86, Data: cubin},
		"not ELF":         {Kind: KindELF, SM: 80, Data: []byte("hello")},
		"ELF32":           {Kind: KindELF, SM: 80, Data: append([]byte("\x7fELF\x01"), cubin[5:]...)},
		"ELF options":     {Kind: KindELF, SM: 80, Data: cubin, Options: "-O3"},
		"PTX no version":  {Kind: KindPTX, SM: 80, Data: []byte(".target sm_80\n")},
		"PTX bad version": {Kind: KindPTX, SM: 80, Data: []byte(".version seven\n")},
		"bad kind":        {Kind: 7, SM: 80, Data: cubin},
		"SM 0":            {Kind: KindELF, SM: 0, Data: cubin},
	} {
		if err := Write(&bytes.Buffer{}, []Image{img}); err == nil {
			t.Errorf("%s: Write accepted it", name)
		}
	}
}

var quadRE = regexp.MustCompile(`0x([0-9a-f]{16})`)

// quadsOf recovers the fatbinary bytes from a fatbin.c file.
func quadsOf(t *testing.T, src []byte) []byte {
	t.Helper()
	var out []byte
	for _, m := range quadRE.FindAllSubmatch(src, -1) {
		v, err := strconv.ParseUint(string(m[1]), 16, 64)
		if err != nil {
			t.Fatal(err)
		}
		out = binary.LittleEndian.AppendUint64(out, v)
	}
	return out
}

func embedded(t *testing.T, fatbin []byte, opts EmbedOptions) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteEmbeddedC(&buf, fatbin, opts); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestEmbeddedCVariants: for every combination of fatbinary -link,
// --device-c and -no-asm, the C source matches fatbinary's byte for byte
// given the same container bytes.
func TestEmbeddedCVariants(t *testing.T) {
	for _, v := range []string{"plain", "link", "devc", "link_devc", "noasm", "noasm_link", "noasm_devc", "noasm_link_devc"} {
		file := "embed_" + v + ".fatbin.c"
		want := readTestdata(t, file)
		opts := EmbedOptions{
			Link:    strings.Contains(v, "link"),
			DeviceC: strings.Contains(v, "devc"),
			NoAsm:   strings.Contains(v, "noasm"),
		}
		fb := quadsOf(t, want)
		if _, err := Parse(file, fb); err != nil {
			t.Fatalf("%s: recovered container does not parse: %v", file, err)
		}
		if got := embedded(t, fb, opts); !bytes.Equal(got, want) {
			t.Errorf("%s: WriteEmbeddedC(%+v) differs:\n%s", file, opts, firstDiff(got, want))
		}
	}
}

// TestEmbeddedCFromImages: Write then WriteEmbeddedC reproduces fatbinary's
// C source from the cubin alone, for each remainder of the line layout.
func TestEmbeddedCFromImages(t *testing.T) {
	cubin := readTestdata(t, "k_sm80.cubin")
	for _, tc := range []struct {
		golden string
		pad    int
		opts   EmbedOptions
	}{
		{"embed_plain.fatbin.c", 0, EmbedOptions{}},
		{"embed_link.fatbin.c", 0, EmbedOptions{Link: true}},
		{"embed_noasm.fatbin.c", 0, EmbedOptions{NoAsm: true}},
		{"embed_pad8.fatbin.c", 8, EmbedOptions{}},
		{"embed_pad16.fatbin.c", 16, EmbedOptions{}},
		{"embed_pad24.fatbin.c", 24, EmbedOptions{}},
		{"embed_noasm_pad8.fatbin.c", 8, EmbedOptions{NoAsm: true}},
		{"embed_noasm_pad16.fatbin.c", 16, EmbedOptions{NoAsm: true}},
		{"embed_noasm_pad24.fatbin.c", 24, EmbedOptions{NoAsm: true}},
	} {
		data := append(append([]byte(nil), cubin...), make([]byte, tc.pad)...)
		fb := mustWrite(t, []Image{{Kind: KindELF, SM: 80, Data: data}})
		if got, want := embedded(t, fb, tc.opts), readTestdata(t, tc.golden); !bytes.Equal(got, want) {
			t.Errorf("%s: differs:\n%s", tc.golden, firstDiff(got, want))
		}
	}
}

// TestEmbeddedCDlink: the fatbin.c that nvcc -dlink's own fatbinary call
// wrote (kept with -keep) is reproduced from the linked cubin by mirroring
// that call: fatbinary -64 --cmdline="--compile-only " -link
// --image3=kind=elf,sm=80,... --embedded-fatbin=...
func TestEmbeddedCDlink(t *testing.T) {
	fb := mustWrite(t, []Image{elfImage(t, 80, "dlink.sm_80.cubin")})
	if got, want := embedded(t, fb, EmbedOptions{Link: true}), readTestdata(t, "dlink.fatbin.c"); !bytes.Equal(got, want) {
		t.Errorf("differs from nvcc -dlink's fatbin.c:\n%s", firstDiff(got, want))
	}
}

func TestEmbeddedCRejectsOddSize(t *testing.T) {
	if err := WriteEmbeddedC(&bytes.Buffer{}, make([]byte, 12), EmbedOptions{}); err == nil {
		t.Error("accepted a fatbinary whose size is not a multiple of 8")
	}
}

func firstDiff(got, want []byte) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	lo := max(0, i-80)
	return fmt.Sprintf("first difference at byte %d\n got: %q\nwant: %q",
		i, got[lo:min(len(got), i+80)], want[lo:min(len(want), i+80)])
}

// TestAgainstInstalledToolkit runs the real fatbinary and cuobjdump when
// they are installed: more layouts than the committed golden files, and
// cuobjdump's acceptance of what Write produces.
func TestAgainstInstalledToolkit(t *testing.T) {
	fatbinary, err1 := exec.LookPath("fatbinary")
	cuobjdump, err2 := exec.LookPath("cuobjdump")
	if err1 != nil || err2 != nil {
		t.Skip("SKIPPING: fatbinary/cuobjdump (CUDA 11.8) not installed; only the committed golden files are checked")
	}
	dir := t.TempDir()
	cubin80, cubin86 := readTestdata(t, "k_sm80.cubin"), readTestdata(t, "k_sm86.cubin")
	for pad := 0; pad <= 40; pad += 8 {
		data := append(append([]byte(nil), cubin80...), make([]byte, pad)...)
		in := filepath.Join(dir, "in.cubin")
		if err := os.WriteFile(in, data, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, v := range []struct {
			args []string
			opts EmbedOptions
		}{
			{nil, EmbedOptions{}},
			{[]string{"-link"}, EmbedOptions{Link: true}},
			{[]string{"-no-asm"}, EmbedOptions{NoAsm: true}},
			{[]string{"-link", "--device-c", "--compress=false"}, EmbedOptions{Link: true, DeviceC: true}},
		} {
			out := filepath.Join(dir, "out.fatbin.c")
			args := append([]string{"-64", `--cmdline=--compile-only `, "--image3=kind=elf,sm=80,file=" + in,
				"--embedded-fatbin=" + out, "--create=" + filepath.Join(dir, "out.fatbin")}, v.args...)
			if msg, err := exec.Command(fatbinary, args...).CombinedOutput(); err != nil {
				t.Fatalf("fatbinary %v: %v\n%s", args, err, msg)
			}
			wantC, _ := os.ReadFile(out)
			wantFb, _ := os.ReadFile(filepath.Join(dir, "out.fatbin"))
			fb := mustWrite(t, []Image{{Kind: KindELF, SM: 80, Data: data}})
			if !bytes.Equal(fb, wantFb) {
				t.Errorf("pad %d %v: container differs from fatbinary --create", pad, v.args)
			}
			if got := embedded(t, fb, v.opts); !bytes.Equal(got, wantC) {
				t.Errorf("pad %d %v: C source differs:\n%s", pad, v.args, firstDiff(got, wantC))
			}
		}
	}

	// No image: what nvcc -dlink's fatbinary command writes after a
	// virtual target's link (-arch=compute_NN).
	for _, v := range []struct {
		args []string
		opts EmbedOptions
	}{
		{nil, EmbedOptions{}},
		{[]string{"-link"}, EmbedOptions{Link: true}},
	} {
		out, create := filepath.Join(dir, "none.fatbin.c"), filepath.Join(dir, "none.fatbin")
		args := append([]string{"-64", `--cmdline=--compile-only `, "--embedded-fatbin=" + out, "--create=" + create}, v.args...)
		if msg, err := exec.Command(fatbinary, args...).CombinedOutput(); err != nil {
			t.Fatalf("fatbinary %v: %v\n%s", args, err, msg)
		}
		wantC, _ := os.ReadFile(out)
		wantFb, _ := os.ReadFile(create)
		fb := mustWrite(t, nil)
		if !bytes.Equal(fb, wantFb) {
			t.Errorf("no image %v: container % x differs from fatbinary --create's % x", v.args, fb, wantFb)
		}
		if got := embedded(t, fb, v.opts); !bytes.Equal(got, wantC) {
			t.Errorf("no image %v: C source differs:\n%s", v.args, firstDiff(got, wantC))
		}
	}

	fb := mustWrite(t, []Image{{Kind: KindELF, SM: 80, Data: cubin80, Ident: "a.o b.o "}, {Kind: KindELF, SM: 86, Data: cubin86}})
	path := filepath.Join(dir, "mine.fatbin")
	if err := os.WriteFile(path, fb, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(cuobjdump, "-lelf", path).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "sm_80.cubin") || !strings.Contains(string(out), "sm_86.cubin") {
		t.Errorf("cuobjdump -lelf: %v\n%s", err, out)
	}
	out, err = exec.Command(cuobjdump, "-elf", path).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "identifier = a.o b.o") || !strings.Contains(string(out), "arch = sm_86") {
		t.Errorf("cuobjdump -elf: %v\n%s", err, out)
	}
}
