package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// results is everything one run measured; -json writes it and -from-json
// reads it back.
type results struct {
	Arch      string
	Reps      int
	When      string
	Host      string
	Nvlink    string
	GoVersion string
	// CudalinkRev is the commit cudalink was built from (see sourceRevision).
	CudalinkRev string
	// LaunchFloor is the peak RSS the launcher reports for /bin/true: no
	// peak RSS below it can be measured.
	LaunchFloor int64
	// LoadBefore and LoadAfter are /proc/loadavg before and after.
	LoadBefore, LoadAfter string
	// Merged lists the other runs -from-json added to this one.
	Merged   []string `json:",omitempty"`
	Programs []*programResult
	Worker   []*workerSummary
}

type programResult struct {
	Variant      string // "default" or "G"
	Objects      int
	NvccFlags    []string
	LinkFlags    []string
	InputBytes   int64
	OutputBytes  int64 // nvlink's output
	Cudalink     *stats
	Nvlink       *stats
	CudalinkNote string // why cudalink was not measured
	Verify       *verification
	// PTXCompiler is cudalink's --ptx-compiler on this program; "" when
	// it compiled PTX with ptxas (or compiled none).
	PTXCompiler string `json:",omitempty"`
	// CudalinkPtxas is cudalink compiling the PTX with ptxas processes
	// (no --ptx-compiler), timed with the others when PTXCompiler is set.
	CudalinkPtxas *stats `json:",omitempty"`
}

type verification struct {
	NormalizedEqual bool     // tests/normalize sees no difference
	ByteIdentical   bool     // the files are the same bytes
	SerialIdentical bool     // a link with Parallelism 1 wrote the same bytes
	SerialNote      string   // why the serial link failed
	PtxasIdentical  *bool    `json:",omitempty"` // with ptxas processes instead of --ptx-compiler, the same bytes
	Diff            string   // normalize.Diff(nvlink, cudalink), long lines cut
	Summary         []string // summariseDiff: what differs, by section or symbol
}

type workerSummary struct {
	Variant         string // the program; "" (older runs) is "default"
	Objects         int
	OneChanged      bool          `json:",omitempty"` // one object had a new digest in every warm request
	Cold            time.Duration // the first request, every input parsed
	Warm            stats         // wall times, and the worker's CPU time in each request (CPUMedian...)
	VmHWM           int64         // the worker's peak RSS
	SameBytes       bool          // the worker's output is the command line's
	SpeedupVsNvlink float64       // nvlink's median (cold process) / warm median
}

func (r *results) program(variant string, n int) *programResult {
	for _, p := range r.Programs {
		if p.Variant == variant && p.Objects == n {
			return p
		}
	}
	return nil
}

func (r *results) worker(variant string, n int, oneChanged bool) *workerSummary {
	for _, w := range r.Worker {
		if w.variant() == variant && w.Objects == n && w.OneChanged == oneChanged {
			return w
		}
	}
	return nil
}

func (w *workerSummary) variant() string {
	if w.Variant == "" {
		return variantDefault.Name
	}
	return w.Variant
}

// ms formats a duration in milliseconds with three significant digits or so.
func ms(d time.Duration) string {
	v := float64(d) / 1e6
	switch {
	case v < 10:
		return fmt.Sprintf("%.2f", v)
	case v < 100:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.0f", v)
}

func mib(b int64) string {
	v := float64(b) / (1 << 20)
	if v < 100 {
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.0f", v)
}

func timeCell(s *stats) string {
	if s == nil {
		return "—"
	}
	return fmt.Sprintf("%s (%s–%s)", ms(s.WallMedian), ms(s.WallMin), ms(s.WallMax))
}

func cpuCell(s *stats) string {
	if s == nil || s.CPUMedian == 0 {
		return "—"
	}
	return fmt.Sprintf("%s (%s–%s)", ms(s.CPUMedian), ms(s.CPUMin), ms(s.CPUMax))
}

// ratio formats a / b, "—" when either is unknown.
func ratio[T time.Duration | int64](a, b T) string {
	if a == 0 || b == 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f", float64(a)/float64(b))
}

func rssCell(s *stats) string {
	if s == nil {
		return "—"
	}
	return fmt.Sprintf("%s (%s–%s)", mib(s.RSSMedian), mib(s.RSSMin), mib(s.RSSMax))
}

// printReport writes the Markdown tables of docs/benchmarks.md and the
// targets of the performance issue (reported, never enforced).
func printReport(w io.Writer, r *results) {
	fmt.Fprintf(w, "Measured %s on %s (load average %s before, %s after); nvlink: %s; cudalink %s built with %s; %d runs of each linker per program, interleaved.\n\n",
		r.When, r.Host, r.LoadBefore, r.LoadAfter, r.Nvlink, r.CudalinkRev, r.GoVersion, r.Reps)
	for _, m := range r.Merged {
		fmt.Fprintf(w, "With results from %s.\n\n", m)
	}

	printSummary(w, r)
	for _, v := range []variant{variantLarge, variantDefault, variantDebug, variantChain, variantPTX, variantLTO} {
		var ps []*programResult
		for _, p := range r.Programs {
			if p.Variant == v.Name && p.Nvlink != nil {
				ps = append(ps, p)
			}
		}
		if len(ps) == 0 {
			continue
		}
		fmt.Fprintf(w, "### Cold links, %s (%s)\n\n", v.Title, r.Arch)
		fmt.Fprintf(w, "Wall and CPU (user + system) time in ms, peak RSS in MiB: median (min–max). (Peak RSS cannot be measured below %s MiB, what /bin/true reports when started the same way.)\n\n", mib(r.LaunchFloor))
		fmt.Fprintln(w, "| objects | input MB | cudalink wall | nvlink wall | cudalink CPU | nvlink CPU | cudalink peak RSS | nvlink peak RSS |")
		fmt.Fprintln(w, "|---:|---:|---:|---:|---:|---:|---:|---:|")
		for _, p := range ps {
			fmt.Fprintf(w, "| %d | %.1f | %s | %s | %s | %s | %s | %s |\n", p.Objects, float64(p.InputBytes)/1e6,
				timeCell(p.Cudalink), timeCell(p.Nvlink), cpuCell(p.Cudalink), cpuCell(p.Nvlink), rssCell(p.Cudalink), rssCell(p.Nvlink))
		}
		fmt.Fprintln(w)
		if slices.ContainsFunc(ps, func(p *programResult) bool { return p.CudalinkPtxas != nil }) {
			fmt.Fprintf(w, "cudalink compiling the PTX with the PTX compiler (`--ptx-compiler=%s`) against ptxas processes (no `--ptx-compiler`), the same runs:\n\n", ps[0].PTXCompiler)
			fmt.Fprintln(w, "| objects | compiler wall | ptxas wall | compiler CPU | ptxas CPU | compiler peak RSS | ptxas peak RSS | same bytes |")
			fmt.Fprintln(w, "|---:|---:|---:|---:|---:|---:|---:|---|")
			for _, p := range ps {
				if p.CudalinkPtxas == nil {
					continue
				}
				same := "not verified"
				if p.Verify != nil && p.Verify.PtxasIdentical != nil {
					same = fmt.Sprint(*p.Verify.PtxasIdentical)
				}
				fmt.Fprintf(w, "| %d | %s | %s | %s | %s | %s | %s | %s |\n", p.Objects,
					timeCell(p.Cudalink), timeCell(p.CudalinkPtxas), cpuCell(p.Cudalink), cpuCell(p.CudalinkPtxas), rssCell(p.Cudalink), rssCell(p.CudalinkPtxas), same)
			}
			fmt.Fprintln(w)
		}
	}

	hasG := false
	for _, p := range r.Programs {
		hasG = hasG || (p.Variant == variantDebug.Name && p.Nvlink != nil && p.Cudalink == nil)
	}
	if hasG { // results of runs from before cudalink linked -g
		fmt.Fprintln(w, "### -G (debug) objects, `nvlink -g`")
		fmt.Fprintln(w)
		fmt.Fprintln(w, "| objects | input MB | nvlink time | nvlink peak RSS | cudalink |")
		fmt.Fprintln(w, "|---:|---:|---:|---:|---|")
		for _, p := range r.Programs {
			if p.Variant != variantDebug.Name || p.Nvlink == nil || p.Cudalink != nil {
				continue
			}
			fmt.Fprintf(w, "| %d | %.1f | %s | %s | %s |\n", p.Objects, float64(p.InputBytes)/1e6,
				timeCell(p.Nvlink), rssCell(p.Nvlink), strings.ReplaceAll(p.CudalinkNote, "|", "\\|"))
		}
		fmt.Fprintln(w)
	}

	if len(r.Worker) > 0 {
		fmt.Fprintln(w, "### Relinking through the persistent worker")
		fmt.Fprintln(w)
		fmt.Fprintln(w, "Request to response, ms; the first request parses every input, the others are warm relinks (median (min–max)): of the unchanged program, or with one object changed (its digest is new in every request, so it is read and parsed again). Worker CPU is its threads' CPU time in a warm request.")
		fmt.Fprintln(w)
		fmt.Fprintln(w, "| program | objects | relink | first request | warm relink | worker CPU | nvlink (cold process) | nvlink / warm | worker peak RSS MiB | same bytes as the command line |")
		fmt.Fprintln(w, "|---|---:|---|---:|---:|---:|---:|---:|---:|---|")
		for _, ws := range r.Worker {
			nv := "—"
			if p := r.program(ws.variant(), ws.Objects); p != nil && p.Nvlink != nil {
				nv = ms(p.Nvlink.WallMedian)
			}
			what := "unchanged"
			if ws.OneChanged {
				what = "one object changed"
			}
			fmt.Fprintf(w, "| %s | %d | %s | %s | %s | %s | %s | %.1f× | %s | %v |\n", ws.variant(), ws.Objects, what, ms(ws.Cold), timeCell(&ws.Warm),
				cpuCell(&ws.Warm), nv, ws.SpeedupVsNvlink, mib(ws.VmHWM), yesNo(ws.SameBytes))
		}
		fmt.Fprintln(w)
	}

	hasV := false
	for _, p := range r.Programs {
		hasV = hasV || p.Verify != nil
	}
	if hasV {
		fmt.Fprintln(w, "### Outputs")
		fmt.Fprintln(w)
		fmt.Fprintln(w, "| program | objects | output KB (nvlink) | normalized cudalink = nvlink | byte-identical to nvlink | serial link = parallel link |")
		fmt.Fprintln(w, "|---|---:|---:|---|---|---|")
		for _, p := range r.Programs {
			if p.Verify == nil {
				continue
			}
			fmt.Fprintf(w, "| %s | %d | %.0f | %s | %s | %s |\n", p.Variant, p.Objects, float64(p.OutputBytes)/1e3,
				yesNo(p.Verify.NormalizedEqual), yesNo(p.Verify.ByteIdentical), yesNo(p.Verify.SerialIdentical))
		}
		fmt.Fprintln(w)
		for _, p := range r.Programs {
			if p.Verify != nil && p.Verify.Diff != "" {
				fmt.Fprintf(w, "Normalized difference, %s program of %d objects, by section or symbol (numbers in names replaced by N):\n\n```\n%s\n```\n\n", p.Variant, p.Objects, strings.Join(p.Verify.Summary, "\n"))
				fmt.Fprintf(w, "The start of the difference (- nvlink, + cudalink):\n\n```\n%s\n```\n\n", strings.TrimRight(p.Verify.Diff, "\n"))
			}
		}
	}

	printTargets(w, r)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "**no**"
}

// printTargets reports the targets, measured in this run. They are
// information, not a verdict of a test.
func printTargets(w io.Writer, r *results) {
	type target struct {
		what, want, got string
		met             bool
	}
	var ts []target
	// The issue measures a 400-object program of about 35 MB of cubins:
	// the large program. The flat program's files are a fifth of that.
	for _, v := range []variant{variantLarge, variantDefault} {
		p400 := r.program(v.Name, 400)
		p1600 := r.program(v.Name, 1600)
		if p400 != nil && p400.Cudalink != nil && p400.Nvlink != nil {
			t := float64(p400.Cudalink.WallMedian) / float64(p400.Nvlink.WallMedian)
			ts = append(ts, target{v.Name + ": median wall time, 400 objects, cudalink / nvlink", "≤ 0.20", fmt.Sprintf("%.3f", t), t <= 0.2})
			m := float64(p400.Cudalink.RSSMedian) / float64(p400.Nvlink.RSSMedian)
			ts = append(ts, target{v.Name + ": peak RSS, 400 objects, cudalink / nvlink", "≤ 0.50", fmt.Sprintf("%.2f", m), m <= 0.5})
		}
		if p400 != nil && p1600 != nil && p400.Cudalink != nil && p1600.Cudalink != nil {
			s := float64(p1600.Cudalink.WallMedian) / float64(p400.Cudalink.WallMedian)
			ts = append(ts, target{v.Name + ": cudalink time, 1600 objects / 400 objects", "≤ 4.2", fmt.Sprintf("%.2f", s), s <= 4.2})
		}
		if ws := r.worker(v.Name, 400, false); ws != nil && ws.SpeedupVsNvlink > 0 {
			ts = append(ts, target{v.Name + ": nvlink (cold) / warm worker relink, 400 objects", "≥ 25", fmt.Sprintf("%.1f", ws.SpeedupVsNvlink), ws.SpeedupVsNvlink >= 25})
		}
		if ws := r.worker(v.Name, 400, true); ws != nil && ws.SpeedupVsNvlink > 0 {
			ts = append(ts, target{v.Name + ": nvlink (cold) / warm worker relink with one object changed, 400 objects", "(reported)", fmt.Sprintf("%.1f", ws.SpeedupVsNvlink), true})
		}
	}
	// Every program: wall at most half of nvlink's, CPU and peak memory at
	// most nvlink's.
	for _, p := range r.Programs {
		if p.Cudalink == nil || p.Nvlink == nil {
			continue
		}
		name := fmt.Sprintf("%s %d", p.Variant, p.Objects)
		wr := float64(p.Cudalink.WallMedian) / float64(p.Nvlink.WallMedian)
		ts = append(ts, target{name + ": median wall, cudalink / nvlink", "≤ 0.50", fmt.Sprintf("%.2f", wr), wr <= 0.5})
		if p.Cudalink.CPUMedian > 0 && p.Nvlink.CPUMedian > 0 {
			cr := float64(p.Cudalink.CPUMedian) / float64(p.Nvlink.CPUMedian)
			ts = append(ts, target{name + ": median CPU, cudalink / nvlink", "≤ 1", fmt.Sprintf("%.2f", cr), cr <= 1})
		}
		mr := float64(p.Cudalink.RSSMedian) / float64(p.Nvlink.RSSMedian)
		ts = append(ts, target{name + ": median peak RSS, cudalink / nvlink", "≤ 1", fmt.Sprintf("%.2f", mr), mr <= 1})
	}
	if len(ts) == 0 {
		return
	}
	fmt.Fprintln(w, "### Targets (this run)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| target | wanted | measured | met |")
	fmt.Fprintln(w, "|---|---:|---:|---|")
	for _, t := range ts {
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", t.what, t.want, t.got, yesNo(t.met))
	}
	fmt.Fprintln(w)
}

// printSummary is the table of every program measured, one row each:
// medians of wall time, CPU time (user + system) and peak RSS for both
// linkers, and cudalink's as a fraction of nvlink's (the issue asks for at
// most 0.5 of the wall time and at most 1 of the CPU time and memory).
func printSummary(w io.Writer, r *results) {
	var ps []*programResult
	for _, p := range r.Programs {
		if p.Cudalink != nil && p.Nvlink != nil {
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 {
		return
	}
	fmt.Fprintln(w, "### Every program: cudalink against nvlink")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Medians; wall and CPU (user + system) in ms, peak RSS in MiB; each ratio is cudalink / nvlink.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| program | objects | input MB | wall cudalink | wall nvlink | wall ratio | CPU cudalink (user + sys) | CPU nvlink (user + sys) | CPU ratio | RSS cudalink | RSS nvlink | RSS ratio |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, p := range ps {
		c, n := p.Cudalink, p.Nvlink
		split := func(s *stats) string {
			if s.CPUMedian == 0 {
				return "—"
			}
			return fmt.Sprintf("%s (%s + %s)", ms(s.CPUMedian), ms(s.UserMedian), ms(s.SysMedian))
		}
		fmt.Fprintf(w, "| %s | %d | %.1f | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", p.Variant, p.Objects, float64(p.InputBytes)/1e6,
			ms(c.WallMedian), ms(n.WallMedian), ratio(c.WallMedian, n.WallMedian),
			split(c), split(n), ratio(c.CPUMedian, n.CPUMedian),
			mib(c.RSSMedian), mib(n.RSSMedian), ratio(c.RSSMedian, n.RSSMedian))
	}
	fmt.Fprintln(w)
}
