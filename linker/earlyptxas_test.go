//go:build unix

package linker

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestEarlyPtxas: a ptxas started before its PTX exists (the LTO link's,
// startLTOPtxas) and given it through its FIFO makes the same cubin and
// messages as ptxas run on a file (runPtxas), reading its input twice as
// it does; one that fails before it reads (an option it does not know)
// gives runPtxas's error; and an aborted one leaves no directory behind.
func TestEarlyPtxas(t *testing.T) {
	ptxas, err := exec.LookPath("ptxas")
	if err != nil {
		t.Skip("SKIP: ptxas (CUDA toolkit) not on PATH")
	}
	t.Setenv("TMPDIR", t.TempDir())
	src, err := os.ReadFile("../tests/corpus/cases/common-data-largest-size/c1.ptx")
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"-arch=sm_80", "-c"}, {"-arch=sm_80", "-c", "-v"}} {
		want, err := runPtxas(context.Background(), ptxas, args, src)
		if err != nil {
			t.Fatal(err)
		}
		e := startPtxasEarly(context.Background(), ptxas, args)
		if e == nil {
			t.Fatal("startPtxasEarly: nil")
		}
		got, err := e.finish(src)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if !bytes.Equal(got.Cubin, want.Cubin) || !bytes.Equal(got.Messages, want.Messages) {
			t.Errorf("%v: cubin same %v, messages %q, want %q", args, bytes.Equal(got.Cubin, want.Cubin), got.Messages, want.Messages)
		}
	}
	bad := []string{"-arch=sm_80", "-no-such-option", "-c"}
	_, want := runPtxas(context.Background(), ptxas, bad, src)
	_, got := startPtxasEarly(context.Background(), ptxas, bad).finish(src)
	var pw, pg *ptxasError
	if !errors.As(want, &pw) || !errors.As(got, &pg) || pg.status != pw.status || !bytes.Equal(pg.output, pw.output) {
		t.Errorf("a bad option: got %v, want %v", got, want)
	}
	startPtxasEarly(context.Background(), ptxas, []string{"-arch=sm_80", "-c"}).abort()
	left, _ := filepath.Glob(filepath.Join(os.Getenv("TMPDIR"), "*"))
	if len(left) != 0 {
		t.Errorf("left behind: %s", strings.Join(left, " "))
	}
}
