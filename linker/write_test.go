package linker

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestRemoveTempFiles: a temporary output registered while being written is
// deleted by RemoveTempFiles, as the command does on SIGINT/SIGTERM.
func TestRemoveTempFiles(t *testing.T) {
	dir := t.TempDir()
	tmp := filepath.Join(dir, ".out.cubin.tmp123")
	if err := os.WriteFile(tmp, []byte("partial"), 0o644); err != nil {
		t.Fatal(err)
	}
	tempFiles.Store(tmp, struct{}{})
	defer tempFiles.Delete(tmp)
	RemoveTempFiles()
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Errorf("temporary file survived: %v", err)
	}
}

// TestWriteFileAtomic: the file appears whole, and no temporary is left.
func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.cubin")
	var cfg Config
	if err := cfg.writeFileAtomic(out, []byte("data")); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != "out.cubin" {
		t.Errorf("directory holds %v", entries)
	}
	if err := cfg.writeFileAtomic(filepath.Join(dir, "missing", "x"), nil); err == nil {
		t.Error("writing into a missing directory succeeded")
	}
}

// TestWriteFileAtomicPanic: a panic while the contents are written leaves
// neither the file nor its temporary.
func TestWriteFileAtomicPanic(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.cubin")
	func() {
		defer func() {
			if recover() == nil {
				t.Error("the panic did not go on to the caller")
			}
		}()
		var cfg Config
		cfg.writeFileAtomicWith(out, func(w io.Writer) error {
			w.Write([]byte("partial"))
			panic("writer bug")
		})
	}()
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("directory holds %v after a panic", entries)
	}
}
