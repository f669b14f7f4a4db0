package main

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"time"
)

// profileLinks runs the link of args reps times in this process with
// linker.Run (after one untimed link that warms the page cache), under the
// CPU profiler if cpuPath is set, and writes the allocation profile to
// memPath if set. The allocation profile counts every allocation since the
// process started: profile with -measure=false -verify=false, or look at
// it with -focus=linker.Run.
func profileLinks(args []string, reps int, cpuPath, memPath, heapPath string) error {
	if err := linkInProcess(args, 0); err != nil {
		return err
	}
	if heapPath != "" {
		if err := peakHeapProfile(args, heapPath); err != nil {
			return err
		}
	}
	if cpuPath != "" {
		f, err := os.Create(cpuPath)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
	}
	var times []time.Duration
	for i := 0; i < reps; i++ {
		start := time.Now()
		if err := linkInProcess(args, 0); err != nil {
			pprof.StopCPUProfile()
			return err
		}
		times = append(times, time.Since(start))
	}
	if cpuPath != "" {
		pprof.StopCPUProfile()
	}
	st := summarise(durSamples(times))
	fmt.Fprintf(os.Stderr, "bench: in-process link: median %v (min %v, max %v)\n",
		st.WallMedian.Round(time.Microsecond), st.WallMin.Round(time.Microsecond), st.WallMax.Round(time.Microsecond))
	if memPath != "" {
		runtime.GC()
		f, err := os.Create(memPath)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
			return err
		}
	}
	return nil
}

// peakHeapProfile runs one link while a goroutine watches the live heap
// (as of the last completed GC cycle) and keeps the heap profile taken when
// it was largest: what the link holds at its peak, by allocation site
// (go tool pprof -sample_index=inuse_space).
func peakHeapProfile(args []string, path string) error {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var best bytes.Buffer
	var bestLive uint64
	done := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		var lastGC uint32
		for {
			select {
			case <-done:
				return
			case <-time.After(500 * time.Microsecond):
			}
			var ms runtime.MemStats
			metrics.Read(sample)
			live := sample[0].Value.Uint64()
			if live <= bestLive {
				continue
			}
			runtime.ReadMemStats(&ms)
			if ms.NumGC == lastGC {
				continue
			}
			lastGC = ms.NumGC
			bestLive = live
			best.Reset()
			pprof.Lookup("heap").WriteTo(&best, 0)
		}
	}()
	err := linkInProcess(args, 0)
	close(done)
	<-watched
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "bench: largest live heap seen during the link: %.1f MiB\n", float64(bestLive)/(1<<20))
	return os.WriteFile(path, best.Bytes(), 0o644)
}
