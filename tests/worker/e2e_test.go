//go:build unix

// Package workere2e runs e2e.sh, the end-to-end check of cudalink's
// persistent worker under the real Bazel, from go test. It is skipped
// without bazel on PATH and with -short.
package workere2e

import (
	"os/exec"
	"strings"
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
	runE2E(t)
}

// TestWorkerUnderBazel7 runs the same checks with Bazel 7.7.1 and bzlmod in
// the sid chroot scripts/setup-bazel7.sh builds; e2e.sh --bazel7 prints SKIP
// when the chroot is absent and this is not root.
func TestWorkerUnderBazel7(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: starts a Bazel server")
	}
	runE2E(t, "--bazel7")
}

func runE2E(t *testing.T, args ...string) {
	start := time.Now()
	out, err := exec.Command("bash", append([]string{"e2e.sh"}, args...)...).CombinedOutput() // e2e.sh takes the Bazel lock itself
	t.Logf("e2e.sh %s(%s):\n%s", strings.Join(append(args, ""), " "), time.Since(start).Round(time.Second), out)
	if err != nil {
		t.Fatalf("e2e.sh failed: %v", err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "SKIP: ") {
			t.Skip(line)
		}
	}
}
