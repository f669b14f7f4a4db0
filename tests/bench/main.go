// Command bench measures cudalink against NVIDIA's nvlink 11.8 on generated
// many-file CUDA programs.
//
//	go run ./tests/bench -n 100,400,1600 -reps 5
//
// It generates N-file programs (see gen.go), compiles them with nvcc 11.8
// in parallel into a cache directory (only what is missing or changed is
// rebuilt), then links each program with both linkers, interleaved, -reps
// times, and reports the median, minimum and maximum wall time and peak
// RSS of each. It also checks each cudalink output against nvlink's with
// tests/normalize, checks that a serial link (Parallelism 1) gives the same
// bytes, times warm relinks through the persistent worker, links the -G
// variant with nvlink (cudalink does not support -g links yet), writes the
// results as JSON and a PNG plot, and prints Markdown tables for
// docs/benchmarks.md. With -cpuprofile (and -memprofile) it profiles
// in-process links of one program with runtime/pprof.
//
// Benchmarks report numbers; nothing here passes or fails on a target.
// See docs/benchmarks.md.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cudalink/cudalink/linker"
	"github.com/cudalink/cudalink/linker/cli"
	"github.com/cudalink/cudalink/tests/normalize"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "-launch" {
		os.Exit(launch(os.Args[2:]))
	}
	var (
		sizesFlag  = flag.String("n", "10,100,400,1600", "program sizes (number of objects), comma-separated; \"none\" to skip")
		gSizesFlag = flag.String("gn", "", "program sizes of the -G (debug) variant, linked with -g; default: the -n sizes; \"none\" to skip")
		chainFlag  = flag.String("chain-n", "100,400", "program sizes of the deep-chain variant (nvlink needs minutes for 1600); \"none\" to skip")
		largeFlag  = flag.String("large-n", "100,400,1600", "program sizes of the large-file variant (the performance targets are measured on it); \"none\" to skip")
		ptxFlag    = flag.String("ptx-n", "10,100", "program sizes of the flat program as PTX only (each file compiled by the PTX compiler library or ptxas); \"none\" to skip")
		ptxLib     = flag.String("ptx-compiler", defaultPTXCompiler(), "the PTX compiler (program or library) cudalink gets as --ptx-compiler for the PTX program, as a user passes it (default: the program scripts/setup.sh builds, else its library, when there); \"none\": ptxas")
		ptxasToo   = flag.Bool("ptxas-too", true, "with -ptx-compiler, also time cudalink compiling with ptxas processes (no --ptx-compiler) on the PTX program, interleaved with the other runs")
		ltoFlag    = flag.String("lto-n", "10,100", "program sizes of the flat program as -dlto IR (libnvvm, then ptxas); \"none\" to skip")
		reps       = flag.Int("reps", 5, "timed runs of each linker per program")
		arch       = flag.String("arch", "sm_80", "target architecture")
		cacheDir   = flag.String("cache", defaultCache(), "directory of the generated sources and cubins")
		jobs       = flag.Int("j", 2*runtime.NumCPU(), "nvcc processes at once")
		cudalinkF  = flag.String("cudalink", "", "cudalink binary (default: go build ./linker/cmd/cudalink)")
		nvlinkF    = flag.String("nvlink", "nvlink", "nvlink binary")
		workerReps = flag.Int("worker-reps", 20, "warm relinks through the persistent worker per program (0: skip)")
		diffDir    = flag.String("diffdir", "", "write the normalized outputs of both linkers here when they differ")
		verify     = flag.Bool("verify", true, "compare cudalink's outputs with nvlink's (tests/normalize) and with a serial link")
		measure    = flag.Bool("measure", true, "time the linkers (false: only build, verify and profile)")
		jsonOut    = flag.String("json", "", "write the results as JSON to this file")
		plotOut    = flag.String("plot", "", "write a PNG plot of time against objects to this file")
		fromJSON   = flag.String("from-json", "", "do not measure: read results from these JSON files, comma-separated (to redraw the plot and tables)")
		cpuProf    = flag.String("cpuprofile", "", "profile in-process links of the -profile-n program (linker.Run under runtime/pprof) into this file")
		memProf    = flag.String("memprofile", "", "write an allocation profile of the same links to this file")
		heapProf   = flag.String("heapprofile", "", "write the heap profile at the largest live heap of one such link to this file")
		profN      = flag.Int("profile-n", 0, "program size to profile (default: the largest -n)")
		profReps   = flag.Int("profile-reps", 10, "in-process links while profiling")
		profVar    = flag.String("profile-variant", "default", "program to profile: default (flat call graph), chain, large or G (-G objects linked with -g)")
	)
	flag.Parse()
	log := func(format string, args ...any) {
		fmt.Fprintf(os.Stderr, "bench: "+format+"\n", args...)
	}
	var work string // the scratch directory, removed on every exit
	fail := func(err error) {
		fmt.Fprintf(os.Stderr, "bench: %v\n", err)
		if work != "" {
			os.RemoveAll(work)
		}
		os.Exit(1)
	}

	if *fromJSON != "" {
		// Several files are merged: the first gives the header, every file
		// its programs and worker runs.
		var res results
		for i, path := range strings.Split(*fromJSON, ",") {
			data, err := os.ReadFile(path)
			if err != nil {
				fail(err)
			}
			var r results
			if err := json.Unmarshal(data, &r); err != nil {
				fail(fmt.Errorf("%s: %v", path, err))
			}
			if i == 0 {
				res = r
				continue
			}
			res.Programs = append(res.Programs, r.Programs...)
			res.Worker = append(res.Worker, r.Worker...)
			res.Merged = append(res.Merged, fmt.Sprintf("%s (%s, %d run(s) of each linker, load average %s before, %s after)", filepath.Base(path), r.When, r.Reps, r.LoadBefore, r.LoadAfter))
		}
		if *plotOut != "" {
			if err := writePlot(*plotOut, &res); err != nil {
				fail(err)
			}
		}
		printReport(os.Stdout, &res)
		return
	}

	optSizes := func(flagValue string, dflt []int) []int {
		switch flagValue {
		case "":
			return dflt
		case "none":
			return nil
		}
		sz, err := parseSizes(flagValue)
		if err != nil {
			fail(err)
		}
		return sz
	}
	sizes := optSizes(*sizesFlag, nil)
	gSizes := optSizes(*gSizesFlag, sizes)
	chainSizes := optSizes(*chainFlag, nil)
	largeSizes := optSizes(*largeFlag, nil)
	variants := []struct {
		v     variant
		sizes []int
	}{{variantDefault, sizes}, {variantDebug, gSizes}, {variantChain, chainSizes}, {variantLarge, largeSizes},
		{variantPTX, optSizes(*ptxFlag, nil)}, {variantLTO, optSizes(*ltoFlag, nil)}}
	for _, tool := range []string{"nvcc", *nvlinkF} {
		if _, err := exec.LookPath(tool); err != nil {
			fail(fmt.Errorf("%s not found: the benchmark needs CUDA 11.8's nvcc and nvlink", tool))
		}
	}

	var err error
	work, err = os.MkdirTemp("", "cudalink-bench-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(work)
	buildLauncher(work, log)
	cudalink := *cudalinkF
	if cudalink == "" {
		cudalink = filepath.Join(work, "cudalink")
		log("building cudalink")
		// cudalink-nvvm beside it: the helper -dlto loads libnvvm in.
		build := exec.Command("go", "build", "-o", work, "github.com/cudalink/cudalink/linker/cmd/cudalink", "github.com/cudalink/cudalink/linker/cmd/cudalink-nvvm")
		if msg, err := build.CombinedOutput(); err != nil {
			fail(fmt.Errorf("go build cudalink: %v\n%s", err, msg))
		}
	}
	// The serial links run in this process: their helper is cudalink's.
	if helper := filepath.Join(filepath.Dir(cudalink), "cudalink-nvvm"); os.Getenv("CUDALINK_NVVM_HELPER") == "" {
		os.Setenv("CUDALINK_NVVM_HELPER", helper)
	}
	nvvmDir, devrtDir := "", ""
	for _, v := range variants {
		if v.v.LTO && len(v.sizes) > 0 && nvvmDir == "" {
			if nvvmDir, devrtDir, err = makeNVVMDir(work); err != nil {
				fail(err)
			}
		}
	}

	pools := map[string]*pool{}
	for _, v := range variants {
		if len(v.sizes) == 0 {
			continue
		}
		p := &pool{dir: filepath.Join(*cacheDir, *arch+"-"+v.v.Name), arch: *arch, variant: v.v}
		if err := buildPool(p, v.sizes, *jobs, log); err != nil {
			fail(err)
		}
		pools[v.v.Name] = p
	}

	res := &results{
		Arch: *arch, Reps: *reps, When: time.Now().UTC().Format(time.RFC3339),
		Host: hostInfo(), Nvlink: toolVersion(*nvlinkF), GoVersion: runtime.Version(),
		LaunchFloor: launchFloor(), LoadBefore: loadAvg(), CudalinkRev: sourceRevision(*cudalinkF),
	}
	linkArgs := func(p *pool, n int, out string) []string {
		args := append([]string{"-arch=" + *arch}, p.variant.LinkFlags...)
		if p.variant.LTO {
			args = append(args, "-dlto", "-nvvmpath="+nvvmDir)
		}
		args = append(args, p.inputs(n)...)
		if p.variant.LTO && devrtDir != "" {
			// nvlink 12.x links CUDA 12 -dlto objects only with
			// libcudadevrt, which nvcc -dlink -dlto passes.
			args = append(args, "-L"+devrtDir, "-lcudadevrt")
		}
		return append(args, "-o", out)
	}
	// cudalink's command line: nvlink's, and the PTX compiler for the
	// program of PTX inputs (-dlto's one compile of one PTX gains nothing
	// from it: docs/benchmarks.md, perf9p). ptxasArgs is nvlink's (ptxas
	// processes), for the comparison; nil when there is none to make.
	if *ptxLib == "none" {
		*ptxLib = ""
	}
	compilesPTX := func(p *pool) bool { return p.variant.Name == variantPTX.Name }
	cudalinkArgs := func(p *pool, n int, out string) []string {
		args := linkArgs(p, n, out)
		if *ptxLib != "" && compilesPTX(p) {
			args = append([]string{"--ptx-compiler=" + *ptxLib}, args...)
		}
		return args
	}
	ptxasArgs := func(p *pool) func(*pool, int, string) []string {
		if *ptxLib == "" || !*ptxasToo || !compilesPTX(p) {
			return nil
		}
		return linkArgs
	}

	if *measure || *verify {
		for _, v := range variants {
			for _, n := range v.sizes {
				p := pools[v.v.Name]
				r, err := measureProgram(p, n, *reps, cudalink, *nvlinkF, work, linkArgs, cudalinkArgs, ptxasArgs(p), *verify, *measure, *diffDir, log)
				if err != nil {
					fail(err)
				}
				res.Programs = append(res.Programs, r)
			}
		}
	}
	if *measure && *workerReps > 0 {
		for _, v := range []struct {
			v     variant
			sizes []int
		}{{variantDefault, sizes}, {variantLarge, largeSizes}} {
			for _, n := range v.sizes {
				for _, changeOne := range []bool{false, true} {
					p := pools[v.v.Name]
					out := filepath.Join(work, fmt.Sprintf("worker-%s-%d.cubin", v.v.Name, n))
					what := "unchanged"
					if changeOne {
						what = "one object changed"
					}
					log("worker: %s, %d objects, 1 cold + %d warm relinks, %s", v.v.Name, n, *workerReps, what)
					wr, err := measureWorker(cudalink, linkArgs(p, n, out), p.inputs(n), out, *workerReps, changeOne)
					if err != nil {
						fail(err)
					}
					pr := res.program(v.v.Name, n)
					ref, _ := os.ReadFile(filepath.Join(work, fmt.Sprintf("cudalink-%s-%d.cubin", v.v.Name, n)))
					warm := make([]sample, len(wr.Warm))
					for i := range wr.Warm {
						warm[i] = sample{Wall: wr.Warm[i], User: wr.WarmCPU[i]}
					}
					wsum := &workerSummary{
						Variant: v.v.Name, Objects: n, OneChanged: changeOne, Cold: wr.Cold, Warm: summarise(warm), VmHWM: wr.VmHWM,
						SameBytes: bytes.Equal(ref, wr.Output),
					}
					if pr != nil && pr.Nvlink != nil {
						wsum.SpeedupVsNvlink = float64(pr.Nvlink.WallMedian) / float64(wsum.Warm.WallMedian)
					}
					res.Worker = append(res.Worker, wsum)
				}
			}
		}
	}

	if *cpuProf != "" || *memProf != "" || *heapProf != "" {
		n := *profN
		if n == 0 && len(sizes) > 0 {
			n = slices.Max(sizes)
		}
		if n == 0 {
			fail(fmt.Errorf("-profile-n: which program size to profile?"))
		}
		var v variant
		switch *profVar {
		case variantDefault.Name:
			v = variantDefault
		case variantChain.Name:
			v = variantChain
		case variantLarge.Name:
			v = variantLarge
		case variantDebug.Name:
			v = variantDebug
		default:
			fail(fmt.Errorf("-profile-variant=%s: want default, chain, large or G", *profVar))
		}
		p := &pool{dir: filepath.Join(*cacheDir, *arch+"-"+v.Name), arch: *arch, variant: v}
		if err := buildPool(p, []int{n}, *jobs, log); err != nil {
			fail(err)
		}
		out := filepath.Join(work, "profile.cubin")
		log("profiling %d in-process links of the %d-object %s program", *profReps, n, v.Name)
		if err := profileLinks(linkArgs(p, n, out), *profReps, *cpuProf, *memProf, *heapProf); err != nil {
			fail(err)
		}
		log("wrote the profiles (go tool pprof -top <profile>)")
	}

	res.LoadAfter = loadAvg()
	if *jsonOut != "" {
		data, _ := json.MarshalIndent(res, "", "  ")
		if err := os.WriteFile(*jsonOut, append(data, '\n'), 0o644); err != nil {
			fail(err)
		}
	}
	if *plotOut != "" && *measure {
		if err := writePlot(*plotOut, res); err != nil {
			fail(err)
		}
	}
	printReport(os.Stdout, res)
}

// measureProgram links the n-object program of pool p: once with each
// linker (a warm-up whose outputs are compared), then reps times each,
// interleaved, alternating which goes first.
// measureProgram links one program with nvlink (linkArgs) and cudalink
// (cudalinkArgs), verifies cudalink's output and times both, interleaved;
// with ptxasArgs, also cudalink compiling PTX with ptxas processes (the
// runs without --ptx-compiler), whose output must be the same.
func measureProgram(p *pool, n, reps int, cudalink, nvlink, work string,
	linkArgs, cudalinkArgs, ptxasArgs func(*pool, int, string) []string, verify, measure bool, diffDir string, log func(string, ...any)) (*programResult, error) {
	r := &programResult{Variant: p.variant.Name, Objects: n, NvccFlags: p.variant.NvccFlags, LinkFlags: p.variant.LinkFlags}
	for _, a := range cudalinkArgs(p, n, "") {
		if lib, ok := strings.CutPrefix(a, "--ptx-compiler="); ok {
			r.PTXCompiler = lib
		}
	}
	for _, in := range p.inputs(n) {
		if fi, err := os.Stat(in); err == nil {
			r.InputBytes += fi.Size()
		}
	}
	tag := fmt.Sprintf("%s-%d", p.variant.Name, n)
	cOut := filepath.Join(work, "cudalink-"+tag+".cubin")
	nOut := filepath.Join(work, "nvlink-"+tag+".cubin")
	cLog := filepath.Join(work, "cudalink-"+tag+".log")
	nLog := filepath.Join(work, "nvlink-"+tag+".log")
	log("%s: %d objects (%.1f MB of cubins)", p.variant.Name, n, float64(r.InputBytes)/1e6)

	if _, err := runChild(nvlink, linkArgs(p, n, nOut), nLog); err != nil {
		return nil, err
	}
	if fi, err := os.Stat(nOut); err == nil {
		r.OutputBytes = fi.Size()
	}
	cudalinkOK := p.variant.CudalinkOK
	if !cudalinkOK {
		// Say what cudalink does with it, without timing it.
		if _, err := runChild(cudalink, cudalinkArgs(p, n, cOut), cLog); err != nil {
			msg, _ := os.ReadFile(cLog)
			r.CudalinkNote = "cudalink refuses the link: " + strings.TrimSpace(firstLine(string(msg)))
		} else {
			r.CudalinkNote = "cudalink links it, but is not measured"
		}
	} else if _, err := runChild(cudalink, cudalinkArgs(p, n, cOut), cLog); err != nil {
		return nil, err
	}
	pOut := filepath.Join(work, "cudalink-ptxas-"+tag+".cubin")
	pLog := filepath.Join(work, "cudalink-ptxas-"+tag+".log")
	if ptxasArgs != nil && cudalinkOK {
		if _, err := runChild(cudalink, ptxasArgs(p, n, pOut), pLog); err != nil {
			return nil, err
		}
	}

	if verify && cudalinkOK {
		v := &verification{}
		want, _ := os.ReadFile(nOut)
		got, _ := os.ReadFile(cOut)
		v.ByteIdentical = bytes.Equal(want, got)
		nw, err1 := normalize.Normalize(want)
		ng, err2 := normalize.Normalize(got)
		switch {
		case err1 != nil:
			v.Diff = "normalizing nvlink's output: " + err1.Error()
		case err2 != nil:
			v.Diff = "normalizing cudalink's output: " + err2.Error()
		default:
			v.Diff = clipLines(normalize.Diff(nw, ng), 300)
			v.NormalizedEqual = v.Diff == ""
			if !v.NormalizedEqual {
				v.Summary = summariseDiff(nw, ng)
				if diffDir != "" {
					os.MkdirAll(diffDir, 0o755)
					os.WriteFile(filepath.Join(diffDir, "nvlink-"+tag+".txt"), []byte(nw), 0o644)
					os.WriteFile(filepath.Join(diffDir, "cudalink-"+tag+".txt"), []byte(ng), 0o644)
				}
			}
		}
		// The serial link: the same command line in this process with
		// Parallelism 1 must write the same bytes.
		serial := filepath.Join(work, "serial-"+tag+".cubin")
		if err := linkInProcess(cudalinkArgs(p, n, serial), 1); err != nil {
			v.SerialNote = err.Error()
		} else {
			s, _ := os.ReadFile(serial)
			v.SerialIdentical = bytes.Equal(s, got)
		}
		if ptxasArgs != nil {
			pt, _ := os.ReadFile(pOut)
			same := bytes.Equal(pt, got)
			v.PtxasIdentical = &same
			log("  verify: with ptxas processes instead of the library, the same bytes: %v", same)
		}
		r.Verify = v
		log("  verify: normalized equal %v, byte-identical %v, serial identical %v", v.NormalizedEqual, v.ByteIdentical, v.SerialIdentical)
		if v.Diff != "" {
			log("  normalized difference (- nvlink, + cudalink), by section or symbol:\n    %s", strings.Join(v.Summary, "\n    "))
		}
	}
	if !measure {
		return r, nil
	}

	var cs, ns, ps []sample
	for i := 0; i < reps; i++ {
		order := []bool{true, false} // cudalink first
		if i%2 == 1 {
			order = []bool{false, true}
		}
		for _, isC := range order {
			if isC {
				if !cudalinkOK {
					continue
				}
				s, err := runChild(cudalink, cudalinkArgs(p, n, cOut), cLog)
				if err != nil {
					return nil, err
				}
				cs = append(cs, s)
				if ptxasArgs != nil {
					s, err := runChild(cudalink, ptxasArgs(p, n, pOut), pLog)
					if err != nil {
						return nil, err
					}
					ps = append(ps, s)
				}
			} else {
				s, err := runChild(nvlink, linkArgs(p, n, nOut), nLog)
				if err != nil {
					return nil, err
				}
				ns = append(ns, s)
			}
		}
	}
	nst := summarise(ns)
	r.Nvlink = &nst
	if cudalinkOK {
		cst := summarise(cs)
		r.Cudalink = &cst
		log("  cudalink %v (%s), nvlink %v (%s): nvlink / cudalink = %.2f",
			cst.WallMedian.Round(time.Millisecond), mb(cst.RSSMedian),
			nst.WallMedian.Round(time.Millisecond), mb(nst.RSSMedian),
			float64(nst.WallMedian)/float64(cst.WallMedian))
		if len(ps) > 0 {
			pst := summarise(ps)
			r.CudalinkPtxas = &pst
			log("  cudalink with ptxas processes %v (%s)", pst.WallMedian.Round(time.Millisecond), mb(pst.RSSMedian))
		}
	} else {
		log("  nvlink %v (%s); %s", nst.WallMedian.Round(time.Millisecond), mb(nst.RSSMedian), r.CudalinkNote)
	}
	return r, nil
}

// linkInProcess runs a cudalink command line with linker.Run in this
// process, with the given Parallelism (0: GOMAXPROCS).
func linkInProcess(args []string, parallelism int) error {
	cmd, err := cli.Parse(args)
	if err != nil {
		return err
	}
	if cmd.Action != cli.ActionLink {
		return fmt.Errorf("not a link: %q", args)
	}
	var msgs bytes.Buffer
	cfg := cmd.Config
	cfg.Stdout, cfg.Stderr = &msgs, &msgs
	cfg.Parallelism = parallelism
	if err := linker.Run(cfg); err != nil {
		return fmt.Errorf("in-process link: %v\n%s", err, msgs.String())
	}
	return nil
}

func durSamples(ds []time.Duration) []sample {
	ss := make([]sample, len(ds))
	for i, d := range ds {
		ss[i] = sample{Wall: d}
	}
	return ss
}

func parseSizes(s string) ([]int, error) {
	var sizes []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 2 {
			return nil, fmt.Errorf("bad size %q: want numbers of at least 2", f)
		}
		sizes = append(sizes, n)
	}
	return sizes, nil
}

// defaultPTXCompiler is the CUDA 11.8 PTX compiler that scripts/setup.sh
// builds (setup-ptxcompiler.sh), when it is there: the program
// cudalink-ptxc, else the library.
func defaultPTXCompiler() string {
	cache := os.Getenv("CUDALINK_CACHE")
	if cache == "" {
		cache = "/var/cache/cudalink"
	}
	for _, name := range []string{"cudalink-ptxc", "libnvptxcompiler.so"} {
		p := filepath.Join(cache, "cuda-11.8", name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

func defaultCache() string {
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "cudalink-bench")
	}
	return filepath.Join(os.TempDir(), "cudalink-bench")
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

func toolVersion(bin string) string {
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

func hostInfo() string {
	model := ""
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	return fmt.Sprintf("%d CPUs, %s, %s/%s", runtime.NumCPU(), model, runtime.GOOS, runtime.GOARCH)
}

// sourceRevision says which cudalink was measured: the commit of the
// working tree it was built from, "+dirty" when linker/ has uncommitted
// changes; the binary's path when it was given with -cudalink.
func sourceRevision(given string) string {
	if given != "" {
		return given
	}
	rev, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	s := strings.TrimSpace(string(rev))
	if st, err := exec.Command("git", "--no-optional-locks", "status", "--porcelain", "--untracked-files=no", "--", "linker").Output(); err == nil && len(st) > 0 {
		s += "+dirty"
	}
	return s
}

// loadAvg is the first three fields of /proc/loadavg: the machine's load
// over 1, 5 and 15 minutes, which says how much else was running.
func loadAvg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

func mb(b int64) string { return fmt.Sprintf("%.1f MB", float64(b)/(1<<20)) }

// makeNVVMDir makes the -nvvmpath directory of the LTO links: what nvcc
// -dlink -dlto wants and Debian does not lay out (lib64/libnvvm.so,
// libdevice/, and for CUDA 12 lib64/libnvJitLink.so.12, linked to the
// toolkit's), from the toolkit of the nvcc in PATH: NVIDIA's layout beside
// it (../nvvm), or Debian's under its prefix (/usr for 11.8, /opt/cuda-12.x/usr
// for the CUDA 12 toolkits scripts/setup-cuda12.sh unpacks). For CUDA 12
// it also returns the directory of the toolkit's libcudadevrt.a, which
// nvlink 12.x wants beside -dlto objects ("" for 11.8).
func makeNVVMDir(work string) (nvvmDir, devrtDir string, err error) {
	nvcc, err := exec.LookPath("nvcc")
	if err != nil {
		return "", "", err
	}
	base := filepath.Join(filepath.Dir(nvcc), "..", "nvvm")
	prefix := filepath.Join(filepath.Dir(nvcc), "..")
	first := func(paths ...string) string {
		for _, p := range paths {
			if _, err := os.Stat(p); err == nil {
				return p
			}
		}
		return ""
	}
	debianLib := filepath.Join(prefix, "lib", "x86_64-linux-gnu")
	lib := first(filepath.Join(base, "lib64", "libnvvm.so"), filepath.Join(debianLib, "libnvvm.so"))
	libdevice := first(filepath.Join(base, "libdevice"), filepath.Join(prefix, "lib", "nvidia-cuda-toolkit", "libdevice"))
	if lib == "" || libdevice == "" {
		return "", "", fmt.Errorf("the LTO program needs the toolkit's libnvvm.so and libdevice (not beside %s nor at Debian's paths under its prefix); -lto-n none skips it", nvcc)
	}
	dir := filepath.Join(work, "nvvm")
	if err := os.MkdirAll(filepath.Join(dir, "lib64"), 0o755); err != nil {
		return "", "", err
	}
	if err := os.Symlink(lib, filepath.Join(dir, "lib64", "libnvvm.so")); err != nil {
		return "", "", err
	}
	// CUDA 12's -dlto IR is read by nvJitLink, which cudalink looks for in
	// the -nvvmpath directory's lib64 too.
	if jit := first(filepath.Join(prefix, "lib64", "libnvJitLink.so.12"), filepath.Join(debianLib, "libnvJitLink.so.12")); jit != "" {
		if err := os.Symlink(jit, filepath.Join(dir, "lib64", "libnvJitLink.so.12")); err != nil {
			return "", "", err
		}
		devrtDir = filepath.Dir(first(filepath.Join(prefix, "lib64", "libcudadevrt.a"), filepath.Join(debianLib, "libcudadevrt.a")))
	}
	return dir, devrtDir, os.Symlink(libdevice, filepath.Join(dir, "libdevice"))
}
