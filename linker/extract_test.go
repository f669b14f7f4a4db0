package linker

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudalink/cudalink/linker/fatbin"
)

// TestMalformedImageMessage: a corrupt device image inside a fatbinary (a
// .fatbin input, or a host object's) is reported as "<file>: sm_NN image:
// malformed cubin at offset ...", the file first and then the image the
// offset is in (the message began "sm_80 image: k.fatbin: ...").
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
	want := "cudalink: error: " + path + ": sm_80 image: malformed cubin at offset 0x3a: e_shentsize 16448, want 64\n"
	if stderr.String() != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr.String(), want)
	}
}
