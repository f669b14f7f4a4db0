//go:build linux

package linker

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWriteFileAtomicUnnamed: on Linux the output being written has no name
// (O_TMPFILE), so nothing is registered for a signal to remove and nothing
// is in the directory until the file is whole; the finished file has mode
// 0644 under umask 022, whether the name was free or held an earlier
// output.
func TestWriteFileAtomicUnnamed(t *testing.T) {
	defer syscall.Umask(syscall.Umask(0o022))
	dir := t.TempDir()
	out := filepath.Join(dir, "out.cubin")
	var cfg Config
	for _, data := range []string{"first", "second output"} {
		err := cfg.writeFileAtomicWith(out, func(w io.Writer) error {
			if _, err := w.Write([]byte(data)); err != nil {
				return err
			}
			entries, _ := os.ReadDir(dir)
			if data == "first" && len(entries) != 0 {
				t.Errorf("directory holds %v while the output is written", entries)
			}
			if data != "first" && len(entries) != 1 {
				t.Errorf("directory holds %v while the output is written over out.cubin", entries)
			}
			n := 0
			tempFiles.Range(func(_, _ any) bool { n++; return true })
			if n != 0 {
				t.Errorf("%d temporary files registered", n)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(out)
		if err != nil || string(got) != data {
			t.Fatalf("out.cubin holds %q (%v), want %q", got, err, data)
		}
		fi, _ := os.Stat(out)
		if fi.Mode().Perm() != 0o644 {
			t.Errorf("mode %v, want 0644", fi.Mode().Perm())
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Errorf("directory holds %v", entries)
		}
	}
}

// TestOutputModeUmask: nvlink creates its outputs with mode 0666 less the
// umask (umask 077 gives -rw-------) and, writing over an existing file in
// place, keeps that file's permissions; so do both ways of writing an
// output here, the unnamed file and the named temporary one.
func TestOutputModeUmask(t *testing.T) {
	defer syscall.Umask(syscall.Umask(0))
	write := map[string]func(path string) error{
		"unnamed": func(path string) error {
			var cfg Config
			return cfg.writeFileAtomic(path, []byte("out"))
		},
		"named": func(path string) error {
			tmp, err := newNamedTemp(filepath.Dir(path), ".x.tmp*")
			if err != nil {
				return err
			}
			if err := keepMode(tmp.f, path); err != nil {
				tmp.discard()
				return err
			}
			return tmp.replace(path)
		},
		"copied": func(path string) error {
			tmp, err := createTempOutput(filepath.Dir(path), ".x.tmp*")
			if err != nil {
				return err
			}
			if err := tmp.copyToNamed(filepath.Dir(path), ".y.tmp*"); err != nil {
				return err
			}
			if err := keepMode(tmp.f, path); err != nil {
				tmp.discard()
				return err
			}
			return tmp.replace(path)
		},
	}
	for name, w := range write {
		for _, c := range []struct {
			umask, existing, want uint32
		}{
			{0o077, 0, 0o600},
			{0o022, 0, 0o644},
			{0o027, 0, 0o640},
			{0, 0, 0o666},
			{0o077, 0o750, 0o750},
			{0, 0o600, 0o600},
		} {
			path := filepath.Join(t.TempDir(), "out.cubin")
			if c.existing != 0 {
				if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(path, os.FileMode(c.existing)); err != nil {
					t.Fatal(err)
				}
			}
			syscall.Umask(int(c.umask))
			err := w(path)
			syscall.Umask(0)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := uint32(fi.Mode().Perm()); got != c.want {
				t.Errorf("%s, umask %03o, existing %03o: mode %03o, want %03o", name, c.umask, c.existing, got, c.want)
			}
			if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
				t.Errorf("%s: directory holds %v", name, entries)
			}
		}
	}
}
