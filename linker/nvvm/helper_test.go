package nvvm

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The tests run this test binary as the helper (CUDALINK_NVVM_HELPER), with
// fakeCompiler in place of libnvvm: the protocol is what they check, across
// a real process boundary. A library path starting with "bad" fails to
// open.
func TestMain(m *testing.M) {
	if os.Getenv("NVVM_TEST_SERVE") != "" {
		status := Serve(os.Args[1], os.Stdin, os.Stdout, func(path string) (Compiler, error) {
			if strings.HasPrefix(filepath.Base(path), "bad") {
				return nil, errors.New("dlopen says no: " + path)
			}
			if strings.HasPrefix(filepath.Base(path), "oneshot") {
				return oneShotCompiler{}, nil
			}
			return fakeCompiler{}, nil
		})
		// NVVM_TEST_LINGER: the helper does not exit, once it has
		// answered, until that file exists (a library slow to unload).
		if gate := os.Getenv("NVVM_TEST_LINGER"); gate != "" {
			for {
				if _, err := os.Stat(gate); err == nil {
					break
				}
				time.Sleep(10 * time.Millisecond)
			}
		}
		os.Exit(status)
	}
	os.Exit(m.Run())
}

// fakeCompiler answers by the first option: "ok" gives PTX naming every
// module and option, "module" a ModuleError for the second module,
// "compile" a CompileError with a log, "exit" kills the helper, "pid" the
// helper's process id after 100 ms, anything else a plain error.
type fakeCompiler struct{}

func (fakeCompiler) Compile(modules []Module, options []string) ([]byte, string, error) {
	switch options[0] {
	case "ok":
		var b strings.Builder
		for _, m := range modules {
			fmt.Fprintf(&b, "%s:%d:%x;", m.Name, len(m.IR), m.IR)
		}
		return []byte(b.String() + strings.Join(options, ",")), "a log line\n", nil
	case "module":
		return nil, "", &ModuleError{Module: modules[1].Name, Status: 3}
	case "compile":
		return nil, "the log of a failure", &CompileError{Status: 9, Log: "the log of a failure"}
	case "exit":
		os.Exit(3)
	case "pid":
		time.Sleep(100 * time.Millisecond) // long enough for the others to start
		return []byte(fmt.Sprint(os.Getpid())), "", nil
	}
	return nil, "", errors.New("something else: " + options[0])
}

// oneShotCompiler is a library that serves one compile per process (as
// nvJitLink must): its PTX is the helper's process id.
type oneShotCompiler struct{}

func (oneShotCompiler) Compile([]Module, []string) ([]byte, string, error) {
	return []byte(fmt.Sprint(os.Getpid())), "", nil
}

func (oneShotCompiler) OneShot() bool { return true }

// TestHelperOneShot checks that a library that says OneShot gets a new
// helper process for every compile, through the same Lib, and that each
// answers.
func TestHelperOneShot(t *testing.T) {
	dir := useHelper(t)
	if err := os.WriteFile(dir+"/oneshot-libnvJitLink.so", []byte("not a library"), 0o644); err != nil {
		t.Fatal(err)
	}
	lib, err := Open(dir + "/oneshot-libnvJitLink.so")
	if err != nil {
		t.Fatal(err)
	}
	defer StopHelpers()
	seen := map[string]bool{}
	for i := range 3 {
		pid, _, err := lib.Compile([]Module{{Name: "a.o", IR: []byte{1}}}, []string{"x"})
		if err != nil {
			t.Fatalf("compile %d: %v", i, err)
		}
		if seen[string(pid)] || len(pid) == 0 {
			t.Fatalf("compile %d ran in helper %q again (seen %v)", i, pid, seen)
		}
		seen[string(pid)] = true
	}
}

// TestOneShotAnswerBeforeExit: a one-shot helper's answer is returned
// while the helper exits, not once it has exited (the LTO link hands
// libnvvm's PTX to ptxas meanwhile); StopHelpers waits for the exit.
func TestOneShotAnswerBeforeExit(t *testing.T) {
	dir := useHelper(t)
	gate := filepath.Join(dir, "exit-now")
	t.Setenv("NVVM_TEST_LINGER", gate)
	open := func() {
		if err := os.WriteFile(gate, nil, 0o644); err != nil {
			t.Error(err)
		}
	}
	t.Cleanup(open)
	if err := os.WriteFile(dir+"/oneshot-libnvJitLink.so", []byte("not a library"), 0o644); err != nil {
		t.Fatal(err)
	}
	lib, err := Open(dir + "/oneshot-libnvJitLink.so")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, _, err := lib.Compile([]Module{{Name: "a.o", IR: []byte{1}}}, []string{"x"})
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		open()
		t.Fatal("the compile returned only after the one-shot helper exited")
	}
	endingMu.Lock()
	n := len(ending)
	endingMu.Unlock()
	if n != 1 {
		t.Errorf("%d helpers ending, want 1", n)
	}
	open()
	StopHelpers()
	if len(ending) != 0 {
		t.Errorf("StopHelpers left %d helpers ending", len(ending))
	}
}

func useHelper(t *testing.T) string {
	t.Setenv("CUDALINK_NVVM_HELPER", os.Args[0])
	t.Setenv("NVVM_TEST_SERVE", "1")
	dir := t.TempDir()
	for _, name := range []string{"libnvvm.so", "bad-libnvvm.so"} {
		if err := os.WriteFile(dir+"/"+name, []byte("not a library"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestHelperCompiles(t *testing.T) {
	dir := useHelper(t)
	lib, err := Open(dir + "/libnvvm.so")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := lib.c.(*helper); !ok {
		t.Fatalf("Open loaded %T, want the helper", lib.c)
	}
	mods := []Module{{Name: "a.o", IR: []byte{1, 2, 3}}, {Name: "b.o", IR: nil}, {Name: "c.o", IR: make([]byte, 3<<20)}}
	for range 2 { // the same helper answers every request
		ptx, log, err := lib.Compile(mods, []string{"ok", "-arch=compute_80"})
		if err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf("a.o:3:010203;b.o:0:;c.o:%d:%x;ok,-arch=compute_80", 3<<20, make([]byte, 3<<20))
		if string(ptx) != want || log != "a log line\n" {
			t.Fatalf("got PTX %.60q... and log %q", ptx, log)
		}
	}

	_, _, err = lib.Compile(mods, []string{"module"})
	var me *ModuleError
	if !errors.As(err, &me) || me.Module != "b.o" || me.Status != 3 {
		t.Errorf("module error: got %v, want b.o's ModuleError with status 3", err)
	}
	_, log, err := lib.Compile(mods, []string{"compile"})
	var ce *CompileError
	if !errors.As(err, &ce) || ce.Status != 9 || ce.Log != "the log of a failure" || log != ce.Log {
		t.Errorf("compile error: got %v (log %q), want a CompileError with status 9 and its log", err, log)
	}
	_, _, err = lib.Compile(mods, []string{"other"})
	if err == nil || err.Error() != "something else: other" {
		t.Errorf("other error: got %v", err)
	}

	// A helper that dies is reported, and the next Open starts another.
	_, _, err = lib.Compile(mods, []string{"exit"})
	if err == nil || !strings.Contains(err.Error(), HelperName) {
		t.Errorf("a helper that exits: got %v, want an error naming %s", err, HelperName)
	}
	again, err := Open(dir + "/libnvvm.so")
	if err != nil || again == lib {
		t.Fatalf("Open after the helper died: %v (same Lib: %v)", err, again == lib)
	}
	if _, _, err := again.Compile(mods, []string{"ok"}); err != nil {
		t.Errorf("the new helper: %v", err)
	}
}

func TestHelperOpenError(t *testing.T) {
	dir := useHelper(t)
	_, err := Open(dir + "/bad-libnvvm.so")
	if err == nil || err.Error() != "dlopen says no: "+dir+"/bad-libnvvm.so" {
		t.Errorf("got %v, want the helper's dlopen error", err)
	}
	if _, err := Open(dir + "/missing.so"); !os.IsNotExist(err) {
		t.Errorf("a missing library: got %v, want a not-exist error before any helper runs", err)
	}
	t.Setenv("CUDALINK_NVVM_HELPER", dir+"/no-such-helper")
	if _, err := Open(dir + "/libnvvm.so"); err == nil {
		t.Error("no helper: Open succeeded")
	}
}

// TestOpenWithHelper: the helper OpenWith names (cudalink's
// --nvvm-helper) is run without being looked for; without it, and with
// none to find, Open says what to install or pass.
func TestOpenWithHelper(t *testing.T) {
	dir := useHelper(t)
	t.Setenv("CUDALINK_NVVM_HELPER", "")
	t.Setenv("PATH", t.TempDir())
	if _, err := Open(dir + "/libnvvm.so"); !errors.Is(err, ErrNoHelper) || !strings.Contains(err.Error(), "--nvvm-helper") ||
		!strings.Contains(err.Error(), "toolchain's nvvm_helper") {
		t.Fatalf("no helper to find: got %v, want ErrNoHelper naming --nvvm-helper and the Bazel toolchain's nvvm_helper", err)
	}
	lib, err := OpenWith(dir+"/libnvvm.so", os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if ptx, _, err := lib.Compile([]Module{{Name: "a.o", IR: []byte{7}}}, []string{"ok"}); err != nil || string(ptx) != "a.o:1:07;ok" {
		t.Errorf("got %q, %v", ptx, err)
	}
}

// TestStopHelpers: StopHelpers ends the helpers (and waits for them); the
// next Open starts a new one, which works.
func TestStopHelpers(t *testing.T) {
	dir := useHelper(t)
	lib, err := Open(dir + "/libnvvm.so")
	if err != nil {
		t.Fatal(err)
	}
	h := lib.c.(*helper)
	StopHelpers()
	if h.cmd.ProcessState == nil {
		t.Fatal("StopHelpers did not wait for the helper")
	}
	again, err := Open(dir + "/libnvvm.so")
	if err != nil || again == lib {
		t.Fatalf("Open after StopHelpers: %v (same Lib: %v)", err, again == lib)
	}
	if _, _, err := again.Compile([]Module{{Name: "a.o", IR: []byte{1}}}, []string{"ok"}); err != nil {
		t.Error(err)
	}
}

// TestRelease: Release closes the input of a Lib's helpers, which exit
// while nothing waits for them; StopHelpers then waits for them. The next
// Open starts another helper, and a compile through the released Lib
// starts one too.
func TestRelease(t *testing.T) {
	dir := useHelper(t)
	defer StopHelpers()
	lib, err := Open(dir + "/libnvvm.so")
	if err != nil {
		t.Fatal(err)
	}
	prog, err := OpenProgram(os.Args[0], 2)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 2 { // two compiles at once: two processes in the pool
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, _, err := prog.Compile([]Module{{Name: "a.ptx", IR: []byte{1}}}, []string{"pid"}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	h := lib.c.(*helper)
	cmd := h.cmd
	pool := prog.c.(*pool)
	if len(pool.idle) != 2 {
		t.Fatalf("the pool has %d idle helpers, want 2", len(pool.idle))
	}
	cmds := []*exec.Cmd{pool.idle[0].cmd, pool.idle[1].cmd}
	lib.Release()
	prog.Release()
	if pool.started != 0 || len(pool.idle) != 0 || len(released) != 3 {
		t.Fatalf("after Release: pool %d started, %d idle; %d released; want 0, 0, 3", pool.started, len(pool.idle), len(released))
	}
	if cmd.ProcessState != nil {
		t.Fatal("Release waited for the helper")
	}
	again, err := Open(dir + "/libnvvm.so")
	if err != nil || again == lib {
		t.Fatalf("Open after Release: %v (same Lib: %v)", err, again == lib)
	}
	if ptx, _, err := lib.Compile([]Module{{Name: "a.o", IR: []byte{7}}}, []string{"ok"}); err != nil || string(ptx) != "a.o:1:07;ok" {
		t.Errorf("a compile through the released Lib: %q, %v", ptx, err)
	}
	StopHelpers()
	for i, c := range append(cmds, cmd) {
		if c.ProcessState == nil || !c.ProcessState.Success() {
			t.Errorf("released helper %d: %v after StopHelpers, want exit status 0", i, c.ProcessState)
		}
	}
	if len(released) != 0 {
		t.Errorf("StopHelpers left %d released helpers", len(released))
	}
}

// TestHelperErrorNamesProgram: a program that serves its own library
// (OpenProgram, as --ptx-compiler's cudalink-ptxc) and dies before it
// answers is named by its file name, with its exit status.
func TestHelperErrorNamesProgram(t *testing.T) {
	prog := filepath.Join(t.TempDir(), "fake-ptxc")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := OpenProgram(prog, 1)
	if err == nil || !strings.HasPrefix(err.Error(), "fake-ptxc: exit status 3") {
		t.Fatalf("err %v, want it to begin with \"fake-ptxc: exit status 3\"", err)
	}
}

// TestOpenProgramParallel: a program's compiles run in up to n processes
// at once (OpenProgram), each compile answered by its own request, and
// StopHelpers ends them all.
func TestOpenProgramParallel(t *testing.T) {
	useHelper(t)
	lib, err := OpenProgram(os.Args[0], 2)
	if err != nil {
		t.Fatal(err)
	}
	defer StopHelpers()
	var wg sync.WaitGroup
	pids := make([]string, 6)
	errs := make([]error, len(pids))
	for i := range pids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pid, _, err := lib.Compile([]Module{{Name: "a.ptx", IR: []byte("x")}}, []string{"pid"})
			pids[i], errs[i] = string(pid), err
		}()
	}
	wg.Wait()
	seen := map[string]int{}
	for i, pid := range pids {
		if errs[i] != nil || pid == "" {
			t.Fatalf("compile %d: %q, %v", i, pid, errs[i])
		}
		seen[pid]++
	}
	if len(seen) != 2 {
		t.Errorf("6 compiles at once with n=2 ran in %d processes (%v), want 2", len(seen), seen)
	}
	ptx, _, err := lib.Compile([]Module{{Name: "b.ptx", IR: []byte{7}}}, []string{"ok"})
	if want := "b.ptx:1:07;ok"; err != nil || string(ptx) != want {
		t.Errorf("compile: %q, %v; want %q", ptx, err, want)
	}
	p := lib.c.(*pool)
	StopHelpers()
	if p.started != 0 || len(p.idle) != 0 {
		t.Errorf("after StopHelpers: %d helpers, %d idle; want none", p.started, len(p.idle))
	}
	if _, err := OpenProgram(filepath.Join(t.TempDir(), "no-such-program"), 2); err == nil {
		t.Error("OpenProgram of a missing program succeeded")
	}
}
