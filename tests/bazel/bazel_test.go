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
	"strings"
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
	runChecks(t)
}

// TestBazel7Rules runs the same checks with Bazel 7.7.1 and bzlmod in the
// sid chroot scripts/setup-bazel7.sh builds, and the project as a root
// module built by rules_go. run.sh --bazel7 prints SKIP when the chroot is
// absent and this is not root; as root it builds a missing chroot.
func TestBazel7Rules(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the Bazel 7 checks take a few minutes")
	}
	runChecks(t, "--bazel7")
}

// runChecks runs run.sh with args, one run at a time on a machine.
func runChecks(t *testing.T, args ...string) {
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
	cmd := exec.Command("bash", append([]string{"run.sh"}, args...)...)
	out, err := cmd.CombinedOutput()
	t.Logf("run.sh %s(%s):\n%s", strings.Join(append(args, ""), " "), time.Since(start).Round(time.Second), out)
	if err != nil {
		t.Fatalf("run.sh failed: %v", err)
	}
	if line, ok := skipLine(out); ok {
		t.Skip(line)
	}
}

// skipLine returns run.sh's SKIP line, if it printed one.
func skipLine(out []byte) (string, bool) {
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "SKIP: ") {
			return line, true
		}
	}
	return "", false
}
