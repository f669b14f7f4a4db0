package linker

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Benchmarks of the link and of each of its passes. They report numbers;
// they never fail on a time.
//
//	go test -run '^$' -bench . -benchmem ./linker
//
// The inputs are the 24 cubins of the many-files-24 corpus case. To
// measure a bigger program, set CUDALINK_BENCH_INPUTS to a file listing
// input paths one per line, such as the program-N.txt files the benchmark
// harness writes next to its generated cubins (docs/benchmarks.md):
//
//	CUDALINK_BENCH_INPUTS=~/.cache/cudalink-bench/sm_80-default/program-1600.txt \
//	    go test -run '^$' -bench . -benchmem ./linker

// benchPass is one pass of Link, in Link's order. The list must follow
// Link (link.go); TestBenchPassesMatchLink checks that running them in
// this order gives Link's output.
type benchPass struct {
	name string
	run  func(*linkContext) error
}

func benchPasses() []benchPass {
	step := func(f func(*linkContext)) func(*linkContext) error {
		return func(ctx *linkContext) error {
			f(ctx)
			if ctx.failed() {
				return ErrFailed
			}
			return nil
		}
	}
	return []benchPass{
		{"load", step(func(ctx *linkContext) {
			readInputs(ctx)
			compilePTXImages(ctx)
			addInputs(ctx)
			extractOnDemand(ctx)
			checkArchitectures(ctx)
		})},
		{"resolve", step(resolveSymbols)},
		{"functions", step(buildFunctions)},
		{"names", step(registerNames)},
		{"edges", step(buildCallEdges)},
		{"deadcode", step(eliminateDeadCode)},
		{"merge", step(func(ctx *linkContext) {
			mergeSections(ctx)
			releaseUnusedCode(ctx)
		})},
		{"layout", step(func(ctx *linkContext) {
			layoutSections(ctx)
			layoutShared(ctx)
			layoutDebugInfo(ctx)
			keepLostCopyLocals(ctx)
			placeSymbols(ctx)
		})},
		{"resources", step(computeResources)},
		{"relocate", step(applyRelocations)},
		{"symtab", step(func(ctx *linkContext) {
			gatherSections(ctx)
			createMetadataSections(ctx)
			finishNames(ctx)
		})},
		{"indices", step(assignIndices)},
		{"nvinfo", step(buildNVInfo)},
		{"write", writeOutput},
	}
}

// benchInputs returns the inputs to link and the target SM.
func benchInputs(tb testing.TB) ([]Input, int) {
	if list := os.Getenv("CUDALINK_BENCH_INPUTS"); list != "" {
		f, err := os.Open(list)
		if err != nil {
			tb.Fatal(err)
		}
		defer f.Close()
		var ins []Input
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if p := strings.TrimSpace(sc.Text()); p != "" {
				ins = append(ins, Input{Path: p})
			}
		}
		if len(ins) == 0 {
			tb.Fatalf("%s lists no inputs", list)
		}
		return ins, 80
	}
	dir := filepath.Join("..", "tests", "corpus", "cases", "many-files-24")
	paths, err := filepath.Glob(filepath.Join(dir, "*.cubin"))
	if err != nil {
		tb.Fatal(err)
	}
	var ins []Input
	for _, p := range paths {
		if filepath.Base(p) != "expected.cubin" {
			ins = append(ins, Input{Path: p}) // f00 ... f22, main: the case's order
		}
	}
	if len(ins) != 24 {
		tb.Skipf("many-files-24 has %d input cubins, want 24", len(ins))
	}
	return ins, 80
}

func newBenchContext(ins []Input, sm int) *linkContext {
	return newContext(&Config{Arch: sm, Inputs: ins, Stdout: io.Discard, Stderr: io.Discard})
}

// runPasses runs the first n passes on ctx.
func runPasses(tb testing.TB, ctx *linkContext, passes []benchPass, n int) {
	for _, p := range passes[:n] {
		if err := p.run(ctx); err != nil {
			tb.Fatalf("pass %s: %v", p.name, err)
		}
	}
}

// BenchmarkLink is the whole link in memory (no output file).
func BenchmarkLink(b *testing.B) {
	ins, sm := benchInputs(b)
	b.ReportAllocs()
	for b.Loop() {
		ctx := newBenchContext(ins, sm)
		if err := link(ctx); err != nil {
			b.Fatal(err)
		}
		ctx.maps.unmapAll()
	}
}

// BenchmarkPass times each pass alone: the passes before it run with the
// timer stopped.
func BenchmarkPass(b *testing.B) {
	ins, sm := benchInputs(b)
	passes := benchPasses()
	for k, p := range passes {
		b.Run(p.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				ctx := newBenchContext(ins, sm)
				runPasses(b, ctx, passes, k)
				b.StartTimer()
				if err := p.run(ctx); err != nil {
					b.Fatalf("pass %s: %v", p.name, err)
				}
				b.StopTimer()
				ctx.maps.unmapAll()
				b.StartTimer()
			}
		})
	}
}

// TestBenchPassesMatchLink: the benchmarks' list of passes, run in order,
// writes what Link writes, so BenchmarkPass measures the link that runs.
func TestBenchPassesMatchLink(t *testing.T) {
	ins, sm := benchInputs(t)
	whole := newBenchContext(ins, sm)
	defer whole.maps.unmapAll()
	if err := link(whole); err != nil {
		t.Fatal(err)
	}
	byPass := newBenchContext(ins, sm)
	defer byPass.maps.unmapAll()
	passes := benchPasses()
	runPasses(t, byPass, passes, len(passes))
	if !bytes.Equal(whole.output, byPass.output) {
		t.Errorf("the passes of benchPasses write %d bytes that differ from Link's %d: update benchPasses to follow Link", len(byPass.output), len(whole.output))
	}
}
