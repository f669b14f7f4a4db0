package linker

import (
	"bytes"
	"context"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// chooseXptxas takes ptxas's options of -Xptxas as the release's nvlink
// does, before anything compiles PTX. nvlink 11.8 keeps the last -Xptxas
// (split at white space) and warns of each that changed the value before
// it, when it reads its command line; nvlink 12.4 and 12.5 take every
// -Xptxas, split at commas and white space, and warn of none (measured:
// -Xptxas -v -Xptxas -O1 gives 12.x ptxas's -v report and 11.8 the warning
// alone; -Xptxas -v,-O1 is ptxas 11.8's "Unknown option 'v,-O1'"). The
// release is decided only when the two rules differ: several -Xptxas, or
// one with a comma (xptxasList).
func chooseXptxas(ctx *linkContext) {
	cfg := ctx.config
	given := cfg.PtxasOptions
	switch {
	case len(given) == 0:
		return
	case len(given) == 1 && !strings.Contains(given[0], ","):
		cfg.ptxasOptions = strings.Fields(given[0])
		return
	}
	if ctx.xptxasList() {
		cfg.ptxasOptions = nil
		for _, v := range given {
			for _, elem := range strings.Split(v, ",") {
				cfg.ptxasOptions = append(cfg.ptxasOptions, strings.Fields(elem)...)
			}
		}
		return
	}
	cfg.ptxasOptions = strings.Fields(given[len(given)-1])
	d := &ctx.diag
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, name := range cfg.XptxasRedefined {
		// A command-line warning: printed whatever -w and -Werror say,
		// as cudalink's parser prints the others.
		d.print("warning", "incompatible redefinition for option '"+name+"', the last value of this option was used")
	}
}

// xptxasList says whether the link's release takes -Xptxas as a list
// (toolkit.xptxasList). Before the inputs are added, the release is
// --cuda-version's, else the newest an input read was written by, else
// that of the ptxas that compiles the link's PTX (its cubins then tell
// the release to chooseToolkit). The PTX compiler library (--ptx-compiler)
// does not say its release: with it, an input must tell, or
// --cuda-version.
func (ctx *linkContext) xptxasList() bool {
	cfg := ctx.config
	if cfg.CUDAVersion != 0 {
		return toolkitFor(cfg.CUDAVersion).xptxasList
	}
	var v uint32
	if read := ctx.read; read != nil {
		for _, objs := range read.objs {
			v = newestRelease(v, objs)
		}
	}
	if v == 0 && cfg.PTXCompiler == "" {
		if ptxas, err := findPtxas(cfg.Ptxas); err == nil {
			v = ptxasRelease(ptxas)
		}
	}
	return toolkitFor(v).xptxasList
}

// ptxasReleases caches ptxasRelease by path.
var ptxasReleases sync.Map

// ptxasRelease is the release of the ptxas at path as major*10+minor,
// from its --version ("Cuda compilation tools, release 12.4, V12.4.131");
// 0 if that cannot be told.
func ptxasRelease(path string) uint32 {
	if v, ok := ptxasReleases.Load(path); ok {
		return v.(uint32)
	}
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(c, path, "--version").Output()
	var v uint32
	if err == nil {
		v = releaseOf(out)
	}
	ptxasReleases.Store(path, v)
	return v
}

// releaseOf reads "release MM.N" out of a toolkit tool's --version as
// MM*10+N; 0 without one. Parsed by hand: a package-level regular
// expression would be compiled at the start of every link, and regexp's
// initialisation and tables cost flat 10 about 0.3 ms and 290 KiB of
// peak memory (docs/benchmarks.md, the session's summary).
func releaseOf(version []byte) uint32 {
	for rest := version; ; {
		_, after, ok := bytes.Cut(rest, []byte("release "))
		if !ok {
			return 0
		}
		rest = after
		major, minor, ok := bytes.Cut(after, []byte("."))
		if !ok || len(major) == 0 || len(minor) == 0 || !isDigit(minor[0]) || len(minor) > 1 && isDigit(minor[1]) {
			continue
		}
		m, err := strconv.Atoi(string(major))
		if err != nil || m < 0 {
			continue
		}
		return uint32(m*10 + int(minor[0]-'0'))
	}
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
