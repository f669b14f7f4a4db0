// Package difftest is the differential test of cudalink against NVIDIA's
// nvlink 11.8 over the link-case corpus in tests/corpus/cases (see
// README.md). This file holds the small helpers the tests use to read the
// corpus; the tests themselves are in corpus_test.go.
package difftest

import (
	"bufio"
	"bytes"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Case is one link case: a directory under tests/corpus/cases with a
// case.txt (format: tests/corpus/README.md), built with one toolkit.
type Case struct {
	Name string // directory name
	// Dir is the absolute path of the directory with the generated files
	// (inputs, expected.*): the case directory for CUDA 11.8,
	// tests/corpus/cuda-<version>/cases/<name> for another toolkit.
	Dir string
	// Toolkit is the CUDA version that built the inputs and ran nvlink:
	// "11.8", "12.4", "12.5".
	Toolkit string
	// Toolkits lists every toolkit the case is built with (`toolkits:`).
	Toolkits []string
	Arch     string   // "sm_80", or "compute_80" (Virtual)
	Inputs   []string // link inputs in order, relative to Dir; may include -L<dir> and -l<name>
	Flags    []string // extra nvlink flags, given to both linkers
	Expect   string   // "ok" or "error"

	// Differs marks a deliberate difference (`cudalink: differs`): nvlink
	// ignores archives of cubins, cudalink links their members. cudalink
	// must succeed and keep the archived kernels, whatever nvlink did.
	Differs bool

	// Ptxas (`ptxas: yes`) says the link compiles PTX, which cudalink does
	// with the toolkit's ptxas: the case needs ptxas on PATH.
	Ptxas bool
	// NVVM (`nvvm: yes`) says the link is an LTO link (-dlto) that regen
	// gave nvlink -nvvmpath=<a directory holding the toolkit's libnvvm>:
	// cudalink gets one too, and ptxas.
	NVVM bool

	// RegisterLinkBinaries (`register-link-binaries: yes`) links as nvcc
	// -dlink runs nvlink, with --register-link-binaries=<file>: both linkers
	// write the list of cudaRegister routines next to their output (see
	// RegFile), and nvlink's list is expected.reg.c.
	RegisterLinkBinaries bool

	// CUDAVersion (`cuda-version: yes`) gives cudalink
	// --cuda-version=<Toolkit>, the release whose nvlink ran: for inputs
	// of a newer release, which that nvlink refuses and cudalink by
	// default links as the newer one's nvlink does.
	CUDAVersion bool

	// From expected.txt:
	ExitStatus int    // nvlink's exit status
	Messages   string // nvlink's stderr+stdout
}

// LTO says the case is a link-time-optimized link (-dlto or -lto): only
// TestCorpus runs it, since it needs -nvvmpath (`nvvm: yes`) and partial
// links (-r) refuse it.
func (c *Case) LTO() bool {
	for _, f := range c.Flags {
		switch f {
		case "-dlto", "--dlto", "-lto", "--link-time-opt":
			return true
		}
	}
	return c.NVVM
}

// Virtual says whether the case links for a virtual target
// (-arch=compute_NN, as the last -arch of the command line: nvlink's last
// value wins): nvlink links nothing and writes only the
// --register-link-binaries file, so the case has no expected.cubin.
func (c *Case) Virtual() bool { return strings.HasPrefix(LastArch(c.Arch, c.Flags), "compute_") }

// LastArch is the -arch value nvlink links for: the last of arch (the
// case's arch:) and the -arch=/--arch= values among flags (its nvlink:).
func LastArch(arch string, flags []string) string {
	for _, f := range flags {
		if v, ok := strings.CutPrefix(f, "-arch="); ok {
			arch = v
		} else if v, ok := strings.CutPrefix(f, "--arch="); ok {
			arch = v
		}
	}
	return arch
}

// Args returns the cudalink/nvlink command line of the case (without
// argv[0]) with inputs spelt as given and the output written to out.
func (c *Case) Args(inputs []string, out string) []string {
	args := []string{"-arch=" + c.Arch}
	if c.RegisterLinkBinaries {
		args = append(args, "--register-link-binaries="+RegFile(out))
	}
	args = append(args, c.Flags...)
	args = append(args, inputs...)
	return append(args, "-o", out)
}

// RegFile is where a link writing out lists the cudaRegister routines
// (--register-link-binaries): out without its .cubin suffix, plus .reg.c.
func RegFile(out string) string {
	return strings.TrimSuffix(out, ".cubin") + ".reg.c"
}

// AbsInputs returns the link inputs as absolute paths (-L<dir> with an
// absolute dir, -l<name> as it is).
func (c *Case) AbsInputs() []string {
	abs := make([]string, len(c.Inputs))
	for i, in := range c.Inputs {
		switch {
		case strings.HasPrefix(in, "-L"):
			abs[i] = "-L" + filepath.Join(c.Dir, in[2:])
		case strings.HasPrefix(in, "-"):
			abs[i] = in
		default:
			abs[i] = filepath.Join(c.Dir, in)
		}
	}
	return abs
}

// InputFiles returns the files the link reads, as absolute paths: the
// inputs named directly and the libraries -l<name> finds (lib<name>.a in
// the first -L directory that has one; a library found nowhere is left out).
func (c *Case) InputFiles() []string {
	var dirs []string
	for _, a := range append(append([]string(nil), c.Flags...), c.Inputs...) {
		if d, ok := strings.CutPrefix(a, "-L"); ok {
			dirs = append(dirs, filepath.Join(c.Dir, d))
		}
	}
	var files []string
	for _, in := range c.Inputs {
		switch {
		case strings.HasPrefix(in, "-l"):
			for _, d := range dirs {
				p := filepath.Join(d, "lib"+in[2:]+".a")
				if _, err := os.Stat(p); err == nil {
					files = append(files, p)
					break
				}
			}
		case strings.HasPrefix(in, "-"):
		default:
			files = append(files, filepath.Join(c.Dir, in))
		}
	}
	return files
}

// InputBytes is the total size of the link inputs that exist.
func (c *Case) InputBytes() int64 {
	var n int64
	for _, p := range c.InputFiles() {
		if fi, err := os.Stat(p); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// ArchivedKernels returns the kernels (STT_FUNC symbols marked
// STO_CUDA_ENTRY) defined by the cubins (relocatable EM_CUDA ELF members) of
// the ar archives among the link inputs, sorted.
func (c *Case) ArchivedKernels() ([]string, error) {
	seen := map[string]bool{}
	var kernels []string
	for _, p := range c.InputFiles() {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		if !bytes.HasPrefix(data, []byte(arMagic)) {
			continue
		}
		members, err := arMembers(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", p, err)
		}
		for _, m := range members {
			f, err := NewCubin(m)
			if err != nil || f.Type != elf.ET_REL {
				continue // not a relocatable cubin (a host object, say)
			}
			syms, err := f.Symbols()
			if err != nil {
				return nil, fmt.Errorf("%s: a cubin member: %v", p, err)
			}
			for _, s := range syms {
				if isKernel(s) && !seen[s.Name] {
					seen[s.Name] = true
					kernels = append(kernels, s.Name)
				}
			}
		}
	}
	sort.Strings(kernels)
	return kernels, nil
}

const (
	arMagic       = "!<arch>\n"
	emCUDA        = elf.Machine(190)
	stoCUDAEntry  = 0x10 // st_other bit of kernels
	arHeaderBytes = 60
)

// NewCubin parses a cubin with debug/elf, which insists on e_version 1:
// cubins store the toolkit version there (0x76 for 11.8), so it is handed a
// copy with the field patched. Anything but an ELF64 EM_CUDA file is an
// error.
func NewCubin(data []byte) (*elf.File, error) {
	if len(data) < 64 || !bytes.HasPrefix(data, []byte(elf.ELFMAG)) || elf.Class(data[elf.EI_CLASS]) != elf.ELFCLASS64 {
		return nil, fmt.Errorf("not an ELF64 file")
	}
	patched := bytes.Clone(data)
	binary.LittleEndian.PutUint32(patched[0x14:], uint32(elf.EV_CURRENT)) // e_version
	f, err := elf.NewFile(bytes.NewReader(patched))
	if err != nil {
		return nil, err
	}
	if f.Machine != emCUDA {
		return nil, fmt.Errorf("machine %d, not EM_CUDA", f.Machine)
	}
	return f, nil
}

// isKernel reports whether s is a kernel of a cubin.
func isKernel(s elf.Symbol) bool {
	return elf.ST_TYPE(s.Info) == elf.STT_FUNC && s.Section != elf.SHN_UNDEF && s.Other&stoCUDAEntry != 0
}

// arMembers returns the contents of the ordinary members of an ar archive
// (not the symbol index or the long-name table).
func arMembers(data []byte) ([][]byte, error) {
	var out [][]byte
	for off := len(arMagic); off < len(data); {
		if off+arHeaderBytes > len(data) || string(data[off+58:off+60]) != "`\n" {
			return nil, fmt.Errorf("bad ar member header at offset %d", off)
		}
		h := data[off : off+arHeaderBytes]
		size, err := strconv.Atoi(strings.TrimSpace(string(h[48:58])))
		if err != nil || size < 0 || off+arHeaderBytes+size > len(data) {
			return nil, fmt.Errorf("bad ar member size at offset %d", off)
		}
		name := string(h[:16])
		if !strings.HasPrefix(name, "/ ") && !strings.HasPrefix(name, "// ") && !strings.HasPrefix(name, "/SYM64/") {
			out = append(out, data[off+arHeaderBytes:off+arHeaderBytes+size])
		}
		off += arHeaderBytes + size + size%2
	}
	return out, nil
}

// DefaultToolkit is the toolkit of tests/corpus/cases and of a case without
// a `toolkits:` line.
const DefaultToolkit = "11.8"

// LoadCases reads every CUDA 11.8 case under dir (tests/corpus/cases),
// sorted by name; cases built only with other toolkits are left out. A
// case whose generated files are missing (regen not run yet) is an error.
func LoadCases(dir string) ([]*Case, error) {
	return LoadToolkitCases(dir, DefaultToolkit)
}

// LoadToolkitCases reads every case under dir (tests/corpus/cases) built
// with the given toolkit, sorted by name: for 11.8 the generated files are in
// the case directories, for another version in
// <dir>/../cuda-<version>/cases/<name>.
func LoadToolkitCases(dir, toolkit string) ([]*Case, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var cases []*Case
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		src := filepath.Join(dir, e.Name())
		tks, err := caseToolkits(src)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(tks, toolkit) {
			continue
		}
		gen := src
		if toolkit != DefaultToolkit {
			gen = filepath.Join(ToolkitCasesDir(dir, toolkit), e.Name())
		}
		c, err := LoadToolkitCase(src, gen, toolkit)
		if err != nil {
			return nil, err
		}
		cases = append(cases, c)
	}
	sort.Slice(cases, func(i, j int) bool { return cases[i].Name < cases[j].Name })
	return cases, nil
}

// ToolkitCasesDir is where the cases of a toolkit other than 11.8 keep their
// generated files, given tests/corpus/cases.
func ToolkitCasesDir(casesDir, toolkit string) string {
	return filepath.Join(filepath.Dir(casesDir), "cuda-"+toolkit, "cases")
}

// caseToolkits reads the `toolkits:` line of dir/case.txt.
func caseToolkits(dir string) ([]string, error) {
	f, err := os.ReadFile(filepath.Join(dir, "case.txt"))
	if err != nil {
		return nil, err
	}
	for _, line := range strings.Split(string(f), "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		if val, ok := strings.CutPrefix(strings.TrimSpace(line), "toolkits:"); ok {
			return strings.Fields(val), nil
		}
	}
	return []string{DefaultToolkit}, nil
}

// LoadCase reads the CUDA 11.8 case in directory dir.
func LoadCase(dir string) (*Case, error) {
	return LoadToolkitCase(dir, dir, DefaultToolkit)
}

// LoadToolkitCase reads the case whose case.txt is in srcDir and whose
// generated files (built with toolkit) are in genDir.
func LoadToolkitCase(srcDir, genDir, toolkit string) (*Case, error) {
	c := &Case{Name: filepath.Base(srcDir), Dir: genDir, Toolkit: toolkit, Toolkits: []string{DefaultToolkit}}
	f, err := os.ReadFile(filepath.Join(srcDir, "case.txt"))
	if err != nil {
		return nil, err
	}
	var sources, link []string
	haveLink := false
	sc := bufio.NewScanner(bytes.NewReader(f))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("%s/case.txt:%d: not a key: value line", c.Name, n)
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		switch key {
		case "arch":
			c.Arch = val
		case "sources":
			sources = append(strings.Fields(val), sources...)
		case "ptx-sources":
			sources = append(sources, strings.Fields(val)...)
		case "link":
			link, haveLink = strings.Fields(val), true
		case "nvlink":
			c.Flags = strings.Fields(val)
		case "expect":
			c.Expect = val
		case "cudalink":
			if val != "differs" {
				return nil, fmt.Errorf("%s/case.txt:%d: cudalink: %q, want differs", c.Name, n, val)
			}
			c.Differs = true
		case "toolkits":
			c.Toolkits = strings.Fields(val)
		case "ptxas":
			if val != "yes" {
				return nil, fmt.Errorf("%s/case.txt:%d: ptxas: %q, want yes", c.Name, n, val)
			}
			c.Ptxas = true
		case "register-link-binaries":
			if val != "yes" {
				return nil, fmt.Errorf("%s/case.txt:%d: register-link-binaries: %q, want yes", c.Name, n, val)
			}
			c.RegisterLinkBinaries = true
		case "cuda-version":
			if val != "yes" {
				return nil, fmt.Errorf("%s/case.txt:%d: cuda-version: %q, want yes", c.Name, n, val)
			}
			c.CUDAVersion = true
		case "nvvm":
			if val != "yes" {
				return nil, fmt.Errorf("%s/case.txt:%d: nvvm: %q, want yes", c.Name, n, val)
			}
			c.NVVM, c.Ptxas = true, true
		case "source-arch", "source-flags", "source-toolkit", "nvcc", "junk", "objects", "objects-no-rdc", "host-sources", "fatbins", "nvcc-lib", "nvcc-dlink", "ld-r", "cat", "ar", "ar-thin", "devrt":
			// used by regen only
		default:
			return nil, fmt.Errorf("%s/case.txt:%d: unknown key %q", c.Name, n, key)
		}
	}
	if c.Arch == "" {
		return nil, fmt.Errorf("%s/case.txt: no arch", c.Name)
	}
	if c.Expect != "ok" && c.Expect != "error" {
		return nil, fmt.Errorf("%s/case.txt: expect is %q, want ok or error", c.Name, c.Expect)
	}
	if c.RegisterLinkBinaries && (c.Expect != "ok" && !c.Virtual() || c.Differs) {
		// (A virtual link that fails writes no .reg.c either.)
		return nil, fmt.Errorf("%s/case.txt: register-link-binaries is only for `expect: ok` cases nvlink and cudalink both link, and virtual targets' errors", c.Name)
	}
	if haveLink {
		c.Inputs = link
	} else {
		for _, s := range sources {
			c.Inputs = append(c.Inputs, strings.TrimSuffix(s, filepath.Ext(s))+".cubin")
		}
	}
	if len(c.Inputs) == 0 {
		return nil, fmt.Errorf("%s/case.txt: no link inputs", c.Name)
	}

	exp, err := os.ReadFile(filepath.Join(genDir, "expected.txt"))
	if err != nil {
		return nil, fmt.Errorf("%s: %v (run go run ./tests/corpus/regen -cuda %s %s)", c.Name, err, toolkit, c.Name)
	}
	first, rest, _ := strings.Cut(string(exp), "\n")
	status, ok := strings.CutPrefix(first, "exit ")
	if !ok {
		return nil, fmt.Errorf("%s/expected.txt: first line %q is not \"exit N\"", c.Name, first)
	}
	if c.ExitStatus, err = strconv.Atoi(status); err != nil {
		return nil, fmt.Errorf("%s/expected.txt: %v", c.Name, err)
	}
	c.Messages = rest
	return c, nil
}

// quoted finds '...' tokens; an opening quote right after a letter or
// digit is an apostrophe ("doesn't"), not a quote.
var quoted = regexp.MustCompile(`(^|[^A-Za-z0-9])'([^'\n]*)'`)

// QuotedTokens returns the '...'-quoted tokens of nvlink's messages (file
// names, symbols, arch names), which cudalink's messages must mention too.
// Empty tokens and tokens right after '=' (fatbinary internals such as
// key='0', ident=”) are left out. The result is sorted and deduplicated.
func QuotedTokens(messages string) []string {
	seen := map[string]bool{}
	var toks []string
	for _, m := range quoted.FindAllStringSubmatch(messages, -1) {
		if m[1] == "=" || m[2] == "" || seen[m[2]] {
			continue
		}
		seen[m[2]] = true
		toks = append(toks, m[2])
	}
	sort.Strings(toks)
	return toks
}

// logFile finds the input a line of libnvvm's log names ("k.o: error:
// incompatible IR detected", which nvlink 12.x passes on).
var logFile = regexp.MustCompile(`(?m)^([^\s:']+): error: `)

// LogFiles returns the inputs that the lines of libnvvm's log among
// nvlink's messages name, which cudalink's messages must name too, in the
// order first named.
func LogFiles(messages string) []string {
	var files []string
	for _, m := range logFile.FindAllStringSubmatch(messages, -1) {
		if !slices.Contains(files, m[1]) {
			files = append(files, m[1])
		}
	}
	return files
}

// nvlinkUndefined matches nvlink's report of an undefined symbol.
var nvlinkUndefined = regexp.MustCompile(`(?m)Undefined reference to '([^']*)'`)

// cudalinkUndefined matches cudalink's: the name, demangled with the
// mangled one after it in parentheses, or as it is.
var cudalinkUndefined = regexp.MustCompile(`(?m)undefined device symbol: (.*)$`)

// UndefinedOrder lists the symbols nvlink's (or cudalink's) messages report
// undefined, in the order first reported, by their mangled names.
func UndefinedOrder(messages string) []string {
	seen := map[string]bool{}
	var names []string
	add := func(name string) {
		if !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
	}
	for _, m := range nvlinkUndefined.FindAllStringSubmatch(messages, -1) {
		add(m[1])
	}
	for _, m := range cudalinkUndefined.FindAllStringSubmatch(messages, -1) {
		name := m[1]
		if i := strings.LastIndex(name, " ("); i >= 0 && strings.HasSuffix(name, ")") {
			name = name[i+2 : len(name)-1]
		}
		add(name)
	}
	return names
}

// nvlinkDuplicate matches nvlink's report of a symbol defined twice, with
// the file of the second definition and the file it names first.
var nvlinkDuplicate = regexp.MustCompile(`(?m)Multiple definition of '([^']*)' in '([^']*)', first defined in '([^']*)'`)

// cudalinkDuplicate matches cudalink's, with the ">>> in <file>" and
// ">>> first defined in <file>" lines after it.
var cudalinkDuplicate = regexp.MustCompile(`(?m)duplicate definition of device symbol[^:]*: (.*)\n>>> in (.*)\n>>> first defined in (.*)$`)

// Duplicates lists the duplicate definitions nvlink's (or cudalink's)
// messages report, as "mangled name in file, first defined in file", in
// the order printed (a file's functions before its variables).
func Duplicates(messages string) []string {
	var out []string
	for _, m := range nvlinkDuplicate.FindAllStringSubmatch(messages, -1) {
		out = append(out, m[1]+" in "+m[2]+", first defined in "+m[3])
	}
	for _, m := range cudalinkDuplicate.FindAllStringSubmatch(messages, -1) {
		name := m[1]
		if i := strings.LastIndex(name, " ("); i >= 0 && strings.HasSuffix(name, ")") {
			name = name[i+2 : len(name)-1]
		}
		out = append(out, name+" in "+m[2]+", first defined in "+m[3])
	}
	return out
}

// diagnosticLine matches, in nvlink's words or cudalink's, the messages
// whose order DiagnosticOrder compares: the stack size warning, the shared
// memory and constant bank limits, the undefined references and the
// register limit errors (the same words in both).
var diagnosticLine = regexp.MustCompile(`(?m)(?:Stack size for entry function '([^']*)' cannot be statically determined$|Entry function '([^']*)' uses too much shared data|entry function uses too much shared data [^:]*: (.*)$|(File uses too much global constant data)|Undefined reference to '([^']*)'|undefined device symbol: (.*)$|entry function '([^']*)' with max regcount of \d+ calls function '([^']*)')`)

// DiagnosticOrder lists nvlink's (or cudalink's) stack size warnings, limit
// errors, undefined references and register limit errors in the order
// printed, each as "kind name" with the mangled name (an undefined symbol
// at its first report only; "regs kernel function" for a register limit).
func DiagnosticOrder(messages string) []string {
	mangled := func(name string) string {
		if i := strings.LastIndex(name, " ("); i >= 0 && strings.HasSuffix(name, ")") {
			return name[i+2 : len(name)-1]
		}
		return name
	}
	var out []string
	undefined := map[string]bool{}
	for _, m := range diagnosticLine.FindAllStringSubmatch(messages, -1) {
		switch {
		case m[1] != "":
			out = append(out, "stack "+m[1])
		case m[2] != "":
			out = append(out, "shared "+m[2])
		case m[3] != "":
			out = append(out, "shared "+mangled(m[3]))
		case m[4] != "":
			out = append(out, "constant")
		case m[7] != "":
			out = append(out, "regs "+m[7]+" "+m[8])
		default:
			name := m[5]
			if name == "" {
				name = mangled(m[6])
			}
			if !undefined[name] {
				undefined[name] = true
				out = append(out, "undefined "+name)
			}
		}
	}
	return out
}

// limitSize matches the sizes a limit error gives, in nvlink's words or
// cudalink's: "uses too much global constant data (0x12024 bytes, 0x10000
// max)", "uses too much shared data (...)".
var limitSize = regexp.MustCompile(`uses too much [a-z ]*data \((0x[0-9a-f]+ bytes, 0x[0-9a-f]+ max)\)`)

// LimitSizes lists the sizes of nvlink's (or cudalink's) limit errors in
// the order printed: what it counted, and the limit.
func LimitSizes(messages string) []string {
	var out []string
	for _, m := range limitSize.FindAllStringSubmatch(messages, -1) {
		out = append(out, m[1])
	}
	return out
}

// stackSizeWarning matches the warning nvlink and cudalink give, in the same
// words, for a kernel whose call graph recurses.
var stackSizeWarning = regexp.MustCompile(`(?m)Stack size for entry function '([^']*)' cannot be statically determined$`)

// StackSizeWarnings lists the kernels nvlink's (or cudalink's) stack size
// warnings name, in order, each as often as warned (nvlink warns once per
// call graph edge of the kernel that leads into recursion).
func StackSizeWarnings(messages string) []string {
	var out []string
	for _, m := range stackSizeWarning.FindAllStringSubmatch(messages, -1) {
		out = append(out, m[1])
	}
	return out
}

// redefinitionWarning matches the warning nvlink and cudalink give, in the
// same words, for a single-valued option given again with another value.
var redefinitionWarning = regexp.MustCompile(`(?m)incompatible redefinition for option '([^']*)', the last value of this option was used$`)

// RedefinitionWarnings lists the options nvlink's (or cudalink's)
// "incompatible redefinition" warnings name, in order: nvlink names each by
// its long name without dashes ('arch', 'output-file' for -o, 'Xptxas').
func RedefinitionWarnings(messages string) []string {
	var out []string
	for _, m := range redefinitionWarning.FindAllStringSubmatch(messages, -1) {
		out = append(out, m[1])
	}
	return out
}

// readLine matches the lines nvlink's -dlto prints as it reads each input
// (lto.go's announceInputs): the info line of partial LTO and "SM Arch
// not found", with the input each names.
var readLine = regexp.MustCompile(`(?m)(?:requested LTO but '([^']*)' not built for LTO|SM Arch \('[^']*'\) not found in '([^']*)')`)

// ReadOrder lists the inputs nvlink's (or cudalink's) read lines name, in
// the order printed: "partial NAME" for an info line of partial LTO,
// "arch NAME" for "SM Arch not found".
func ReadOrder(messages string) []string {
	var out []string
	for _, m := range readLine.FindAllStringSubmatch(messages, -1) {
		if m[1] != "" {
			out = append(out, "partial "+m[1])
		} else {
			out = append(out, "arch "+m[2])
		}
	}
	return out
}

// PtxasLines counts the lines of ptxas's own in messages (nvlink's or
// cudalink's): "ptxas info", "ptxas warning", "ptxas <input>, line N;
// error", which a link prints only where it compiled PTX.
func PtxasLines(messages string) int {
	n := 0
	for _, line := range strings.Split(messages, "\n") {
		if strings.HasPrefix(line, "ptxas ") {
			n++
		}
	}
	return n
}

// ewpWarning matches the warning nvlink and cudalink give, in the same
// words, for an input linked next to an -ewp image.
var ewpWarning = regexp.MustCompile(`(?m)'([^']*)': -ewp compiled objects should only link with libcudadevrt`)

// EWPWarnings lists the inputs nvlink's (or cudalink's) -ewp mix warnings
// name, in order (nvlink gives them as it merges each input, and merges
// none after one with duplicate definitions).
func EWPWarnings(messages string) []string {
	var out []string
	for _, m := range ewpWarning.FindAllStringSubmatch(messages, -1) {
		out = append(out, m[1])
	}
	return out
}

// refusalLine matches, in nvlink's words or cudalink's (with the ">>> in
// <file>" line after it), the errors of an input nvlink refuses as it
// reads the inputs: a file it cannot open, a cubin of another SM, one
// newer than the toolkit, old sm_90 code, an -ewp image of another release
// (whose input nvlink does not name).
var refusalLine = regexp.MustCompile(`(?m)(?:Could not open input file '([^']*)'|Input file '([^']*)' arch does not match target|Input file '([^']*)' newer than toolkit|Input file '([^']*)' must be recompiled with toolkit|cannot open input file[^\n]*\n>>> in (.*)$|does not match the target architecture sm_\d+[^\n]*\n>>> in (.*)$|input file newer than toolkit[^\n]*\n>>> in (.*)$|input must be recompiled with toolkit[^\n]*\n>>> in (.*)$|(linking with -ewp objects requires using current toolkit))`)

// memberParens matches an archive member as cudalink names it, lib.a(b.o).
var memberParens = regexp.MustCompile(`^(.*\.a)\(([^()]*)\)$`)

// Refusals lists the inputs nvlink's (or cudalink's) messages refuse as
// they are read, in order, each as "kind file" (open, arch, newer,
// recompile) or "ewp" (nvlink does not name the -ewp image): nvlink stops
// at the first input it refuses, so it lists one at most.
func Refusals(messages string) []string {
	kinds := []string{"open", "arch", "newer", "recompile"}
	var out []string
	for _, m := range refusalLine.FindAllStringSubmatchIndex(messages, -1) {
		for g := 1; g <= 9; g++ {
			if m[2*g] < 0 {
				continue
			}
			if g == 9 {
				out = append(out, "ewp")
				break
			}
			// cudalink names an empty argument '', and a member
			// lib.a(b.o), nvlink lib.a:b.o.
			file := messages[m[2*g]:m[2*g+1]]
			if g > 4 && file == "''" {
				file = ""
			}
			out = append(out, kinds[(g-1)%4]+" "+memberParens.ReplaceAllString(file, "$1:$2"))
			break
		}
	}
	return out
}

// cwd is held while InDir runs.
var cwd sync.Mutex

// InDir runs f with the working directory dir, as nvlink was run for a case
// (inputs and messages name files relative to it), one call at a time: the
// working directory is the process's. The directory is back when InDir
// returns, so a test may run it and then go on in parallel (t.Chdir forbids
// it).
func InDir(dir string, f func()) error {
	cwd.Lock()
	defer cwd.Unlock()
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	if err := os.Chdir(dir); err != nil {
		return err
	}
	defer func() {
		if err := os.Chdir(wd); err != nil {
			panic(err) // every later relative path would be wrong
		}
	}()
	f()
	return nil
}
