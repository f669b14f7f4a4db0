package linker

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// timeHeader is the header line nvlink 11.8 appends to its --time file.
const timeHeader = "source file name , phase name , phase input files , phase output file , arch , tool, metric , unit\n"

// writeTimes appends the --time table: nvlink's header, then one row per
// pass in nvlink's columns (the input files, the output, the
// architecture, the tool, the time in milliseconds).
func writeTimes(ctx *linkContext) error {
	cfg := ctx.config
	var inputs []string
	for _, in := range cfg.Inputs {
		inputs = append(inputs, in.Path)
	}
	var b strings.Builder
	b.WriteString(timeHeader)
	for _, t := range ctx.times {
		fmt.Fprintf(&b, "%s , %s , %s , %s , sm_%d , cudalink, %.3f , ms\n",
			cfg.Output, t.name, strings.Join(inputs, " "), cfg.Output, cfg.Arch, float64(t.took.Microseconds())/1000)
	}
	w := cfg.TimeStdout
	if w == nil {
		w = cfg.Stdout
	}
	if cfg.TimeFile != "-" {
		f, err := os.OpenFile(cfg.TimeFile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			ctx.report(&linkError{file: cfg.TimeFile, msg: "cannot write the --time file: " + err.Error()})
			return ErrFailed
		}
		defer f.Close()
		w = f
	}
	_, err := io.WriteString(w, b.String())
	return err
}
