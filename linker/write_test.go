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

// TestWriteFileAtomicReplaces: writing over an earlier output (a regular
// file, exchanged with the new one on Linux) leaves the new contents with
// mode 0644 and no temporary; over a symbolic link, the link stays and
// its target gets the new contents, as nvlink writes through the link;
// over a directory, the write fails and the directory stays.
func TestWriteFileAtomicReplaces(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.cubin")
	var cfg Config
	for _, data := range []string{"first output", "second", "third, longer than the others"} {
		if err := cfg.writeFileAtomic(out, []byte(data)); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(out)
		if err != nil || string(got) != data {
			t.Fatalf("out.cubin holds %q (%v), want %q", got, err, data)
		}
		if st, err := os.Stat(out); err != nil || st.Mode().Perm() != 0o644 {
			t.Errorf("out.cubin: mode %v (%v), want 0644", st.Mode(), err)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Errorf("directory holds %v", entries)
		}
	}

	target := filepath.Join(dir, "target")
	link := filepath.Join(dir, "link.cubin")
	if err := os.WriteFile(target, []byte("target"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symbolic links:", err)
	}
	if err := cfg.writeFileAtomic(link, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("link.cubin is no longer a symbolic link after the write: %v %v", st.Mode(), err)
	}
	if got, _ := os.ReadFile(target); string(got) != "new" {
		t.Errorf("the link's target holds %q, want %q", got, "new")
	}

	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := cfg.writeFileAtomic(sub, []byte("x")); err == nil {
		t.Error("writing over a directory succeeded")
	}
	if st, err := os.Stat(sub); err != nil || !st.IsDir() {
		t.Errorf("the directory is gone: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 4 {
		t.Errorf("directory holds %v, want out.cubin, target, link.cubin and sub", entries)
	}
}
