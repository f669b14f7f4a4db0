package cli

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestParamFile: "@FILE" expands to FILE's lines (Bazel's multiline
// format), in place, keeping spaces and commas inside an argument.
func TestParamFile(t *testing.T) {
	dir := t.TempDir()
	params := filepath.Join(dir, "link.params")
	body := "-arch=sm_80\n-o\nout dir/x.cubin\n-kernels-used=k_a,k_b\na b.cubin\n"
	if err := os.WriteFile(params, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd, err := Parse([]string{"-v", "@" + params, "last.cubin"})
	if err != nil {
		t.Fatal(err)
	}
	cfg := cmd.Config
	if cfg.Arch != 80 || cfg.Output != "out dir/x.cubin" || !cfg.Verbose {
		t.Errorf("arch %d, output %q, verbose %v", cfg.Arch, cfg.Output, cfg.Verbose)
	}
	if !slices.Equal(cfg.KernelsUsed, []string{"k_a", "k_b"}) {
		t.Errorf("kernels used %q", cfg.KernelsUsed)
	}
	var inputs []string
	for _, in := range cfg.Inputs {
		inputs = append(inputs, in.Path)
	}
	if !slices.Equal(inputs, []string{"a b.cubin", "last.cubin"}) {
		t.Errorf("inputs %q", inputs)
	}

	// CRLF line ends are accepted; a missing file is an error naming it.
	if err := os.WriteFile(params, []byte("-arch=sm_80\r\n-o\r\nx\r\na.cubin\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if cmd, err := Parse([]string{"@" + params}); err != nil || cmd.Config.Output != "x" {
		t.Errorf("CRLF parameter file: %v", err)
	}
	missing := filepath.Join(dir, "missing")
	want := "cannot read parameter file '" + missing + "': no such file or directory"
	if _, err := Parse([]string{"@" + missing}); err == nil || err.Error() != want {
		t.Errorf("missing parameter file: got %v, want %q", err, want)
	}
	want = "cannot read parameter file '" + dir + "': is a directory"
	if _, err := Parse([]string{"@" + dir}); err == nil || err.Error() != want {
		t.Errorf("directory as parameter file: got %v, want %q", err, want)
	}
}
