package start

import "syscall"

// slowMonitor lets the runtime's monitor thread (sysmon) sleep at least a
// millisecond at a time, by giving every thread of the process but the
// calling one a timer slack of 1 ms (the kernel's default is 50 µs). The
// monitor polls the scheduler in sleeps of 20 µs for its first 50 rounds
// and after each time it took a P from a system call, then doubles them to
// 10 ms: about 60 wake-ups in a 15 ms link. On a 2-CPU virtual machine
// each costs the process about 25 µs of CPU time (the timer's programming
// and the idle CPU's wake-up are exits to the host): 1.4 to 1.8 ms of a
// flat 100-object link's 13 to 16 ms (per-thread schedstat), 0.1 to 0.8
// ms of a 10-object link's 3 (docs/benchmarks.md, perf22). With the slack
// it wakes 10 to 20 times. What it does when it wakes (preempting a
// goroutine that ran 10 ms, taking the P of a goroutine blocked in a system
// call so that another can run) comes a millisecond later at most, which
// a one-shot link does not wait for: it runs on one goroutine, or on more
// only with as many Ps.
//
// The threads are those /proc/self/task lists: the monitor, started
// before any package's initialisation, and the idle threads the runtime
// started for its goroutines (which sleep without a timeout); threads
// started later inherit their creator's slack. The calling thread keeps
// its own. The kernel lets a thread set another's slack only with
// CAP_SYS_NICE (root, or inside a user namespace of one's own such as a
// build sandbox's): without it this does nothing. restoreMonitor undoes it
// for the persistent worker.
func slowMonitor() {
	if ownSlack == 0 {
		r, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, syscall.PR_GET_TIMERSLACK, 0, 0)
		if errno != 0 || r == 0 {
			return
		}
		ownSlack = int(r)
	}
	setSlack("1000000", false)
}

// ownSlack is the timer slack of the thread that first ran slowMonitor
// (init), the process's own, inherited from its parent; 0 until then.
var ownSlack int

// restoreMonitor gives every thread of the process back the slack the
// process started with (what slowMonitor changed).
func restoreMonitor() {
	if ownSlack > 0 {
		setSlack(decimal(ownSlack), true)
	}
}

// setSlack writes ns to the timerslack_ns of every thread of the process,
// the calling one too if self.
func setSlack(ns string, self bool) {
	dir, err := syscall.Open("/proc/self/task", syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	defer syscall.Close(dir)
	me := decimal(syscall.Gettid())
	var buf [2048]byte
	var names [64]string
	for {
		n, err := syscall.ReadDirent(dir, buf[:])
		if err != nil || n <= 0 {
			return
		}
		_, _, tids := syscall.ParseDirent(buf[:n], -1, names[:0])
		for _, tid := range tids {
			if tid == me && !self {
				continue
			}
			fd, err := syscall.Open("/proc/"+tid+"/timerslack_ns", syscall.O_WRONLY|syscall.O_CLOEXEC, 0)
			if err != nil {
				continue
			}
			syscall.Write(fd, []byte(ns))
			syscall.Close(fd)
		}
	}
}

// decimal is strconv.Itoa for a thread id or a slack, which this package
// does not import (see its doc).
func decimal(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}
