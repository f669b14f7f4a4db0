package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// HostLinkerScript is nvlink's -ghls (--gen-host-linker-script), which nvcc
// --host-linker-script=use-lcs runs before the host link of an -rdc build
// (nvcc -hls=gen-lcs, with -aug-hls for lcs-aug, writes it as the output):
// a GNU ld script that keeps the sections holding device code
// (.nvFatBinSegment, __nv_relfatbin, .nv_fatbin) together for large
// relocatable device objects. No device code is linked.
type HostLinkerScript struct {
	// Kind is "lcs-aug", the device sections alone (a script that augments
	// the host linker's own), or "lcs-abs", the host linker's default
	// script followed by them.
	Kind string
	// Output is -o; "" writes lcs-aug to standard output.
	Output string
	// CCBin is --host-ccbin, the host compiler whose link options choose
	// ld's default script ("" is gcc); Relocatable (--host-relocatable-link,
	// nvcc -r), Shared (-shared) and M32 (-m32) are given to it.
	CCBin                    string
	Relocatable, Shared, M32 bool
}

// augScript is lcs-aug, byte for byte as nvlink 11.8, 12.4 and 12.5 write
// it (the space after the second line's brace included).
const augScript = "SECTIONS\n{\n\t.nvFatBinSegment : { *(.nvFatBinSegment) }\n\t__nv_relfatbin : { *(__nv_relfatbin) } \n\t.nv_fatbin : { *(.nv_fatbin) }\n}\n"

// errScriptFailed is nvlink's message when the host linker's script could
// not be made or ld does not take it.
var errScriptFailed = errors.New("host linker script creation failed: ld would not read the script the host linker's default made (nvlink: \"Host linker script creation failed.\")")

// writeHostLinkerScript writes s: to a temporary file beside Output,
// renamed into place only once complete, so a failure leaves no file.
func writeHostLinkerScript(s *HostLinkerScript, stdout, stderr io.Writer) error {
	if s.Kind == "lcs-aug" {
		if s.Output == "" {
			_, err := io.WriteString(stdout, augScript)
			return err
		}
		return writeAtomic(s.Output, func(path string) error { return os.WriteFile(path, []byte(augScript), 0o644) })
	}
	return writeAtomic(s.Output, func(path string) error {
		// nvlink runs these two shell commands, spelt so: the host
		// compiler's link options (-pie, -z ..., -m ..., -r, -shared, as
		// its driver would give collect2) choose ld's default script,
		// which ld --verbose prints between its version line and two
		// lines of '=' (removed); then ld must read the script, failing
		// only for want of input files.
		q := shellQuote(path)
		cmd := "ld --verbose $(" + s.compilerDriver() + " 2>&1 | grep collect2  | grep -wo -e -pie -e \"-z [^[:space:]]*\" -e \"-m [^[:space:]]*\" -e -r -e -shared  | tr \"\\n\" \" \" ) | grep -Fvx -e \"$(ld -V)\" | sed '1,2d;$d' > " + q
		check := "ld -T " + q + " 2>&1 | grep 'no input files' > /dev/null"
		for _, c := range []string{cmd, check} {
			sh := exec.Command("sh", "-c", c)
			sh.Stdout, sh.Stderr = stderr, stderr
			if err := sh.Run(); err != nil {
				return errScriptFailed
			}
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return err
		}
		if _, err := io.WriteString(f, augScript); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	})
}

// compilerDriver is the host compiler's dry run as nvlink spells it: one
// of -shared and -r (-shared wins), then the -m option.
func (s *HostLinkerScript) compilerDriver() string {
	cc := s.CCBin
	if cc == "" {
		cc = "gcc"
	}
	var b bytes.Buffer
	b.WriteString(shellQuote(cc) + " -### /dev/null ")
	switch {
	case s.Shared:
		b.WriteString(" -shared ")
	case s.Relocatable:
		b.WriteString(" -r ")
	}
	if s.M32 {
		b.WriteString(" -m32 ")
	} else {
		b.WriteString(" -m64 ")
	}
	return b.String()
}

// shellQuote quotes a word for sh when it needs it (nvlink does not: a
// path with a space breaks its command).
func shellQuote(s string) string {
	if s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+=:,@%", r))
	}) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// writeAtomic has write fill a temporary file in path's directory and
// renames it to path once write succeeds; on failure nothing is left.
func writeAtomic(path string, write func(tmp string) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("could not open output file '%s'", path)
	}
	tmp := f.Name()
	f.Close()
	if err := write(tmp); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Chmod(tmp, 0o644); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
