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
	// ptxasRan: nvlink's built-in ptxas has run, after which -w and
	// -Werror no longer apply (linkContext.ptxasRan).
	ptxasRan bool
	suffix   string // " (target: sm_80)" under -report-arch
}

func (d *diagnostics) print(kind, msg string) {
	if d.w == nil {
		return
	}
	switch {
	case d.suffix != "" && kind == "info":
		// -report-arch: nvlink ends each message with the target, a
		// libnvvm log of several lines too, after its final newline
		// (11.8, 12.4: the "Info: no reference to kernel" lines).
		msg += d.suffix
	case d.suffix != "":
		// The first line of cudalink's errors and warnings names the
		// target, before the ">>>" lines nvlink does not write.
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
// as it does nvlink's. Once nvlink's built-in ptxas has run (see
// ptxasRan), neither applies: the warning is printed as one.
func (ctx *linkContext) warnf(format string, args ...any) {
	d := &ctx.diag
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.ptxasRan {
		d.print("warning", fmt.Sprintf(format, args...))
		return
	}
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

// ptxasRan records that nvlink's built-in ptxas has run in this link: a
// PTX input compiled (in command-line order, as selectImages meets it) or
// the -dlto program compiled (after every input was read). nvlink's ptxas
// takes its options in the same global state as nvlink's own -w and
// -Werror and leaves them cleared, so every warning nvlink gives after it
// is printed as a warning and the link goes on, whatever -w and -Werror
// said; warnings given before it keep their rule. Measured with nvlink
// 11.8, 12.4 and 12.5 on every warning of warnf, mergeWarnf and
// stopWarnf: "SM Arch not found" for an input after a PTX input (not for
// one before it), the -ewp mix warnings and "Ignoring -dlto" (both given
// after every input was read), the stack-size and -extrawarn warnings;
// the -preserve-relocs warning comes before any input and keeps its rule.
func (ctx *linkContext) ptxasRan() {
	ctx.diag.mu.Lock()
	defer ctx.diag.mu.Unlock()
	ctx.diag.ptxasRan = true
}

// mergeWarnf reports a warning nvlink gives while it reads or merges the
// inputs (an input without code for -arch, one linked next to a -ewp
// image, "Ignoring -dlto"). Under -Werror nvlink's link stops at the
// first, a fatal error ("merge_elf failed", "elfLink internal error": exit
// status 1; but see lastInputStopped); mergeWarnf says so (stop), and the
// caller reports no more.
func (ctx *linkContext) mergeWarnf(format string, args ...any) (stop bool) {
	return ctx.stopWarnf("-Werror stops the link at this input, as it stops nvlink's", format, args...)
}

// stopWarnf is mergeWarnf with the line that says where -Werror stopped
// the link.
func (ctx *linkContext) stopWarnf(where, format string, args ...any) (stop bool) {
	d := &ctx.diag
	d.mu.Lock()
	defer d.mu.Unlock()
	switch {
	case d.ptxasRan:
	case d.noWarn:
		return false
	case d.werror:
		d.errors++
		d.mergeStopped = true
		d.print("error", fmt.Sprintf(format, args...)+"\n>>> "+where)
		return true
	}
	d.print("warning", fmt.Sprintf(format, args...))
	return false
}

// lastInputStopped is called when mergeWarnf stopped the link at the last
// input on the command line: nvlink's fatal error is the next input's
// ("elfLink internal error"), so with no input after it the error stays of
// nvlink's "error" class and the link exits 255 (measured with 11.8, 12.4
// and 12.5: "SM Arch not found" for the last input under -Werror).
func (ctx *linkContext) lastInputStopped() {
	ctx.diag.mu.Lock()
	defer ctx.diag.mu.Unlock()
	if ctx.diag.mergeStopped {
		ctx.diag.nonFatal++
	}
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

// fatalErrors counts the errors so far that nvlink calls fatal.
func (ctx *linkContext) fatalErrors() int {
	ctx.diag.mu.Lock()
	defer ctx.diag.mu.Unlock()
	return ctx.diag.errors - ctx.diag.nonFatal
}

// failed says whether an error was reported.
func (ctx *linkContext) failed() bool {
	ctx.diag.mu.Lock()
	defer ctx.diag.mu.Unlock()
	return ctx.diag.errors > 0
}
