package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cudalink/cudalink/linker"
)

// TestSplitOptionsFile checks the options-file syntax against what nvlink
// 11.8 made of the same text (each case was run through nvlink -optf, its
// arguments read back from its error messages).
func TestSplitOptionsFile(t *testing.T) {
	tests := []struct {
		text string
		want []string
		err  string
	}{
		{"", nil, ""},
		{" \t\r\n", nil, ""},
		{"-arch=sm_80\n-o out\nb.o -Llib\n", []string{"-arch=sm_80", "-o", "out", "b.o", "-Llib"}, ""},
		{"a\tb\rc\nd", []string{"a", "b", "c", "d"}, ""},
		{"a\fb a\vb", []string{"a\fb", "a\vb"}, ""}, // \f and \v do not separate
		{`"b c.o" -L"my lib"`, []string{"b c.o", "-Lmy lib"}, ""},
		{`"a b"c"d e"`, []string{"a bcd e"}, ""},
		{"\"a\nb\"", []string{"a\nb"}, ""},
		{`""`, []string{""}, ""},
		{`"" x`, []string{"", "x"}, ""},
		{`""""`, []string{""}, ""},
		{`'b c.o'`, []string{"'b", "c.o'"}, ""}, // single quotes are not quotes
		{`x'y`, []string{"x'y"}, ""},
		{`b\ c.o`, []string{"b c.o"}, ""},
		{`"a\ b"`, []string{"a b"}, ""},
		{"x\\\ny", []string{"x\ny"}, ""},
		{`x\ay`, []string{"xay"}, ""},
		{`"x\ay"`, []string{"xay"}, ""},
		{`x\\y`, []string{`x\y`}, ""},
		{`"x\\y"`, []string{`x\y`}, ""},
		{`\\\\`, []string{`\\`}, ""},
		// An escaped quote survives the first pass and is dropped by the
		// second, unless a backslash stands before it then.
		{`x\"y`, []string{"xy"}, ""},
		{`"x\"y"`, []string{"xy"}, ""},
		{`\"\"`, []string{""}, ""},
		{`\"a b\"`, []string{"a", "b"}, ""},
		{`a\\\"b`, []string{`a\"b`}, ""},
		{`a\\"b"`, []string{`a\"b`}, ""},
		{`x\\\\\"y`, []string{`x\\"y`}, ""},
		{`"\\\\"`, []string{`\\"`}, ""},
		// The text ends at a NUL byte.
		{"a.o\x00 b", []string{"a.o"}, ""},
		{"# comment", []string{"#", "comment"}, ""}, // no comments
		// Errors.
		{`x"y`, nil, `stray '"': a quote is not closed`},
		{`"abc`, nil, `stray '"': a quote is not closed`},
		{`abc"`, nil, `stray '"': a quote is not closed`},
		{`"a"b"`, nil, `stray '"': a quote is not closed`},
		{`"a\\" b"`, nil, `stray '"': a quote is not closed`},
		{`x\`, nil, `stray '\' at the end`},
	}
	for _, tt := range tests {
		got, err := splitOptionsFile([]byte(tt.text))
		errText := ""
		if err != nil {
			errText = err.Error()
		}
		if !reflect.DeepEqual(got, tt.want) || errText != tt.err {
			t.Errorf("splitOptionsFile(%q) = %q, %q; want %q, %q", tt.text, got, errText, tt.want, tt.err)
		}
	}
}

// inTempDir makes a temporary directory the working directory and writes
// files into it.
func inTempDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	t.Chdir(dir)
	for name, text := range files {
		if err := os.MkdirAll(filepath.Dir(name), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestOptionsFiles(t *testing.T) {
	inTempDir(t, map[string]string{
		"opt1":          "-arch=sm_80\n-o out\nb.o -Llib\n",
		"opt2":          "-lfoo",
		"quoted":        `-arch=sm_80 -o "my out" "b c.o" -L"my lib" -lfoo`,
		"nest/outer":    "a.o -optf nest/inner c.o", // relative to the working directory
		"nest/inner":    "b.o -arch=sm_80",
		"tail":          "-arch=sm_80 -o",
		"half":          "-arch",
		"sm":            "sm_80",
		"empty":         "",
		"dir/.keep":     "",
		"redefine":      "-arch=sm_75",
		"self":          "-optf self",
		"bad":           "a.o \"b.o",
		"files/a":       "a.o",
		"files/b":       "b.o",
		"files/library": "-lfoo",
	})
	tests := []struct {
		args     string
		want     *linker.Config // nil: an error is expected
		err      string
		warnings []string
	}{
		{args: "-optf opt1 -optf opt2", want: &linker.Config{Arch: 80, Output: "out",
			Inputs: append(files("b.o"), libs("foo")...), LibDirs: []string{"lib"}}},
		{args: "-optf opt1,opt2", want: &linker.Config{Arch: 80, Output: "out",
			Inputs: append(files("b.o"), libs("foo")...), LibDirs: []string{"lib"}}},
		{args: "--options-file=opt1 --options-file opt2", want: &linker.Config{Arch: 80, Output: "out",
			Inputs: append(files("b.o"), libs("foo")...), LibDirs: []string{"lib"}}},
		{args: "-optf=opt1,,opt2", want: &linker.Config{Arch: 80, Output: "out",
			Inputs: append(files("b.o"), libs("foo")...), LibDirs: []string{"lib"}}},
		{args: "-optf quoted", want: &linker.Config{Arch: 80, Output: "my out",
			Inputs: append(files("b c.o"), libs("foo")...), LibDirs: []string{"my lib"}}},
		// Expanded in place: the order of inputs is kept.
		{args: "-o out z.o -optf nest/outer d.o", want: &linker.Config{Arch: 80, Output: "out",
			Inputs: files("z.o", "a.o", "b.o", "c.o", "d.o")}},
		{args: "-arch=sm_80 -o out -optf files/b,files/a,files/library -optf files/b", want: &linker.Config{Arch: 80, Output: "out",
			Inputs: append(files("b.o", "a.o", "b.o"), libs("foo")...)}},
		// An empty file, a directory and an empty list add nothing.
		{args: "-arch=sm_80 -o out a.o -optf empty -optf dir -optf ,", want: &linker.Config{Arch: 80, Output: "out",
			Inputs: files("a.o")}},
		// Options in a file and on the command line are one sequence for
		// redefinition warnings.
		{args: "-arch=sm_80 -o out a.o -optf redefine", want: &linker.Config{Arch: 75, Output: "out", Inputs: files("a.o")},
			warnings: []string{"incompatible redefinition for option 'arch', the last value of this option was used"}},
		// Each file is a list of its own: a value is not taken from beyond it.
		{args: "-optf tail out a.o", err: "argument expected after '-o'"},
		{args: "-optf half,sm -o out a.o", err: "argument expected after '-arch'"},
		{args: "-o out a.o -arch -optf sm", err: "value '-optf' is not defined for option '-arch' (allowed: sm_35, sm_37, sm_50, sm_52, sm_53, sm_60, sm_61, sm_62, sm_70, sm_72, sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, sm_90a)"},
		{args: "-arch=sm_80 -o out a.o -optf missing", err: "cannot open options file 'missing': no such file or directory"},
		{args: "-arch=sm_80 -o out a.o -optf opt1,missing", err: "cannot open options file 'missing': no such file or directory"},
		{args: "-arch=sm_80 -o out a.o -optf bad", err: `options file 'bad': stray '"': a quote is not closed`},
		{args: "-optf self", err: "too many nested options files: cannot open 'self' (the limit is 15)"},
		{args: "-optf", err: "argument expected after '-optf'"},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			cmd, err := Parse(strings.Fields(tt.args))
			if !reflect.DeepEqual(cmd.Warnings, tt.warnings) {
				t.Errorf("warnings %q, want %q", cmd.Warnings, tt.warnings)
			}
			if tt.want == nil {
				if err == nil || err.Error() != tt.err {
					t.Errorf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(cmd.Config, tt.want) {
				t.Errorf("Config:\n got %+v\nwant %+v", *cmd.Config, *tt.want)
			}
		})
	}
}

// TestOptionsFileDepth checks nvlink's nesting limit: a chain of 15 files
// is read, a 16th is refused.
func TestOptionsFileDepth(t *testing.T) {
	for _, n := range []int{15, 16} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			files := map[string]string{}
			for i := 1; i < n; i++ {
				files[fmt.Sprintf("c%d", i)] = fmt.Sprintf("-optf c%d", i+1)
			}
			files[fmt.Sprintf("c%d", n)] = "-arch=sm_80 -o out a.o"
			inTempDir(t, files)
			_, err := Parse([]string{"-optf", "c1"})
			if n <= maxOptionsFileDepth && err != nil {
				t.Errorf("chain of %d: %v", n, err)
			}
			want := fmt.Sprintf("too many nested options files: cannot open 'c%d' (the limit is 15)", n)
			if n > maxOptionsFileDepth && (err == nil || err.Error() != want) {
				t.Errorf("chain of %d: error %v, want %q", n, err, want)
			}
		})
	}
}
