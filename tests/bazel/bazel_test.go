//go:build unix

// Package bazel runs tests/bazel/run.sh, the checks of the Bazel rules, from
// go test: lint, BUILD-file coverage, analysis tests, end-to-end links and
// reproducibility with the real Bazel. It is skipped without bazel on PATH
// and with -short.
package bazel

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestBazelRules(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the Bazel checks take a few minutes")
	}
	if _, err := exec.LookPath("bazel"); err != nil {
		t.Skip("bazel is not installed; the Bazel rules are not tested")
	}
	// One run at a time on a machine, also across go test processes: each
	// run starts Bazel servers and a 2-core machine does not take two.
	lock, err := os.OpenFile(filepath.Join(os.TempDir(), "cudalink-bazel-test.lock"), os.O_CREATE|os.O_RDWR, 0o666)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)

	start := time.Now()
	cmd := exec.Command("bash", "run.sh")
	out, err := cmd.CombinedOutput()
	t.Logf("run.sh (%s):\n%s", time.Since(start).Round(time.Second), out)
	if err != nil {
		t.Fatalf("run.sh failed: %v", err)
	}
}
