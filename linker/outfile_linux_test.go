//go:build linux

package linker

import (
	"bytes"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
			existing, err := writableIfExists(path)
			if err != nil {
				return err
			}
			tmp, err := newNamedTemp(filepath.Dir(path), ".x.tmp*")
			if err != nil {
				return err
			}
			if err := keepMode(tmp.f, existing); err != nil {
				tmp.discard()
				return err
			}
			return tmp.replace(path, existing.exists)
		},
		"copied": func(path string) error {
			existing, err := writableIfExists(path)
			if err != nil {
				return err
			}
			tmp, err := createTempOutput(filepath.Dir(path), ".x.tmp*")
			if err != nil {
				return err
			}
			if err := tmp.copyToNamed(filepath.Dir(path), ".y.tmp*"); err != nil {
				return err
			}
			if err := keepMode(tmp.f, existing); err != nil {
				tmp.discard()
				return err
			}
			return tmp.replace(path, existing.exists)
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

// TestOutputNotARegularFile: an output named by a symbolic link is
// written to the file the link names (created if the link dangles), the
// link left as it is; one that is a FIFO (as /dev/null is a device) is
// written in place and stays what it was, and is not among the files a
// panicking link removes; a directory, a missing directory or a link loop
// is an error naming the path the user gave, never a temporary file's
// name, and leaves nothing behind. nvlink opens each of them for writing,
// so writes through the link and into the device. Before this, the output
// replaced the link, and -o /dev/null replaced the device with a regular
// file.
func TestOutputNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	write := func(cfg *Config, path string) error {
		return cfg.writeFileAtomic(path, []byte("linked"))
	}
	if err := os.WriteFile(at("real.cubin"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, dest := range map[string]string{"link.cubin": "real.cubin", "dangling.cubin": "new.cubin", "sub-link.cubin": "sub/../real.cubin"} {
		if err := os.Symlink(dest, at(link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(at("sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ link, dest string }{{"link.cubin", "real.cubin"}, {"dangling.cubin", "new.cubin"}, {"sub-link.cubin", "real.cubin"}} {
		os.WriteFile(at("real.cubin"), []byte("old"), 0o644)
		if err := write(&Config{}, at(c.link)); err != nil {
			t.Fatalf("%s: %v", c.link, err)
		}
		if fi, err := os.Lstat(at(c.link)); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a symbolic link (%v)", c.link, err)
		}
		if got, err := os.ReadFile(at(c.dest)); string(got) != "linked" {
			t.Errorf("%s: %s holds %q (%v), want the output", c.link, c.dest, got, err)
		}
	}

	fifo := at("pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	// The reader's end, open before the write and never blocking: the
	// write does not wait for a reader, nor the test for the write.
	r, err := syscall.Open(fifo, syscall.O_RDWR|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(r)
	cfg := &Config{written: &writtenFiles{}}
	if err := write(cfg, fifo); err != nil {
		t.Fatalf("FIFO: %v", err)
	}
	buf := make([]byte, 64)
	n, err := syscall.Read(r, buf)
	if got := string(buf[:max(n, 0)]); got != "linked" {
		t.Errorf("the FIFO's reader got %q (%v)", got, err)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced (%v, %v)", fi.Mode(), err)
	}
	if len(cfg.written.paths) != 0 {
		t.Errorf("a panicking link would remove %v", cfg.written.paths)
	}

	if err := os.Symlink("loop-b", at("loop-a")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("loop-a", at("loop-b")); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadDir(dir)
	for path, want := range map[string]string{
		at("sub"):                at("sub") + " is a directory",
		at("missing/out.cubin"):  "directory " + at("missing") + " does not exist",
		at("dangling-dir.cubin"): "directory " + at("nodir") + " does not exist",
		at("loop-a"):             at("loop-a") + ": too many levels of symbolic links",
	} {
		if path == at("dangling-dir.cubin") {
			os.Symlink("nodir/x.cubin", path)
			before, _ = os.ReadDir(dir)
		}
		err := write(&Config{}, path)
		if err == nil || err.Error() != want {
			t.Errorf("-o %s: error %v, want %q", path, err, want)
		}
		if after, _ := os.ReadDir(dir); len(after) != len(before) {
			t.Errorf("-o %s left %v (before: %v)", path, after, before)
		}
	}
}

// TestOutPipeNotForFIFO: an output written in place (a FIFO here, as
// -o /dev/stdout can be) cannot be written at offsets, so even a link
// whose output would go through an outPipe writes it in order, whole.
func TestOutPipeNotForFIFO(t *testing.T) {
	ins := caseCubins(t, "many-files-24")
	link1 := func(output string, pipeFrom uint64) {
		ctx := newBenchContext(ins, 80)
		ctx.config.Output = output
		ctx.pipeFrom = pipeFrom
		defer ctx.maps.unmapAll()
		if err := link(ctx); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	link1(filepath.Join(dir, "file.cubin"), math.MaxUint64)
	want, err := os.ReadFile(filepath.Join(dir, "file.cubin"))
	if err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	got := make(chan []byte)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- b
	}()
	link1(fifo, 0)
	if b := <-got; !bytes.Equal(b, want) {
		t.Errorf("through a FIFO: %d bytes, not the %d of the same link to a file", len(b), len(want))
	}
}

// TestOutputNotWritable: an existing output the user may not write is not
// replaced: nvlink opens it for writing and stops ("Could not open output
// file", exit status 1), and the link fails the same way here, where the
// rename of the finished output would have replaced it. A running
// executable is one (ETXTBSY, for root too); a file read-only to a user
// who is not root is another.
func TestOutputNotWritable(t *testing.T) {
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep command to run")
	}
	dir := t.TempDir()
	busy := filepath.Join(dir, "busy")
	data, err := os.ReadFile(sleep)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(busy, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(busy, "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	paths := map[string]string{busy: "text file busy"}
	if os.Geteuid() != 0 {
		ro := filepath.Join(dir, "ro.cubin")
		if err := os.WriteFile(ro, []byte("old"), 0o444); err != nil {
			t.Fatal(err)
		}
		paths[ro] = "permission denied"
	}
	for path, want := range paths {
		before, _ := os.ReadFile(path)
		var cfg Config
		err := cfg.writeFileAtomic(path, []byte("new output"))
		if err == nil || !strings.Contains(err.Error(), filepath.Base(path)+": "+want) {
			t.Errorf("%s: %v, want %q", filepath.Base(path), err, want)
		}
		if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
			t.Errorf("%s was replaced", filepath.Base(path))
		}
		if entries, _ := os.ReadDir(dir); len(entries) != len(paths) {
			t.Errorf("the directory holds %d files, want %d", len(entries), len(paths))
		}
	}
}

// TestOutputStartsNoPoller: writing an output over an existing file opens
// nothing that the runtime's poller registers (writableIfExists opened the
// old file with os.OpenFile and O_NONBLOCK, which started the poller, an
// epoll instance and an eventfd, for a one-shot link that polls nothing).
// The writing runs in a child process (this test binary again), whose
// poller nothing else started.
func TestOutputStartsNoPoller(t *testing.T) {
	if dir := os.Getenv("CUDALINK_TEST_NOPOLLER_DIR"); dir != "" {
		out := filepath.Join(dir, "out.cubin")
		var cfg Config
		for _, data := range []string{"first", "second"} { // new, then over it
			if err := cfg.writeFileAtomic(out, []byte(data)); err != nil {
				t.Fatal(err)
			}
		}
		fds, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Skip(err)
		}
		for _, fd := range fds {
			if target, _ := os.Readlink("/proc/self/fd/" + fd.Name()); strings.HasPrefix(target, "anon_inode:") {
				t.Errorf("fd %s is %s", fd.Name(), target)
			}
		}
		return
	}
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestOutputStartsNoPoller$", "-test.v")
	cmd.Env = append(os.Environ(), "CUDALINK_TEST_NOPOLLER_DIR="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS") {
		t.Fatalf("%v\n%s", err, out)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "out.cubin")); err != nil || string(got) != "second" {
		t.Errorf("out.cubin holds %q (%v), want %q", got, err, "second")
	}
}
