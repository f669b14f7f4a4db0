//go:build unix

// Package workere2e runs e2e.sh, the end-to-end check of cudalink's
// persistent worker under the real Bazel, from go test. It is skipped
// without bazel on PATH and with -short.
package workere2e

import (
	"os/exec"
	"testing"
	"time"
)

func TestWorkerUnderBazel(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: starts a Bazel server")
	}
	if _, err := exec.LookPath("bazel"); err != nil {
		t.Skip("bazel is not installed; the worker is not tested under Bazel")
	}
	start := time.Now()
	out, err := exec.Command("bash", "e2e.sh").CombinedOutput() // e2e.sh takes the Bazel lock itself
	t.Logf("e2e.sh (%s):\n%s", time.Since(start).Round(time.Second), out)
	if err != nil {
		t.Fatalf("e2e.sh failed: %v", err)
	}
}
