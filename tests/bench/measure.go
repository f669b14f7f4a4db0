package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"time"
)

// sample is one run of a linker process.
type sample struct {
	Wall      time.Duration
	User, Sys time.Duration // CPU time of the child, from wait4
	MaxRSS    int64         // bytes: ru_maxrss of the child, from wait4
}

// CPU is the child's user and system time together.
func (s sample) CPU() time.Duration { return s.User + s.Sys }

// runChild runs bin with args, its stdout and stderr going to a file, and
// returns its wall time, CPU time and peak resident set size, as measured
// by a launcher process.
//
// The launcher is there for the peak RSS. A process's ru_maxrss is the
// larger of its own peak and the peak of the memory image it replaced at
// exec: Go starts children with vfork (CLONE_VM), so a linker started
// from this process would report at least this process's own peak, which
// grows with the in-process links it does. The launcher is a small C
// program (launcherC, built with cc at start: its floor is about 1 MiB)
// or, without a C compiler, this program run with -launch (about 4.4 MiB,
// more than nvlink's peak on the smallest programs). The floor is
// measured and reported (launchFloor).
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
	if cLauncher != "" {
		cmd = exec.Command(cLauncher, append([]string{bin}, args...)...)
	}
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
	s := sample{Wall: time.Duration(rep.WallNS), User: time.Duration(rep.UserNS), Sys: time.Duration(rep.SysNS), MaxRSS: rep.MaxRSSKB * 1024}
	if rep.Err != "" || werr != nil {
		msg, _ := os.ReadFile(logPath)
		return s, fmt.Errorf("%s: %s %v\n%s", bin, rep.Err, werr, clip(msg, 2000))
	}
	return s, nil
}

// launchReport is what the launcher writes to its descriptor 3.
type launchReport struct {
	WallNS        int64  // from just before the start to the reaping of the child
	UserNS, SysNS int64  // ru_utime and ru_stime of the child, from wait4
	MaxRSSKB      int64  // ru_maxrss of the child, from wait4
	Err           string // how the child failed, if it did
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
				rep.UserNS, rep.SysNS = ru.Utime.Nano(), ru.Stime.Nano()
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
	// CPU (user + system) and its two parts, each the median of its own;
	// zero in results from before they were measured.
	CPUMedian, CPUMin, CPUMax time.Duration `json:",omitempty"`
	UserMedian, SysMedian     time.Duration `json:",omitempty"`
}

func summarise(ss []sample) stats {
	if len(ss) == 0 {
		return stats{}
	}
	walls := make([]time.Duration, len(ss))
	cpus := make([]time.Duration, len(ss))
	users := make([]time.Duration, len(ss))
	syss := make([]time.Duration, len(ss))
	rss := make([]int64, len(ss))
	for i, s := range ss {
		walls[i], rss[i] = s.Wall, s.MaxRSS
		cpus[i], users[i], syss[i] = s.CPU(), s.User, s.Sys
	}
	for _, d := range [][]time.Duration{walls, cpus, users, syss} {
		slices.Sort(d)
	}
	slices.Sort(rss)
	return stats{
		N:          len(ss),
		WallMedian: median(walls), WallMin: walls[0], WallMax: walls[len(walls)-1],
		RSSMedian: median(rss), RSSMin: rss[0], RSSMax: rss[len(rss)-1],
		CPUMedian: median(cpus), CPUMin: cpus[0], CPUMax: cpus[len(cpus)-1],
		UserMedian: median(users), SysMedian: median(syss),
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

// cLauncher is the path of the C launcher, once buildLauncher has built
// it; "" to use this program's -launch.
var cLauncher string

// launcherC is the C launcher: it does what launch does, in a process of
// about 1 MiB. Its report is the same JSON object.
const launcherC = `#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long ns(struct timeval tv) { return tv.tv_sec * 1000000000LL + tv.tv_usec * 1000LL; }

int main(int argc, char **argv) {
	FILE *out = fdopen(3, "w");
	if (!out) return 2;
	if (argc < 2) { fprintf(out, "{\"Err\":\"nothing to launch\"}\n"); return 2; }
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	pid_t pid = fork();
	if (pid == 0) {
		close(3);
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	if (pid < 0) { fprintf(out, "{\"Err\":\"fork: %s\"}\n", strerror(errno)); return 2; }
	int st;
	struct rusage ru;
	while (wait4(pid, &st, 0, &ru) < 0 && errno == EINTR) {}
	clock_gettime(CLOCK_MONOTONIC, &b);
	long long wall = (b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec);
	char err[64] = "";
	int status = 0;
	if (WIFEXITED(st) && WEXITSTATUS(st) != 0) {
		status = WEXITSTATUS(st);
		snprintf(err, sizeof err, "exit status %d", status);
	} else if (WIFSIGNALED(st)) {
		status = 2;
		snprintf(err, sizeof err, "killed by signal %d", WTERMSIG(st));
	}
	fprintf(out, "{\"WallNS\":%lld,\"UserNS\":%lld,\"SysNS\":%lld,\"MaxRSSKB\":%ld,\"Err\":\"%s\"}\n",
		wall, ns(ru.ru_utime), ns(ru.ru_stime), ru.ru_maxrss, err);
	fclose(out);
	return status;
}
`

// buildLauncher compiles launcherC into dir with cc and sets cLauncher;
// without a working C compiler runChild keeps this program's -launch.
func buildLauncher(dir string, log func(string, ...any)) {
	src := filepath.Join(dir, "launch.c")
	bin := filepath.Join(dir, "launch")
	if err := os.WriteFile(src, []byte(launcherC), 0o644); err != nil {
		return
	}
	if msg, err := exec.Command("cc", "-O2", "-o", bin, src).CombinedOutput(); err != nil {
		log("no C launcher (cc: %v %s); peak RSS below about 4.4 MiB cannot be measured", err, msg)
		return
	}
	cLauncher = bin
}
