// Package cli is cudalink's command line: it reads nvlink 11.8's options,
// spelt as nvlink spells them, into a linker.Config and runs the link.
//
// What nvlink prints on its streams is kept: --help and --version go to
// stdout; warnings, errors and the -v report go to stderr. Messages take
// the linker's form, "cudalink: error: ...". Exit status is 0 on success
// (and for --help and --version) and 1 after a usage error, as nvlink's.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strings"

	"github.com/cudalink/cudalink/linker"
)

// Exit statuses.
const (
	exitOK    = 0
	exitUsage = 1 // nvlink exits 1 after any "fatal" message, usage errors included
	// exitFailed is the status of a failed link. nvlink exits 1 after a
	// fatal error (an unreadable input or output) and 255 after ordinary
	// errors (an undefined reference); linker.Run does not say which it
	// met, so a failed link exits 1 unless its error has an ExitStatus
	// method.
	exitFailed = 1
	// exitInternal is the status of a link that panicked: a bug in
	// cudalink, reported as one line naming the inputs.
	exitInternal = 3
)

// nvlinkReleases are the nvlinks whose behaviour cudalink follows, one per
// release linker.SupportedToolkits names, as their --version spells them.
var nvlinkReleases = map[string]string{
	"11.8": "Cuda compilation tools, release 11.8, V11.8.89",
	"12.4": "Cuda compilation tools, release 12.4, V12.4.131",
	"12.5": "Cuda compilation tools, release 12.5, V12.5.40",
}

// version is cudalink's own version.
const version = "0.1.0-dev"

// Run runs cudalink with command-line arguments (without argv[0]); it
// returns the exit status.
func Run(args []string, stdout, stderr io.Writer) int {
	return RunContext(context.Background(), args, stdout, stderr, nil)
}

// RunContext is Run for a caller that can cancel the link through ctx and
// keeps parsed inputs in cache (nil for none): the persistent worker. The
// output does not depend on the cache.
func RunContext(ctx context.Context, args []string, stdout, stderr io.Writer, cache linker.ObjectCache) int {
	return runCommand(ctx, args, stdout, stderr, cache, false, 0)
}

// RunOneShot is Run for a process that runs this one link and exits
// (cmd/cudalink): the link may tune the Go runtime for itself
// (linker.Config.OneShot). procs is the processors its parallel passes may
// use (linker.Config.Parallelism), which the process may run on fewer of
// until then; 0 for GOMAXPROCS.
func RunOneShot(args []string, stdout, stderr io.Writer, procs int) int {
	return runCommand(context.Background(), args, stdout, stderr, nil, true, procs)
}

// runCommand runs one command line. No panic goes past it: one in the
// link (a bug) is reported as "cudalink: internal error: <value> (inputs:
// a.o, b.o)" with exit status 3, after the link removed what it had
// written; the worker then goes on serving.
func runCommand(ctx context.Context, args []string, stdout, stderr io.Writer, cache linker.ObjectCache, oneShot bool, procs int) (status int) {
	var inputs []string
	defer func() {
		if v := recover(); v != nil {
			ie := &linker.InternalError{Value: v, Inputs: inputs}
			fmt.Fprintf(stderr, "cudalink: %s\n", ie)
			status = exitInternal
		}
	}()
	cmd, err := Parse(args)
	for _, w := range cmd.Warnings {
		fmt.Fprintf(stderr, "cudalink: warning: %s\n", w)
	}
	if err != nil {
		fmt.Fprintf(stderr, "cudalink: error: %v\n", err)
		return exitUsage
	}
	switch cmd.Action {
	case ActionHelp:
		io.WriteString(stdout, helpText())
		return exitOK
	case ActionVersion:
		io.WriteString(stdout, versionText())
		return exitOK
	case ActionHostLinkerScript:
		if err := writeHostLinkerScript(cmd.HostLinkerScript, stdout, stderr); err != nil {
			fmt.Fprintf(stderr, "cudalink: error: %v\n", err)
			return exitFailed
		}
		return exitOK
	}
	cfg := cmd.Config
	inputs = cfg.InputNames()
	cfg.Stdout = stderr     // nvlink prints its -v report on stderr
	cfg.TimeStdout = stdout // and --time=- on stdout
	cfg.Stderr = stderr
	cfg.Cache = cache
	cfg.Context = ctx
	cfg.OneShot = oneShot
	cfg.Parallelism = procs
	stop, err := startProfiles(cmd.CPUProfile, cmd.MemProfile)
	if err != nil {
		fmt.Fprintf(stderr, "cudalink: error: %v\n", err)
		return exitFailed
	}
	err = linker.Run(cfg)
	if perr := stop(); perr != nil {
		fmt.Fprintf(stderr, "cudalink: warning: %v\n", perr)
	}
	if err != nil {
		if !errors.Is(err, linker.ErrFailed) { // ErrFailed: diagnostics already printed
			fmt.Fprintf(stderr, "cudalink: error: %v\n", err)
		}
		var s interface{ ExitStatus() int }
		if errors.As(err, &s) {
			return s.ExitStatus()
		}
		return exitFailed
	}
	return exitOK
}

// helpText is --help: every option cudalink accepts, laid out as nvlink
// lays out its own (long form, short form at column 52, the description
// indented by 8), then the persistent worker's flags, then the nvlink
// options and values cudalink refuses. Only accepted values are listed
// as allowed.
func helpText() string {
	var b strings.Builder
	b.WriteString("\nUsage  : cudalink [options] <objects>\n\nOptions\n=======\n\n")
	var refused []string
	for _, o := range sortedOptions() {
		if o.notYet {
			refused = append(refused, "'"+spelling(o)+"'")
			continue
		}
		writeOption(&b, o)
		for _, v := range o.refused {
			sep := "="
			if o.glue {
				sep = "" // -m32, as nvlink spells it
			}
			refused = append(refused, "'"+spelling(o)+sep+v+"'")
		}
	}
	b.WriteString("Persistent worker\n=================\n\n")
	for _, o := range workerFlags {
		writeOption(&b, o)
	}
	b.WriteString("Not supported\n=============\n\n")
	note := strings.Fields("cudalink refuses these nvlink 11.8 options and values, which it does not implement:")
	last := len(refused) - 1
	for i := range refused {
		if i < last {
			refused[i] += ","
		} else {
			refused[i] += "."
		}
	}
	b.WriteString(wrap(append(note, refused...), " "))
	return b.String()
}

// spelling is how --help names an option in prose: its short form when it
// has one, as nvlink's messages do.
func spelling(o *option) string {
	if o.short != "" {
		return "-" + o.short
	}
	return "--" + o.long
}

// writeOption writes one entry of --help.
func writeOption(b *strings.Builder, o *option) {
	left := "-" + o.short
	if o.long != "" {
		left = "--" + o.long
	}
	if o.arg != "" {
		left += " " + o.arg
		if o.list {
			left += ",..."
		}
	}
	if o.long != "" && o.short != "" {
		left = fmt.Sprintf("%-51s (-%s)", left, o.short)
	}
	fmt.Fprintf(b, "%s\n%s", left, wrap(strings.Fields(o.help), " "))
	if len(o.allowed) > 0 {
		items := make([]string, len(o.allowed))
		for i, v := range o.allowed {
			items[i] = "'" + v + "',"
		}
		last := len(items) - 1
		items[last] = strings.TrimSuffix(items[last], ",") + "."
		items[0] = "Allowed values for this option:  " + items[0]
		b.WriteString(wrap(items, ""))
	}
	b.WriteString("\n")
}

// workerFlags are the startup flags of the persistent worker, which
// cmd/cudalink runs when --persistent_worker is on the command line
// (package linkworker reads them; they are not link options). --help
// lists them after the options.
var workerFlags = []*option{
	{long: "persistent_worker",
		help: "Run as a Bazel persistent worker: read link requests (cudalink command lines) on stdin and answer each on stdout (docs/worker.md)."},
	{long: "worker_protocol", arg: "<protocol>", allowed: []string{"proto", "json"},
		help: "The worker's wire protocol (default 'proto')."},
	{long: "worker_cache_mb", arg: "<MiB>",
		help: "Bound of the worker's cache of parsed inputs (default 256; 0 turns it off)."},
	{long: "worker_max_parallel", arg: "<count>",
		help: "How many links the worker runs at once (default: the number of CPUs)."},
	{long: "worker_verbose",
		help: "Log one line per request on the worker's stderr."},
}

// sortedOptions is the option table in nvlink's --help order: by long name
// (the short one when there is none), byte order.
func sortedOptions() []*option {
	sorted := slices.Clone(options)
	key := func(o *option) string {
		if o.long != "" {
			return o.long
		}
		return o.short
	}
	slices.SortFunc(sorted, func(a, b *option) int { return strings.Compare(key(a), key(b)) })
	return sorted
}

// wrap lays out items as nvlink's --help does: indented by 8, joined by
// sep, broken before an item that would pass column 88.
func wrap(items []string, sep string) string {
	const indent = "        "
	var b strings.Builder
	line := indent
	for _, item := range items {
		switch {
		case line == indent:
			line += item
		case len(line)+len(sep)+len(item) > 88:
			b.WriteString(line + "\n")
			line = indent + item
		default:
			line += sep + item
		}
	}
	b.WriteString(line + "\n")
	return b.String()
}

// versionText is --version.
func versionText() string {
	v := version
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v += ", commit " + s.Value[:12]
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "cudalink: CUDA device linker in Go\nVersion %s (%s)\n", v, runtime.Version())
	b.WriteString("Compatible with nvlink from:\n")
	for _, tk := range strings.Fields(linker.SupportedToolkits()) {
		rel := nvlinkReleases[tk]
		if rel == "" {
			rel = "release " + tk
		}
		fmt.Fprintf(&b, "  %s\n", rel)
	}
	b.WriteString("(each input's release is told from the input; --cuda-version forces one)\n")
	return b.String()
}

// startProfiles starts -cpuprofile and -memprofile: the CPU profile runs
// until stop, and every allocation from now on is sampled, to be written
// (with what is live) by stop. Profiling never changes the link's output.
// A CPU profile is one per process: a worker asked for two at once
// profiles the first.
func startProfiles(cpuPath, memPath string) (stop func() error, err error) {
	var cpu *os.File
	if cpuPath != "" {
		if cpu, err = os.Create(cpuPath); err != nil {
			return nil, fmt.Errorf("-cpuprofile: %v", err)
		}
		if err := pprof.StartCPUProfile(cpu); err != nil {
			cpu.Close()
			return nil, fmt.Errorf("-cpuprofile: %v", err)
		}
	}
	rate := runtime.MemProfileRate
	if memPath != "" {
		runtime.MemProfileRate = 1
	}
	return func() error {
		var errs []error
		if cpu != nil {
			pprof.StopCPUProfile()
			if err := cpu.Close(); err != nil {
				errs = append(errs, fmt.Errorf("-cpuprofile: %v", err))
			}
		}
		if memPath != "" {
			runtime.GC() // the profile's live heap is as of the last collection
			f, err := os.Create(memPath)
			if err == nil {
				err = pprof.Lookup("allocs").WriteTo(f, 0)
				if cerr := f.Close(); err == nil {
					err = cerr
				}
			}
			runtime.MemProfileRate = rate
			if err != nil {
				errs = append(errs, fmt.Errorf("-memprofile: %v", err))
			}
		}
		return errors.Join(errs...)
	}, nil
}
