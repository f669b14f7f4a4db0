//go:build linux

package linker

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestWriteFileAtomicUnnamed: on Linux the output being written has no name
// (O_TMPFILE), so nothing is registered for a signal to remove and nothing
// is in the directory until the file is whole; the finished file has mode
// 0644, whether the name was free or held an earlier output.
func TestWriteFileAtomicUnnamed(t *testing.T) {
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
