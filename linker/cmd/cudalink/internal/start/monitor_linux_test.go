package start

import (
	"errors"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestSlowMonitor: slowMonitor gives every other thread of the process a
// timer slack of 1 ms and leaves the calling thread's; restoreMonitor
// gives every thread back the slack the process started with. It needs
// CAP_SYS_NICE, without which the kernel lets no thread read or set
// another's slack (and slowMonitor does nothing).
func TestSlowMonitor(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if ownSlack == 0 {
		t.Fatal("init did not record the process's timer slack")
	}
	// Threads of its own besides the runtime's: each goroutine holds one.
	stop := make(chan struct{})
	defer close(stop)
	for range 3 {
		ready := make(chan struct{})
		go func() {
			runtime.LockOSThread()
			close(ready)
			<-stop
		}()
		<-ready
	}
	me := strconv.Itoa(syscall.Gettid())
	if _, err := os.ReadFile("/proc/" + otherThread(t, me) + "/timerslack_ns"); errors.Is(err, os.ErrPermission) {
		t.Skip("another thread's timer slack needs CAP_SYS_NICE:", err)
	}
	restoreMonitor()
	for tid, slack := range slacks(t) {
		if slack != ownSlack {
			t.Errorf("after restoreMonitor: thread %s has a slack of %d ns, want %d", tid, slack, ownSlack)
		}
	}
	slowMonitor()
	for tid, slack := range slacks(t) {
		want := 1000000
		if tid == me {
			want = ownSlack
		}
		if slack != want {
			t.Errorf("after slowMonitor: thread %s (the caller: %v) has a slack of %d ns, want %d", tid, tid == me, slack, want)
		}
	}
	restoreMonitor()
	for tid, slack := range slacks(t) {
		if slack != ownSlack {
			t.Errorf("after restoreMonitor again: thread %s has a slack of %d ns, want %d", tid, slack, ownSlack)
		}
	}
}

// otherThread is a thread of the process other than me.
func otherThread(t *testing.T, me string) string {
	for tid := range slacks(t) {
		if tid != me {
			return tid
		}
	}
	t.Fatal("the process has one thread")
	return ""
}

// slacks reads the timer slack of every thread of the process.
func slacks(t *testing.T) map[string]int {
	ents, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Skip("no /proc/self/task:", err)
	}
	m := make(map[string]int)
	for _, e := range ents {
		b, err := os.ReadFile("/proc/" + e.Name() + "/timerslack_ns")
		if errors.Is(err, os.ErrNotExist) {
			continue // ended since
		}
		if err != nil {
			t.Skip("cannot read a thread's timer slack:", err)
		}
		n, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil {
			t.Fatalf("thread %s: timerslack_ns %q", e.Name(), b)
		}
		m[e.Name()] = n
	}
	return m
}
