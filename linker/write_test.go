package linker

import (
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
	if err := writeFileAtomic(out, []byte("data")); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != "out.cubin" {
		t.Errorf("directory holds %v", entries)
	}
	if err := writeFileAtomic(filepath.Join(dir, "missing", "x"), nil); err == nil {
		t.Error("writing into a missing directory succeeded")
	}
}
