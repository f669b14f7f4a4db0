package linker

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/cudalink/cudalink/linker/fatbin"
)

// TestDebugFatbin: a -g link's fatbinary marks its image as a debug
// compile (what fatbinary -g does under nvcc -G -dlink), and holds the
// cubin the link wrote, LZ4-compressed as fatbinary -g stores it; without
// -g it does neither. The inputs are the corpus's -G cubins.
func TestDebugFatbin(t *testing.T) {
	dir := "../tests/corpus/cases/debug-g-single-file"
	if _, err := os.Stat(filepath.Join(dir, "one.cubin")); err != nil {
		t.Skip("SKIP: corpus case debug-g-single-file not generated")
	}
	for _, debug := range []bool{true, false} {
		tmp := t.TempDir()
		cfg := &Config{
			Arch:   80,
			Output: filepath.Join(tmp, "out.cubin"),
			Fatbin: filepath.Join(tmp, "out.fatbin"),
			Inputs: []Input{{Path: filepath.Join(dir, "one.cubin")}},
			Debug:  debug,
			Stdout: io.Discard,
			Stderr: io.Discard,
		}
		if err := Run(cfg); err != nil {
			t.Fatalf("-g=%v: %v", debug, err)
		}
		cub, _ := os.ReadFile(cfg.Output)
		fb, _ := os.ReadFile(cfg.Fatbin)
		entries, err := fatbin.Parse(cfg.Fatbin, fb)
		if err != nil || len(entries) != 1 {
			t.Fatalf("-g=%v: %d entries, %v", debug, len(entries), err)
		}
		e := entries[0]
		if got := e.Flags&fatbin.FlagDebug != 0; got != debug {
			t.Errorf("-g=%v: entry flags %v", debug, e.Flags)
		}
		// fatbinary -g compresses the debug image; without -g a small
		// one is stored as it is.
		if got := e.Compression != fatbin.CompressionNone; got != debug {
			t.Errorf("-g=%v: entry compression %v", debug, e.Compression)
		}
		if data, err := e.Data(); err != nil || !bytes.Equal(data, cub) {
			t.Errorf("-g=%v: the fatbinary does not hold the linked cubin (%v)", debug, err)
		}
	}
}
