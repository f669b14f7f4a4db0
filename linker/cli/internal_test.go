package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/cudalink/cudalink/linker"
)

// TestInternalErrorOneShot: a panic anywhere in a link run as the command
// line runs it (cmd/cudalink's one-shot path) becomes one line naming the
// inputs, exit status 3, and no file in the output directory: a panic in
// the goroutine that parses an input, in a pass, before the output is
// written and after it was (it is removed again).
func TestInternalErrorOneShot(t *testing.T) {
	dir := "../../tests/corpus/cases/two-file-cross-calls"
	a, b := filepath.Join(dir, "a.cubin"), filepath.Join(dir, "b.cubin")
	for _, pass := range []string{"parse " + b, "resolve symbols", "write output", "write host side", "explain link"} {
		t.Run(pass, func(t *testing.T) {
			out := t.TempDir()
			args := []string{"-arch=sm_80", "--register-link-binaries", filepath.Join(out, "reg.h"),
				"--map", filepath.Join(out, "out.map"), a, b, "-o", filepath.Join(out, "out.cubin")}
			ctx := linker.WithTestHook(context.Background(), func(p string) {
				if p == pass {
					panic(fmt.Sprintf("injected in %s", p))
				}
			})
			var stdout, stderr bytes.Buffer
			status := runCommand(ctx, args, &stdout, &stderr, nil, true, 0)
			want := fmt.Sprintf("cudalink: internal error: injected in %s (inputs: %s, %s)\n", pass, a, b)
			if status != 3 || stderr.String() != want || stdout.Len() != 0 {
				t.Errorf("status %d, stderr %q, stdout %q; want 3 and %q", status, stderr.String(), stdout.String(), want)
			}
			if ents, _ := os.ReadDir(out); len(ents) != 0 {
				t.Errorf("the output directory holds %v after the panic", ents)
			}
		})
	}
	// Without a panic the same link succeeds: the hook alone changes nothing.
	out := t.TempDir()
	ctx := linker.WithTestHook(context.Background(), func(string) {})
	var stderr bytes.Buffer
	if status := runCommand(ctx, []string{"-arch=sm_80", a, b, "-o", filepath.Join(out, "out.cubin")}, &stderr, &stderr, nil, true, 0); status != 0 {
		t.Errorf("link without a panic: status %d:\n%s", status, stderr.String())
	}
}
