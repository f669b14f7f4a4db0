package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"syscall"
	"time"
)

// sample is one run of a linker process.
type sample struct {
	Wall   time.Duration
	MaxRSS int64 // bytes: ru_maxrss of the child, from wait4
}

// runChild runs bin with args, its stdout and stderr going to a file, and
// returns its wall time and peak resident set size, as measured by a
// launcher process (this program run with -launch, see launch).
//
// The launcher is there for the peak RSS. A process's ru_maxrss is the
// larger of its own peak and the peak of the memory image it replaced at
// exec: Go starts children with vfork (CLONE_VM), so a linker started
// from this process would report at least this process's own peak, which
// grows with the in-process links it does. The launcher is small and
// stays small (its floor is measured and reported: launchFloor).
func runChild(bin string, args []string, logPath string) (sample, error) {
	logf, err := os.Create(logPath)
	if err != nil {
		return sample{}, err
	}
	defer logf.Close()
	self, err := os.Executable()
	if err != nil {
		return sample{}, err
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return sample{}, err
	}
	defer pr.Close()
	cmd := exec.Command(self, append([]string{"-launch", bin}, args...)...)
	cmd.Stdout = logf // *os.File: handed to the child, no copying goroutine
	cmd.Stderr = logf
	cmd.ExtraFiles = []*os.File{pw} // fd 3: the launcher's report
	cmd.Env = toolEnv()
	err = cmd.Start()
	pw.Close()
	if err != nil {
		return sample{}, err
	}
	report, _ := io.ReadAll(pr)
	werr := cmd.Wait()
	var rep launchReport
	if jerr := json.Unmarshal(report, &rep); jerr != nil {
		return sample{}, fmt.Errorf("launcher for %s: bad report %q (%v)", bin, report, werr)
	}
	s := sample{Wall: time.Duration(rep.WallNS), MaxRSS: rep.MaxRSSKB * 1024}
	if rep.Err != "" || werr != nil {
		msg, _ := os.ReadFile(logPath)
		return s, fmt.Errorf("%s: %s %v\n%s", bin, rep.Err, werr, clip(msg, 2000))
	}
	return s, nil
}

// launchReport is what the launcher writes to its descriptor 3.
type launchReport struct {
	WallNS   int64  // from just before the start to the reaping of the child
	MaxRSSKB int64  // ru_maxrss of the child, from wait4
	Err      string // how the child failed, if it did
}

// launch is the launcher (-launch bin args...): it runs the command with
// its own stdout and stderr, waits for it with wait4, and writes a
// launchReport to descriptor 3. Its exit status is the command's.
func launch(args []string) int {
	rep := launchReport{}
	status := 0
	if len(args) == 0 {
		rep.Err = "nothing to launch"
		status = 2
	} else {
		path, err := exec.LookPath(args[0])
		if err != nil {
			rep.Err = err.Error()
			status = 2
		} else {
			attr := &syscall.ProcAttr{Env: os.Environ(), Files: []uintptr{0, 1, 2}}
			start := time.Now()
			pid, err := syscall.ForkExec(path, args, attr)
			if err != nil {
				rep.Err = err.Error()
				status = 2
			} else {
				var ws syscall.WaitStatus
				var ru syscall.Rusage
				for {
					_, err = syscall.Wait4(pid, &ws, 0, &ru)
					if err != syscall.EINTR {
						break
					}
				}
				rep.WallNS = int64(time.Since(start))
				rep.MaxRSSKB = ru.Maxrss // kilobytes on Linux
				switch {
				case err != nil:
					rep.Err, status = err.Error(), 2
				case ws.Exited() && ws.ExitStatus() != 0:
					rep.Err, status = fmt.Sprintf("exit status %d", ws.ExitStatus()), ws.ExitStatus()
				case ws.Signaled():
					rep.Err, status = fmt.Sprintf("killed by %v", ws.Signal()), 2
				}
			}
		}
	}
	out := os.NewFile(3, "report")
	json.NewEncoder(out).Encode(rep)
	out.Close()
	return status
}

// launchFloor is the smallest peak RSS the launcher can report: that of
// a child doing nothing (/bin/true), which inherits the launcher's own.
func launchFloor() int64 {
	s, err := runChild("true", nil, os.DevNull)
	if err != nil {
		return 0
	}
	return s.MaxRSS
}

func clip(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "..."
	}
	return string(b)
}

// stats summarises samples.
type stats struct {
	N                         int
	WallMedian, WallMin       time.Duration
	WallMax                   time.Duration
	RSSMedian, RSSMin, RSSMax int64
}

func summarise(ss []sample) stats {
	if len(ss) == 0 {
		return stats{}
	}
	walls := make([]time.Duration, len(ss))
	rss := make([]int64, len(ss))
	for i, s := range ss {
		walls[i], rss[i] = s.Wall, s.MaxRSS
	}
	slices.Sort(walls)
	slices.Sort(rss)
	return stats{
		N:          len(ss),
		WallMedian: median(walls), WallMin: walls[0], WallMax: walls[len(walls)-1],
		RSSMedian: median(rss), RSSMin: rss[0], RSSMax: rss[len(rss)-1],
	}
}

// median of sorted values; the mean of the middle two for an even count.
func median[T time.Duration | int64](sorted []T) T {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}
