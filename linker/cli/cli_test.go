package cli

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/cudalink/cudalink/linker"
)

// These tests stop before the link (but profile_test.go): they do not need
// the linker to work.

func run(args ...string) (status int, stdout, stderr string) {
	var out, errs bytes.Buffer
	status = Run(args, &out, &errs)
	return status, out.String(), errs.String()
}

func TestRunHelp(t *testing.T) {
	for _, arg := range []string{"-h", "--help"} {
		status, stdout, stderr := run(arg, "-V")
		if status != 0 || stderr != "" {
			t.Errorf("%s: status %d, stderr %q; want 0 and nothing", arg, status, stderr)
		}
		if !strings.HasPrefix(stdout, "\nUsage  : cudalink [options] <objects>\n\nOptions\n=======\n\n") {
			t.Errorf("%s: help starts %q", arg, stdout[:min(len(stdout), 80)])
		}
		for _, want := range []string{
			"--arch <gpu architecture name>                      (-arch)\n",
			"--library-path <library-path>,...                   (-L)\n",
			"--options-file <file>,...                           (-optf)\n",
			"--register-link-binaries <file name>\n",
			"--warning-as-error                                  (-Werror)\n        Make all warnings into errors.\n",
			"        Allowed values for this option:  'X86_64','unknown'.\n",
			"\nPersistent worker\n=================\n\n--persistent_worker\n",
		} {
			if !strings.Contains(stdout, want) {
				t.Errorf("%s: help lacks %q", arg, want)
			}
		}
		for _, line := range strings.Split(stdout, "\n") {
			if len(line) > 88 {
				t.Errorf("help line longer than 88 columns: %q", line)
			}
		}
	}
}

func TestRunVersion(t *testing.T) {
	status, stdout, stderr := run("--version")
	if status != 0 || stderr != "" {
		t.Errorf("status %d, stderr %q; want 0 and nothing", status, stderr)
	}
	if !strings.HasPrefix(stdout, "cudalink: ") {
		t.Errorf("version text %q does not name cudalink", stdout)
	}
	// Every release the linker follows is named, as that nvlink's
	// --version names itself.
	for _, tk := range strings.Fields(linker.SupportedToolkits()) {
		if want := "Cuda compilation tools, release " + tk + ", V" + tk + "."; !strings.Contains(stdout, want) {
			t.Errorf("version text %q does not name nvlink %s (%q)", stdout, tk, want)
		}
	}
}

// TestRunUsageErrors checks that usage errors print one message, exit 1 as
// nvlink does, and create no file.
func TestRunUsageErrors(t *testing.T) {
	dir := inTempDir(t, nil)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-foo", "-arch=sm_80", "-o", "out", "a.o"}, "cudalink: error: unknown option '-foo'\n"},
		{[]string{"-arch=sm_80", "-o", "out"}, "cudalink: error: no input files; use --help for more information\n"},
		{[]string{"-o", "out", "a.o"}, "cudalink: error: no target architecture: use -arch=sm_<N>, e.g. -arch=sm_80\n"},
		{[]string{"-arch=sm_80", "-o", "out", "a.o", "-ghls=lcs-abs"}, "cudalink: error: input files are not allowed with -ghls option; use --help for more information\n"},
		{[]string{"-arch=sm_80", "-arch=sm_75", "-o", "out", "-lto="},
			"cudalink: warning: incompatible redefinition for option 'arch', the last value of this option was used\n" +
				"cudalink: error: no argument expected after '-lto'\n"},
	}
	for _, tt := range tests {
		status, stdout, stderr := run(tt.args...)
		if status != 1 || stdout != "" || stderr != tt.want {
			t.Errorf("Run(%q) = %d, stdout %q, stderr %q; want 1, nothing, %q", tt.args, status, stdout, stderr, tt.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("usage errors left files: %v", entries)
	}
}
