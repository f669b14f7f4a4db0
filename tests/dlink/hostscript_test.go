package dlink

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestHostLinkerScript: nvlink's -ghls (--gen-host-linker-script), which
// nvcc --host-linker-script=use-lcs runs before the host link of an -rdc
// build and nvcc -hls=gen-lcs runs for its output. cudalink must write
// each release's nvlink's script byte for byte (lcs-aug: the device
// sections; lcs-abs: the host linker's default script, chosen by the host
// compiler's link options, followed by them), with nvlink's exit status,
// and refuse input files as nvlink does. Then the real nvcc -hls=gen-lcs
// (11.8), with a wrapper named nvlink first on PATH, writes the same file.
func TestHostLinkerScript(t *testing.T) {
	if _, err := exec.LookPath("ld"); err != nil {
		t.Skipf("SKIP: ld is not on PATH: -ghls=lcs-abs runs it")
	}
	root := t.TempDir()
	cudalink := cudalinkCommand(t, root)
	nvlinks := map[string]string{"11.8": "nvlink"}
	for _, v := range []string{"12.4", "12.5"} {
		nvlinks[v] = "/opt/cuda-" + v + "/usr/bin/nvlink"
	}
	cases := [][]string{
		{"-ghls=lcs-aug", "-o", "OUT"},
		{"-m64", "--gen-host-linker-script=lcs-abs", "-o", "OUT", "--host-ccbin", "gcc"},
		{"-m64", "--host-relocatable-link", "--gen-host-linker-script=lcs-abs", "-o", "OUT", "--host-ccbin", "gcc"},
		{"-shared", "--host-relocatable-link", "-ghls=lcs-abs", "-o", "OUT"},
		{"-r", "-ghls=lcs-abs", "-o", "OUT"},
		{"-m64", "--gen-host-linker-script=lcs-aug", "-o", "OUT", "--host-ccbin", "gcc"},
		{"-ghls=lcs-aug", "-o", "OUT", "-ghls=lcs-abs"},
		{"-ghls=lcs-aug", "in.o", "-o", "OUT"},
	}
	must(t, os.WriteFile(filepath.Join(root, "in.o"), bytes.Repeat([]byte{0}, 64), 0o644))
	ran := 0
	for _, tk := range []string{"11.8", "12.4", "12.5"} {
		nvlink, err := exec.LookPath(nvlinks[tk])
		if err != nil {
			t.Logf("SKIP CUDA %s: no nvlink (%v)", tk, err)
			continue
		}
		for i, c := range cases {
			run := func(bin, out string) (status int, file []byte, msgs string) {
				args := make([]string, len(c))
				for j, a := range c {
					args[j] = strings.ReplaceAll(a, "OUT", out)
				}
				cmd := exec.Command(bin, args...)
				cmd.Dir = root
				var b bytes.Buffer
				cmd.Stdout, cmd.Stderr = &b, &b
				err := cmd.Run()
				if ee, ok := err.(*exec.ExitError); ok {
					status = ee.ExitCode()
				} else if err != nil {
					t.Fatal(err)
				}
				file, err = os.ReadFile(filepath.Join(root, out))
				if err != nil && !os.IsNotExist(err) {
					t.Fatal(err)
				}
				return status, file, b.String()
			}
			ns, nf, nm := run(nvlink, "nv.lds")
			cs, cf, cm := run(cudalink, "cl.lds")
			ran++
			switch {
			case ns != cs:
				t.Errorf("CUDA %s, %s: cudalink exit %d (%s), nvlink %d (%s)", tk, strings.Join(c, " "), cs, cm, ns, nm)
			case !bytes.Equal(nf, cf):
				t.Errorf("CUDA %s, %s: cudalink wrote %d bytes, nvlink %d%s", tk, strings.Join(c, " "), len(cf), len(nf), firstDifference(string(nf), string(cf)))
			case i == 1 && !bytes.Contains(cf, []byte("SEARCH_DIR(")):
				t.Errorf("CUDA %s, %s: not ld's default script:\n%s", tk, strings.Join(c, " "), cf)
			}
			os.Remove(filepath.Join(root, "nv.lds"))
			os.Remove(filepath.Join(root, "cl.lds"))
		}
	}
	if ran == 0 {
		t.Skip("SKIP: no nvlink of CUDA 11.8, 12.4 or 12.5")
	}

	// nvcc -hls=gen-lcs as it runs, and with cudalink for nvlink.
	if _, err := exec.LookPath("nvcc"); err != nil {
		t.Logf("SKIP nvcc -hls=gen-lcs: no nvcc on PATH")
		return
	}
	wrapperDir := mkdir(t, root, "wrapper")
	must(t, os.WriteFile(filepath.Join(wrapperDir, "nvlink"), []byte("#!/bin/sh\nexec "+shellLine([]string{cudalink})+" \"$@\"\n"), 0o755))
	var outs [2][]byte
	for i, path := range []string{os.Getenv("PATH"), wrapperDir + ":" + os.Getenv("PATH")} {
		out := filepath.Join(root, "gen.lds")
		cmd := exec.Command("nvcc", "--host-linker-script=gen-lcs", "-o", out)
		cmd.Env = append(os.Environ(), "PATH="+path)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("nvcc --host-linker-script=gen-lcs (PATH %s): %v\n%s", path, err, b)
		}
		outs[i] = readFile(t, out)
		os.Remove(out)
	}
	if !bytes.Equal(outs[0], outs[1]) || len(outs[0]) == 0 {
		t.Errorf("nvcc -hls=gen-lcs with cudalink wrote %d bytes, with nvlink %d%s", len(outs[1]), len(outs[0]), firstDifference(string(outs[0]), string(outs[1])))
	}
}
