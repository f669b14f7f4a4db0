package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// expandParamFiles replaces each argument "@FILE" by the arguments FILE
// holds, one per line, as Bazel writes a multiline parameter file (and as
// gcc, clang and javac read them). nvlink has no such syntax: it would take
// "@FILE" for an input named so; cudalink reads parameter files because
// Bazel passes long command lines that way. Parameter files do not nest.
func expandParamFiles(args []string) ([]string, error) {
	var out []string
	for _, arg := range args {
		path, ok := strings.CutPrefix(arg, "@")
		if !ok || path == "" {
			out = append(out, arg)
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			var perr *fs.PathError // the file is named once, as for -optf
			if errors.As(err, &perr) {
				err = perr.Err
			}
			return nil, fmt.Errorf("cannot read parameter file '%s': %v", path, err)
		}
		text := strings.TrimSuffix(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
		if text == "" {
			continue
		}
		out = append(out, strings.Split(text, "\n")...)
	}
	return out, nil
}
