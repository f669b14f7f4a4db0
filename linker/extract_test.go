package linker

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudalink/cudalink/linker/fatbin"
	"github.com/cudalink/cudalink/linker/hostobj"
)

// TestMalformedImageMessage: a corrupt device image inside a fatbinary (a
// .fatbin input, or a host object's) is reported as "<file>: sm_NN image
// at offset <where the image is>: malformed cubin at offset ...", the file
// first and then the image the offset is in (the message began "sm_80
// image: k.fatbin: ...", then gave no place for the image).
func TestMalformedImageMessage(t *testing.T) {
	cub, err := os.ReadFile("../examples/saxpy/kernel.cubin")
	if err != nil {
		t.Fatal(err)
	}
	binary.LittleEndian.PutUint16(cub[0x3a:], 0x4040) // e_shentsize
	var fb bytes.Buffer
	if err := fatbin.Write(&fb, []fatbin.Image{{Kind: fatbin.KindELF, SM: 80, Data: cub}}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "k.fatbin")
	if err := os.WriteFile(path, fb.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cfg := &Config{Arch: 80, Output: filepath.Join(t.TempDir(), "out.cubin"), Inputs: []Input{{Path: path}}, Stderr: &stderr, Stdout: &stderr}
	if err := Run(cfg); !errors.Is(err, ErrFailed) {
		t.Fatalf("Run = %v, want ErrFailed", err)
	}
	at := bytes.Index(fb.Bytes(), cub[:0x40])
	if at < 0 {
		t.Fatal("the image is not stored as is in the fatbinary")
	}
	want := fmt.Sprintf("cudalink: error: %s: sm_80 image at offset 0x%x: malformed cubin at offset 0x3a: e_shentsize 16448, want 64\n", path, at)
	if stderr.String() != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr.String(), want)
	}
}

// TestDamagedHostObjectMessages: a damaged host object's message says
// where to look. A fault in its __nv_relfatbin names the section and gives
// the offset in the object too (the message gave the offset in the
// fatbinary alone: "d.o: malformed fatbinary at offset 0x0", which is the
// object's ELF magic to a user with xxd), whether the container header or
// a compressed image (decompressed later) is damaged; a cut-short object
// says its size and that it may be truncated.
func TestDamagedHostObjectMessages(t *testing.T) {
	orig, err := os.ReadFile("../tests/corpus/cases/error-host-object-named-cubin-sm80/d.o")
	if err != nil {
		t.Fatal(err)
	}
	ho, err := hostobj.Parse("d.o", orig)
	if err != nil {
		t.Fatal(err)
	}
	base := ho.Section(hostobj.SectionRelFatbin).Offset
	entries, err := fatbin.Parse("d.o", ho.RelFatbin)
	if err != nil {
		t.Fatal(err)
	}
	var elfEntry fatbin.Entry
	for _, e := range entries {
		if e.Kind == fatbin.KindELF && e.Compression == fatbin.CompressionLZ4 {
			elfEntry = e
		}
	}
	if elfEntry.Kind != fatbin.KindELF {
		t.Fatal("d.o has no LZ4-compressed ELF image")
	}
	payload := base + elfEntry.Off + uint64(elfEntry.HeaderSize)
	for _, c := range []struct {
		name   string
		damage func([]byte) []byte
		want   string
	}{
		{"magic", func(b []byte) []byte { b[base] ^= 0xff; return b },
			fmt.Sprintf("d.o:(__nv_relfatbin): malformed fatbinary at offset 0x0 of the section (0x%x of the object): bad magic", base)},
		{"lz4", func(b []byte) []byte {
			for i := payload + 0x20; i < payload+0x40; i++ {
				b[i] ^= 0x5a
			}
			return b
		}, "d.o:(__nv_relfatbin): malformed fatbinary at offset 0x"},
		// The LZ4 flag cleared: the compressed bytes are taken for the
		// image, which is not an ELF file; the message says where they are
		// (it gave no place in the object).
		{"uncompressed flag", func(b []byte) []byte {
			flags := base + elfEntry.Off + 0x28
			binary.LittleEndian.PutUint64(b[flags:], uint64(elfEntry.Flags&^fatbin.FlagCompressedLZ4))
			return b
		}, fmt.Sprintf("d.o:(__nv_relfatbin): sm_80 image at offset 0x%x of the section (0x%x of the object): malformed cubin at offset 0x0: not an ELF file",
			elfEntry.Off+uint64(elfEntry.HeaderSize), payload)},
		{"cut", func(b []byte) []byte { return b[:0x200] },
			"d.o: malformed host object at offset 0x28: section header table at 0x"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "d.o")
			if err := os.WriteFile(path, c.damage(bytes.Clone(orig)), 0o644); err != nil {
				t.Fatal(err)
			}
			var stderr strings.Builder
			out := filepath.Join(dir, "out.cubin")
			cfg := &Config{Arch: 80, Output: out, Inputs: []Input{{Path: path}}, Stderr: &stderr, Stdout: &stderr}
			if err := Run(cfg); !errors.Is(err, ErrFailed) {
				t.Fatalf("Run = %v, want ErrFailed", err)
			}
			if !strings.Contains(stderr.String(), c.want) {
				t.Errorf("stderr:\n%s\nwant it to contain %q", stderr.String(), c.want)
			}
			switch c.name {
			case "lz4":
				if !strings.Contains(stderr.String(), " of the object): LZ4 block") {
					t.Errorf("stderr:\n%s\nwant the LZ4 fault's offset in the object", stderr.String())
				}
			case "cut":
				if !strings.Contains(stderr.String(), "outside the file (0x200 bytes: truncated? rebuild it)") {
					t.Errorf("stderr:\n%s\nwant the file's size and a hint", stderr.String())
				}
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s written", out)
			}
		})
	}
}

// TestELFClass32CubinMessage: a file named .cubin with CUDA's e_machine but
// ELF class 1 (32-bit) is refused as such, with nvlink 11.8's message; the
// message said "an ELF file for another machine (e_machine 190, not 190)".
func TestELFClass32CubinMessage(t *testing.T) {
	cub, err := os.ReadFile("../examples/saxpy/math.cubin")
	if err != nil {
		t.Fatal(err)
	}
	cub[4] = 1 // EI_CLASS: ELFCLASS32
	path := filepath.Join(t.TempDir(), "m.cubin")
	if err := os.WriteFile(path, cub, 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cfg := &Config{Arch: 80, Output: filepath.Join(t.TempDir(), "out.cubin"), Inputs: []Input{{Path: path}}, Stderr: &stderr, Stdout: &stderr}
	if err := Run(cfg); !errors.Is(err, ErrFailed) {
		t.Fatalf("Run = %v, want ErrFailed", err)
	}
	want := "cudalink: error: not a CUDA device object: a 32-bit ELF file (ELF class 1; a cubin is ELF64, class 2) " +
		"for CUDA's machine (nvlink: Input file size does not match target '-m64')\n>>> in " + path + "\n"
	if stderr.String() != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr.String(), want)
	}
}
