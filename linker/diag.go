package linker

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/ianlancetaylor/demangle"
)

// linkError is one error of a link, naming where it was found. file,
// section and symbol are empty where they do not apply.
type linkError struct {
	file    string
	section string
	symbol  string
	msg     string
	// refs are further places involved ("referenced by", "first defined in").
	refs []string

	// nonFatal: nvlink says "error" rather than "fatal" (undefined
	// references, resource limits); when every error is such, it exits 255.
	nonFatal bool
}

// Error formats the error as cudalink prints it: the message with the
// symbol, the file and the section.
func (e *linkError) Error() string {
	var b strings.Builder
	b.WriteString(e.msg)
	if e.symbol != "" {
		b.WriteString(": ")
		b.WriteString(displayName(e.symbol))
	}
	where := e.file
	if where != "" && e.section != "" {
		where += ":(" + e.section + ")"
	}
	if where != "" {
		b.WriteString("\n>>> in " + where)
	}
	for _, r := range e.refs {
		b.WriteString("\n>>> " + r)
	}
	return b.String()
}

// displayName shows a symbol demangled, with the mangled name beside it.
func displayName(name string) string {
	if d, err := demangle.ToString(name, demangle.NoClones); err == nil && d != name {
		return d + " (" + name + ")"
	}
	return name
}

// diagnostics accumulates the errors and warnings of a link. Passes add to
// it and the driver stops at checkpoints, so one run reports every problem
// of a kind rather than only the first.
type diagnostics struct {
	mu       sync.Mutex
	w        io.Writer
	noWarn   bool
	werror   bool
	errors   int
	nonFatal int // errors nvlink does not call fatal
	// mergeStopped: under -Werror, a warning given as an input was
	// merged stopped the link there (mergeWarnf).
	mergeStopped bool
	suffix       string // " (target: sm_80)" under -report-arch
}

func (d *diagnostics) print(kind, msg string) {
	if d.w == nil {
		return
	}
	if d.suffix != "" {
		// -report-arch: the first line of each message names the target.
		first, rest, more := strings.Cut(msg, "\n")
		msg = first + d.suffix
		if more {
			msg += "\n" + rest
		}
	}
	if kind == "info" {
		// nvlink prints its info messages as its -v report lines.
		fmt.Fprintf(d.w, "cudalink info    : %s\n", msg)
		return
	}
	fmt.Fprintf(d.w, "cudalink: %s: %s\n", kind, msg)
}

// errorf reports an error.
func (ctx *linkContext) errorf(format string, args ...any) {
	ctx.report(fmt.Errorf(format, args...))
}

// report records an error value.
func (ctx *linkContext) report(err error) {
	d := &ctx.diag
	d.mu.Lock()
	defer d.mu.Unlock()
	d.errors++
	if le, ok := err.(*linkError); ok && le.nonFatal {
		d.nonFatal++
	}
	d.print("error", err.Error())
}

// exitStatus is nvlink's exit status for the errors reported so far.
func (ctx *linkContext) exitStatus() int {
	ctx.diag.mu.Lock()
	defer ctx.diag.mu.Unlock()
	if ctx.diag.errors > 0 && ctx.diag.errors == ctx.diag.nonFatal {
		return 255
	}
	return 1
}

// warnf reports a warning, or an error under -Werror. -w silences both,
// as it does nvlink's.
func (ctx *linkContext) warnf(format string, args ...any) {
	d := &ctx.diag
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.noWarn {
		return
	}
	if d.werror {
		// nvlink's -Werror errors are of its "error" class: alone, they
		// make it exit 255, as undefined references do.
		d.errors++
		d.nonFatal++
		d.print("error", fmt.Sprintf(format, args...))
		return
	}
	d.print("warning", fmt.Sprintf(format, args...))
}

// stackSizeWarnf reports the warning that a kernel's stack size cannot be
// statically determined. It is a warnf, except in a link that compiled PTX
// (ctx.ptxJobs): there nvlink 11.8, 12.4 and 12.5 print it as a warning
// whatever -w and -Werror say, and exit 0, whether or not the kernel came
// from the PTX (after its built-in ptxas has run, nvlink's own warning
// options no longer reach this message). Only this message was measured
// so; the other warnings keep warnf's rule.
func (ctx *linkContext) stackSizeWarnf(format string, args ...any) {
	if len(ctx.ptxJobs) == 0 {
		ctx.warnf(format, args...)
		return
	}
	d := &ctx.diag
	d.mu.Lock()
	defer d.mu.Unlock()
	d.print("warning", fmt.Sprintf(format, args...))
}

// mergeWarnf reports a warning nvlink gives while it merges the inputs
// (an input without code for -arch, one linked next to a -ewp image).
// Under -Werror nvlink's merge stops at the first, which is then a fatal
// error ("merge_elf failed", "elfLink internal error": exit status 1);
// mergeWarnf says so (stop), and the caller reports no more.
func (ctx *linkContext) mergeWarnf(format string, args ...any) (stop bool) {
	d := &ctx.diag
	d.mu.Lock()
	defer d.mu.Unlock()
	switch {
	case d.noWarn:
		return false
	case d.werror:
		d.errors++
		d.mergeStopped = true
		d.print("error", fmt.Sprintf(format, args...)+"\n>>> -Werror stops the link at this input, as it stops nvlink's")
		return true
	}
	d.print("warning", fmt.Sprintf(format, args...))
	return false
}

// mergeStopped says whether mergeWarnf stopped the link.
func (ctx *linkContext) mergeStopped() bool {
	ctx.diag.mu.Lock()
	defer ctx.diag.mu.Unlock()
	return ctx.diag.mergeStopped
}

// ownWarnf reports a warning of cudalink's own, where nvlink says nothing
// (an input it skips without a word, a -l library it does not find).
// -w silences it, but -Werror does not make it an error: nvlink's link
// would not fail.
func (ctx *linkContext) ownWarnf(format string, args ...any) {
	d := &ctx.diag
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.noWarn {
		d.print("warning", fmt.Sprintf(format, args...))
	}
}

// onlyNonFatal says whether every error reported so far is one nvlink does
// not call fatal (undefined references, limits exceeded): it finishes the
// link's analysis after those, -v report included, and exits 255.
func (ctx *linkContext) onlyNonFatal() bool {
	if ctx.cancelled {
		return false
	}
	ctx.diag.mu.Lock()
	defer ctx.diag.mu.Unlock()
	return ctx.diag.errors > 0 && ctx.diag.errors == ctx.diag.nonFatal
}

// failed says whether an error was reported.
func (ctx *linkContext) failed() bool {
	ctx.diag.mu.Lock()
	defer ctx.diag.mu.Unlock()
	return ctx.diag.errors > 0
}
