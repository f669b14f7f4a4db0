package cli

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/cudalink/cudalink/linker"
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

// writeHostLinkerScript writes s to Output as the link's outputs are
// written (linker.WriteOutputFile: renamed into place only once complete,
// so a failure leaves no file), or lcs-aug to stdout without -o.
func writeHostLinkerScript(s *HostLinkerScript, stdout, stderr io.Writer) error {
	script := []byte(augScript)
	if s.Kind == "lcs-abs" {
		def, err := s.defaultScript(stderr)
		if err != nil {
			return err
		}
		script = append(def, script...)
	}
	if s.Output == "" {
		_, err := stdout.Write(script)
		return err
	}
	return linker.WriteOutputFile(s.Output, script)
}

// defaultScript is the host linker's default script as nvlink gets it,
// with the two shell commands it runs, spelt so: the host compiler's link
// options (-pie, -z ..., -m ..., -r, -shared, as its driver would give
// collect2) choose ld's default script, which ld --verbose prints between
// its version line and two lines of '=' (removed); then ld must read the
// script, failing only for want of input files. nvlink redirects the first
// into its output file and gives ld that file; cudalink reads the script
// from the command's output and gives ld a temporary copy.
func (s *HostLinkerScript) defaultScript(stderr io.Writer) ([]byte, error) {
	var script bytes.Buffer
	sh := exec.Command("sh", "-c", "ld --verbose $("+s.compilerDriver()+" 2>&1 | grep collect2  | grep -wo -e -pie -e \"-z [^[:space:]]*\" -e \"-m [^[:space:]]*\" -e -r -e -shared  | tr \"\\n\" \" \" ) | grep -Fvx -e \"$(ld -V)\" | sed '1,2d;$d'")
	sh.Stdout, sh.Stderr = &script, stderr
	if sh.Run() != nil {
		return nil, errScriptFailed
	}
	f, err := os.CreateTemp("", "cudalink-*.lds")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	_, err = f.Write(script.Bytes())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	check := exec.Command("sh", "-c", "ld -T "+shellQuote(f.Name())+" 2>&1 | grep 'no input files' > /dev/null")
	check.Stdout, check.Stderr = stderr, stderr
	if check.Run() != nil {
		return nil, errScriptFailed
	}
	return script.Bytes(), nil
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
