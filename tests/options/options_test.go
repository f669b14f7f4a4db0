// Package options checks that what cudalink says about its options is
// true: every option --help lists is accepted, every value it names
// refused is refused, and every option the documentation names exists.
package options

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/cudalink/cudalink/linker/cli"
	"github.com/cudalink/cudalink/linker/worker/linkworker"
)

// entry is one option of --help.
type entry struct {
	long, short string   // names after "--" and "-"; short may be ""
	arg         string   // the placeholder, "<file name>"; "" for a flag
	allowed     []string // "Allowed values for this option"
}

var (
	entryLine   = regexp.MustCompile(`^(--?[A-Za-z0-9_-]+)(?: (<[^>]*>)(?:,\.\.\.)?)?\s*(?:\(-([A-Za-z0-9_-]+)\))?$`)
	quotedValue = regexp.MustCompile(`'([^']*)'`)
)

// help runs cudalink --help and splits it into its sections: the link
// options, the persistent worker's flags, and the closing note on refused
// options.
func help(t *testing.T) (opts, worker []entry, refused []string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if status := cli.Run([]string{"--help"}, &stdout, &stderr); status != 0 || stderr.Len() != 0 {
		t.Fatalf("cudalink --help: exit %d, stderr %q", status, stderr.String())
	}
	text := stdout.String()
	optText, rest, ok1 := strings.Cut(text, "\nPersistent worker\n=================\n")
	workerText, note, ok2 := strings.Cut(rest, "\nNot supported\n=============\n")
	if !ok1 || !ok2 {
		t.Fatalf("--help lacks its 'Persistent worker' or 'Not supported' section:\n%s", text)
	}
	for _, m := range quotedValue.FindAllStringSubmatch(note, -1) {
		refused = append(refused, m[1])
	}
	return entries(t, optText), entries(t, workerText), refused
}

// entries reads the option entries of one section of --help.
func entries(t *testing.T, text string) []entry {
	t.Helper()
	var out []entry
	var allowedText string
	flush := func() {
		if len(out) > 0 && allowedText != "" {
			for _, m := range quotedValue.FindAllStringSubmatch(allowedText, -1) {
				out[len(out)-1].allowed = append(out[len(out)-1].allowed, m[1])
			}
		}
		allowedText = ""
	}
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "-"):
			flush()
			m := entryLine.FindStringSubmatch(line)
			if m == nil {
				t.Errorf("cannot read the --help entry %q", line)
				continue
			}
			e := entry{arg: m[2], short: m[3]}
			if long, ok := strings.CutPrefix(m[1], "--"); ok {
				e.long = long
			} else {
				e.short = m[1][1:]
			}
			out = append(out, e)
		case strings.Contains(line, "Allowed values for this option:") || allowedText != "" && strings.TrimSpace(line) != "":
			allowedText += line
		case strings.TrimSpace(line) == "":
			flush()
		}
	}
	flush()
	return out
}

// spellings are the ways an entry may be written.
func (e entry) spellings() []string {
	var s []string
	if e.long != "" {
		s = append(s, "--"+e.long)
	}
	if e.short != "" {
		s = append(s, "-"+e.short)
	}
	return s
}

// values are the arguments to try an entry with: each allowed value, or a
// sample for its placeholder.
func (e entry) values(t *testing.T, samples map[string]string) []string {
	switch {
	case e.arg == "":
		return []string{""}
	case len(e.allowed) > 0:
		return e.allowed
	}
	v, ok := samples[e.arg]
	if !ok {
		t.Errorf("--%s: no sample value for the placeholder %s; add one to the test", e.long, e.arg)
	}
	return []string{v}
}

// TestHelpOptionsAccepted runs every option --help lists, in each of its
// spellings and with each value it allows (or a sample for its
// placeholder), through the command-line parser, and requires it to be
// accepted; the persistent worker's flags go through the worker's parser.
// Every option and value the closing note names must be refused.
func TestHelpOptionsAccepted(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.optf")
	if err := os.WriteFile(empty, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	samples := map[string]string{
		"<file name>":    "x.out",
		"<file>":         empty,
		"<options>":      "-O3",
		"<path>":         "/usr/bin",
		"<amount>":       "32",
		"<kernel>":       "k_main",
		"<variable>":     "counter",
		"<library>":      "cudadevrt",
		"<library-path>": ".",
		"<symbol>":       "bump",
		"<MiB>":          "64",
		"<count>":        "2",
	}
	// What nvlink requires beside an option.
	companions := map[string][]string{"suppress-debug-info": {"-g"},
		"link-time-opt": {"-nvvmpath=/usr"}, "dlto": {"-nvvmpath=/usr"}, "emit-ptx": {"-dlto", "-nvvmpath=/usr"},
		"force-partial-lto": {"-dlto", "-nvvmpath=/usr"}, "force-whole-lto": {"-dlto", "-nvvmpath=/usr"}}
	opts, worker, refused := help(t)
	if len(opts) < 30 || len(worker) == 0 || len(refused) == 0 {
		t.Fatalf("--help lists %d options, %d worker flags and %d refused ones: too few, the test cannot read it", len(opts), len(worker), len(refused))
	}
	for _, e := range opts {
		for _, name := range e.spellings() {
			for _, v := range e.values(t, samples) {
				args := []string{"-arch=sm_80", "-o", "out.cubin", "a.o", name}
				if e.arg != "" {
					args = append(args, v)
				}
				args = append(args, companions[e.long]...)
				want := cli.ActionLink
				switch e.long {
				case "gen-host-linker-script": // no link, and no input file
					args = slices.DeleteFunc(args, func(a string) bool { return a == "a.o" })
					want = cli.ActionHostLinkerScript
				case "help":
					want = cli.ActionHelp
				case "version":
					want = cli.ActionVersion
				}
				cmd, err := cli.Parse(args)
				if err != nil || cmd.Action != want {
					t.Errorf("--help lists %s, but cudalink %s: %v (action %v)", name, strings.Join(args, " "), err, cmd.Action)
				}
			}
		}
	}
	for _, e := range worker {
		for _, v := range e.values(t, samples) {
			args := []string{"--persistent_worker"}
			if e.long != "persistent_worker" {
				args = append(args, "--"+e.long)
				if e.arg != "" {
					args = append(args, v)
				}
			}
			if _, err := linkworker.ParseFlags(args); err != nil {
				t.Errorf("--help lists the worker flag --%s, but cudalink %s: %v", e.long, strings.Join(args, " "), err)
			}
		}
	}
	for _, r := range refused {
		opt := strings.ReplaceAll(r, "<N>", "80")
		args := []string{"-arch=sm_80", "-o", "out.cubin", "a.o", opt}
		if strings.HasPrefix(opt, "-arch=") {
			args = []string{opt, "-o", "out.cubin", "a.o"}
		}
		if cmd, err := cli.Parse(args); err == nil {
			t.Errorf("--help says %s is refused, but cudalink %s is accepted (action %v)", r, strings.Join(args, " "), cmd.Action)
		}
	}
}

// foreign are the options the documentation names that belong to other
// tools, with the tool: they are not checked against cudalink's parser.
var foreign = map[string]string{
	"-dc": "nvcc", "-rdc": "nvcc", "-dlink": "nvcc", "-gencode": "nvcc", "--generate-code": "nvcc", "-lineinfo": "nvcc",
	"-Xnvlink": "nvcc", "-G": "nvcc", "--dryrun": "nvcc", "-nodlink": "nvcc", "-lib": "nvcc", "-t": "nvcc", "-keep": "nvcc",
	"--image3": "fatbinary", "--ident": "fatbinary", "--cmdline": "fatbinary", "--create": "fatbinary",
	"--compress": "fatbinary", "-link": "fatbinary", "-64": "fatbinary",
	"--strategy": "bazel", "--worker_max_instances": "bazel", "--worker_extra_flag": "bazel",
	"--experimental_worker_cancellation": "bazel", "--experimental_worker_allow_json_protocol": "bazel",
	"--override_module": "bazel", "--experimental_downloader_config": "bazel", "--noenable_workspace": "bazel",
	"--platforms": "bazel", "--java_runtime_version": "bazel", "--tool_java_runtime_version": "bazel",
	"-reps": "tests/bench", "-worker-reps": "tests/bench", "-verify": "tests/bench", "-ptx-n": "tests/bench", "-lto-n": "tests/bench", "-diffdir": "tests/bench", "-cpuprofile": "tests/bench", "-launch": "tests/bench",
	"-j": "tests/corpus/regen", "-list": "tests/corpus/regen", "-update": "go test", "-run": "go test",
	"-short": "go test", "-v": "go test", "-count": "go test",
	"--generate-line-info": "ptxas", "-O3": "ptxas", "--dont-merge-basicblocks": "ptxas", "--return-at-end": "ptxas",
	"-c": "ptxas", "-O0": "ptxas", "-O1": "ptxas", "--compile-only": "ptxas",
	// libnvvm's (nvvmCompileProgram) and cicc's, named in docs/ptx-and-lto.md
	"-ftz": "libnvvm", "-prec-div": "libnvvm", "-prec-sqrt": "libnvvm", "-fma": "libnvvm",
	"-link-lto": "libnvvm", "--device-c": "libnvvm", "--force-device-c": "libnvvm", "-maxreg": "libnvvm",
	"-generate-line-info": "libnvvm", "-has-global-host-info": "libnvvm", "-host-ref-file": "libnvvm",
	"-host-ref-ek": "libnvvm",
	"-prec_div":    "cicc", "-prec_sqrt": "cicc", "-fmad": "cicc",
	// nvJitLink's (nvJitLinkCreate), named in docs/ptx-and-lto.md
	"-ptx": "nvJitLink",
	// nvlink 12.x's, which cudalink does not take (docs/dlink.md, Known differences)
	"--uidx-file": "nvlink 12.x", "-uidx": "nvlink 12.x",
}

var (
	codeSpan   = regexp.MustCompile("`([^`\n]+)`")
	optionWord = regexp.MustCompile(`^(--?[A-Za-z][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*)`)
)

// docOptions returns the options named in a Markdown text, each with the
// line it is on: the words starting with "-" in code spans that start with
// an option, "cudalink " or "nvlink ", and in the lines of code blocks that
// run cudalink or nvlink.
func docOptions(text string) map[string]int {
	found := map[string]int{}
	add := func(code string, line int) {
		code = strings.TrimSpace(code)
		first, _, _ := strings.Cut(code, " ")
		if !strings.HasPrefix(code, "-") && first != "cudalink" && first != "nvlink" {
			return
		}
		for _, w := range strings.Fields(code) {
			w = strings.Trim(w, `"'[](),;`)
			if m := optionWord.FindStringSubmatch(w); m != nil {
				if _, ok := found[m[1]]; !ok {
					found[m[1]] = line
				}
			}
		}
	}
	inBlock, cont := false, false
	for i, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inBlock, cont = !inBlock, false
			continue
		}
		if inBlock {
			first, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimSpace(line), "$ "), " ")
			run := first == "cudalink" || first == "nvlink"
			if run || cont {
				add("cudalink "+line, i+1)
			}
			cont = strings.HasSuffix(line, "\\") && (cont || run)
			continue
		}
		for _, m := range codeSpan.FindAllStringSubmatch(line, -1) {
			add(m[1], i+1)
		}
	}
	return found
}

// TestDocsOptionsExist checks that every option README.md and docs/*.md
// name in cudalink's or nvlink's command lines is one cudalink's parser
// (or the persistent worker's) knows, or another tool's (foreign).
func TestDocsOptionsExist(t *testing.T) {
	docs, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil || len(docs) == 0 {
		t.Fatalf("no docs/*.md: %v", err)
	}
	checked := 0
	for _, path := range append(docs, filepath.Join("..", "..", "README.md")) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for opt, line := range docOptions(string(data)) {
			if _, ok := foreign[opt]; ok || strings.HasPrefix(opt, "-D") { // -D: a macro for gcc or nvcc
				continue
			}
			checked++
			if !known(opt) {
				t.Errorf("%s:%d names %s, which cudalink does not know", filepath.Base(path), line, opt)
			}
		}
	}
	if checked < 30 {
		t.Errorf("only %d options found in the documentation: the test cannot read it", checked)
	}
}

// known says whether cudalink's command line or the persistent worker
// takes the option (with a value or not).
func known(opt string) bool {
	if opt == "--persistent_worker" || strings.HasPrefix(opt, "--worker_") {
		_, err := linkworker.ParseFlags([]string{"--persistent_worker", opt, "1"})
		return err == nil || !strings.Contains(err.Error(), "unknown worker flag")
	}
	_, err := cli.Parse([]string{"-arch=sm_80", "-o", "out.cubin", "a.o", opt, "x"})
	return err == nil || !strings.Contains(err.Error(), "unknown option") && !strings.Contains(err.Error(), "undocumented nvlink option")
}

// bzlDictKeys are the keys of the Starlark dict assigned to name in text
// ("_FILE_OPTIONS = {" up to its closing "}").
func bzlDictKeys(t *testing.T, text, name string) []string {
	t.Helper()
	_, rest, ok := strings.Cut(text, "\n"+name+" = {\n")
	body, _, ok2 := strings.Cut(rest, "\n}\n")
	if !ok || !ok2 {
		t.Fatalf("no dict %s in rules/private/link.bzl", name)
	}
	var keys []string
	for _, m := range regexp.MustCompile(`(?m)^\s+"([^"]+)":`).FindAllStringSubmatch(body, -1) {
		keys = append(keys, m[1])
	}
	return keys
}

// TestRuleRefusesFileOptions: every option of --help that names a file
// (<file name>, <file>) is refused in cuda_device_link's linkopts, as an
// option the rule sets itself (_RULE_OPTIONS: -o, --fatbin, ...) or as
// one that reads or writes a file the action would not declare
// (_FILE_OPTIONS: --map, --time, --options-file, ...), so that the rule's
// lists follow the linker's options.
func TestRuleRefusesFileOptions(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "rules", "private", "link.bzl"))
	if err != nil {
		t.Fatal(err)
	}
	refused := append(bzlDictKeys(t, string(data), "_RULE_OPTIONS"), bzlDictKeys(t, string(data), "_FILE_OPTIONS")...)
	opts, _, _ := help(t)
	checked := 0
	for _, e := range opts {
		if e.arg != "<file name>" && e.arg != "<file>" {
			continue
		}
		checked++
		if !slices.Contains(refused, e.long) && (e.short == "" || !slices.Contains(refused, e.short)) {
			t.Errorf("--%s %s names a file, but cuda_device_link's linkopts take it: add it to _FILE_OPTIONS (or _RULE_OPTIONS) in rules/private/link.bzl", e.long, e.arg)
		}
	}
	if checked < 5 {
		t.Fatalf("only %d options of --help take a file: the test cannot read --help", checked)
	}
}
