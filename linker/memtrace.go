package linker

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
)

// Memory tracing, for work on the linker's memory use (docs/benchmarks.md):
//
//	CUDALINK_MEMTRACE=1            after every pass, collect garbage and print to
//	                               stderr the heap before and after, and the
//	                               process's peak and current resident set
//	CUDALINK_HEAPPROFILE=PASS=FILE after pass PASS, write a heap profile of
//	                               every allocation still live to FILE
//
// Both slow the link down; neither changes its output.
var (
	memTrace        = os.Getenv("CUDALINK_MEMTRACE") != ""
	heapProfilePass string
	heapProfileFile string
)

func init() {
	if pass, file, ok := strings.Cut(os.Getenv("CUDALINK_HEAPPROFILE"), "="); ok {
		heapProfilePass, heapProfileFile = pass, file
		runtime.MemProfileRate = 1
	}
}

// traceMemory runs after each pass when memory tracing is on.
func traceMemory(pass string) {
	if memTrace {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		before := ms.HeapAlloc
		runtime.GC()
		runtime.ReadMemStats(&ms)
		fmt.Fprintf(os.Stderr, "cudalink memtrace: %-26s heap %6.1f MiB, live %6.1f MiB, %s\n",
			pass, mib(before), mib(ms.HeapAlloc), residentSet())
	}
	if pass == heapProfilePass {
		runtime.GC()
		f, err := os.Create(heapProfileFile)
		if err == nil {
			err = pprof.Lookup("heap").WriteTo(f, 0)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "cudalink: CUDALINK_HEAPPROFILE: %v\n", err)
		}
	}
}

// residentSet is the peak and current resident set from /proc/self/status.
func residentSet() string {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "resident set unknown"
	}
	var fields []string
	for _, line := range strings.Split(string(status), "\n") {
		for _, key := range []string{"VmHWM:", "RssAnon:", "RssFile:"} {
			if strings.HasPrefix(line, key) {
				fields = append(fields, key+" "+strings.Join(strings.Fields(line[len(key):]), " "))
			}
		}
	}
	return strings.Join(fields, ", ")
}

func mib(n uint64) float64 { return float64(n) / (1 << 20) }
