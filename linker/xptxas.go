package linker

import (
	"bytes"
	"context"
	"io"
	"os"
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
// readRelease's (--cuda-version's, else the newest an input read was
// written by), else that of the compiler of the link's PTX, the PTX compiler
// (--ptx-compiler) or ptxas (its cubins then tell the release to
// chooseToolkit).
func (ctx *linkContext) xptxasList() bool {
	cfg := ctx.config
	v := ctx.readRelease()
	switch {
	case v != 0:
	case cfg.PTXCompiler != "":
		v = ptxCompilerRelease(cfg.PTXCompiler)
	default:
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

// ptxCompilerBanner starts the version text that the PTX compiler library
// holds, ptxas's own ("Cuda compilation tools, release 12.4, V12.4.131"),
// in libnvptxcompiler_static.a and so in cudalink-ptxc and
// libnvptxcompiler.so.
var ptxCompilerBanner = []byte("Cuda compilation tools, release ")

// ptxCompilerRelease is the release of the PTX compiler at path (the
// program cudalink-ptxc or the shared library, --ptx-compiler) as
// major*10+minor, read from the version text the compiler holds, the one
// its ptxas prints; 0 if that cannot be told. The file is read in 1 MiB
// pieces (cudalink-ptxc is 30 MB) until the text is found; it is read
// only for a link whose inputs do not tell their release and that gives
// -Xptxas so that 11.8 and 12.x would differ.
func ptxCompilerRelease(path string) uint32 {
	key := "ptx-compiler:" + path
	if v, ok := ptxasReleases.Load(key); ok {
		return v.(uint32)
	}
	v := scanRelease(path)
	ptxasReleases.Store(key, v)
	return v
}

// scanRelease finds ptxCompilerBanner in the file at path and reads the
// release after it (releaseOf); 0 if it is not there.
func scanRelease(path string) uint32 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	const piece = 1 << 20
	// A banner cut at a piece's end is found whole in the next one,
	// which starts with the previous piece's last keep bytes.
	const keep = 64
	buf := make([]byte, keep+piece)
	have := 0
	for {
		n, err := io.ReadFull(f, buf[have:])
		data := buf[:have+n]
		if i := bytes.Index(data, ptxCompilerBanner); i >= 0 {
			rest := data[i+len(ptxCompilerBanner):]
			if len(rest) < 8 && err == nil {
				// The version may run into the next piece.
				have = copy(buf, data[i:])
				continue
			}
			return releaseOf(data[i+len(ptxCompilerBanner)-len("release "):])
		}
		if err != nil {
			return 0
		}
		have = copy(buf, data[len(data)-keep:])
	}
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
