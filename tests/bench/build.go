package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// A variant is one kind of generated program and the way it is compiled:
// its call-graph shape, the nvcc flags and the nvlink flags that go with
// them.
type variant struct {
	Name       string   // "default", "G" or "chain"
	Chain      bool     // the deep-chain shape (genSource)
	Large      bool     // the large-file shape (genLarge)
	NvccFlags  []string // after -dc -cubin -arch=
	LinkFlags  []string // after -arch=, for both linkers
	CudalinkOK bool     // cudalink links it (every variant today; false only measures nvlink)
	Title      string   // for tables and the plot
	// Code, when not "": each file is an nvcc -fatbin -rdc=true fatbinary
	// with only this code of the target's architecture ("compute" for
	// PTX, "lto" for -dlto IR) instead of a cubin.
	Code string
	// LTO: both linkers get -dlto -nvvmpath=<the toolkit's libnvvm>.
	LTO bool
}

// objectOf is the object nvcc makes of src for the variant.
func (v variant) objectOf(src string) string {
	if v.Code != "" {
		return strings.TrimSuffix(src, ".cu") + ".fatbin"
	}
	return cubinOf(src)
}

// nvccArgs are nvcc's options for one file of the variant, before it.
func (v variant) nvccArgs(arch string) []string {
	if v.Code != "" {
		num := strings.TrimPrefix(arch, "sm_")
		return append([]string{"-fatbin", "-rdc=true", "-gencode", "arch=compute_" + num + ",code=" + v.Code + "_" + num}, v.NvccFlags...)
	}
	return append([]string{"-dc", "-cubin", "-arch=" + arch}, v.NvccFlags...)
}

var (
	variantDefault = variant{Name: "default", CudalinkOK: true, Title: "flat call graph"}
	variantDebug   = variant{Name: "G", NvccFlags: []string{"-G"}, LinkFlags: []string{"-g"}, CudalinkOK: true, Title: "-G objects linked with -g"}
	variantChain   = variant{Name: "chain", Chain: true, CudalinkOK: true, Title: "deep cross-file call chain"}
	variantLarge   = variant{Name: "large", Large: true, CudalinkOK: true, Title: "large files (~100 KB cubins)"}
	// The flat program as PTX only (ptxas compiles every file) and as
	// -dlto IR (libnvvm optimizes it as one program, ptxas compiles that).
	variantPTX = variant{Name: "ptx", Code: "compute", CudalinkOK: true, Title: "flat call graph, PTX only (compiled by ptxas)"}
	variantLTO = variant{Name: "lto", Code: "lto", LTO: true, CudalinkOK: true, Title: "flat call graph, -dlto IR (libnvvm, then ptxas)"}
)

// pool is the cache directory of one (arch, variant): every file of every
// program size lives there once. Files 0..n-2 of an n-file program are
// the shared chain files fNNNN.cu; its last file is fNNNN-last.cu (the
// same file without the call into a next one).
type pool struct {
	dir     string
	arch    string // sm_80
	variant variant
}

func (p *pool) src(i int, last bool) string {
	if last {
		return filepath.Join(p.dir, fileName(i)+"-last.cu")
	}
	return filepath.Join(p.dir, fileName(i)+".cu")
}

func cubinOf(src string) string { return strings.TrimSuffix(src, ".cu") + ".cubin" }

// inputs are the link inputs of the n-file program, in link order.
func (p *pool) inputs(n int) []string {
	in := make([]string, n)
	for i := 0; i < n-1; i++ {
		in[i] = p.variant.objectOf(p.src(i, false))
	}
	in[n-1] = p.variant.objectOf(p.src(n-1, true))
	return in
}

// nvccStamp identifies the compiler and flags a pool was built with; a pool
// built otherwise is emptied first.
func nvccStamp(arch string, v variant) (string, error) {
	out, err := exec.Command("nvcc", "--version").Output()
	if err != nil {
		return "", fmt.Errorf("nvcc --version: %v", err)
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n%s\n%q\n", genVersion, out, arch, v.NvccFlags)
	if v.Code != "" {
		fmt.Fprintf(h, "code %s\n", v.Code) // (not in the stamps of cubin pools)
	}
	if v.Large {
		fmt.Fprintf(h, "large\n")
	} else if !v.Chain {
		fmt.Fprintf(h, "flat\n")
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// buildPool writes the sources of every program size in sizes and compiles
// those whose cubin is missing or older than the source, jobs at a time.
// A cubin is written under a temporary name and renamed, so an interrupted
// build never leaves a truncated one behind; a lock file keeps a second
// build of the same pool waiting.
func buildPool(p *pool, sizes []int, jobs int, log func(string, ...any)) error {
	if err := os.MkdirAll(p.dir, 0o755); err != nil {
		return err
	}
	// One build of a pool at a time: two would compile the same files.
	lock, err := os.OpenFile(filepath.Join(p.dir, "LOCK"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		log("waiting for another build of %s", p.dir)
		if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
			return err
		}
	}
	stamp, err := nvccStamp(p.arch, p.variant)
	if err != nil {
		return err
	}
	stampFile := filepath.Join(p.dir, "STAMP")
	if old, _ := os.ReadFile(stampFile); string(old) != stamp {
		entries, _ := os.ReadDir(p.dir)
		for _, e := range entries {
			if e.Name() != "LOCK" {
				os.Remove(filepath.Join(p.dir, e.Name())) // files only: the pool has no directories
			}
		}
		if err := os.WriteFile(stampFile, []byte(stamp), 0o644); err != nil {
			return err
		}
	}

	maxN := 0
	for _, n := range sizes {
		maxN = max(maxN, n)
	}
	type job struct{ src string }
	var todo []job
	want := func(i int, last bool) error {
		src := p.src(i, last)
		n := maxN + 1 // any n > i+1 gives the same chain file
		if last {
			n = i + 1
		}
		text := []byte(genSource(i, n, p.variant.Chain))
		if p.variant.Large {
			text = []byte(genLarge(i, n))
		}
		if old, err := os.ReadFile(src); err != nil || !bytes.Equal(old, text) {
			if err := os.WriteFile(src, text, 0o644); err != nil {
				return err
			}
		}
		si, err := os.Stat(src)
		if err != nil {
			return err
		}
		if ci, err := os.Stat(p.variant.objectOf(src)); err == nil && !ci.ModTime().Before(si.ModTime()) {
			return nil
		}
		todo = append(todo, job{src})
		return nil
	}
	// Smallest program first, so that a partial build is usable.
	sorted := slices.Clone(sizes)
	slices.Sort(sorted)
	chain := 0 // chain files 0..chain-1 are queued
	for _, n := range sorted {
		for ; chain < n-1; chain++ {
			if err := want(chain, false); err != nil {
				return err
			}
		}
		if err := want(n-1, true); err != nil {
			return err
		}
	}
	// program-N.txt lists the inputs of each program, one per line, for
	// the linker's Go benchmarks (CUDALINK_BENCH_INPUTS, linker/bench_test.go).
	for _, n := range sizes {
		list := strings.Join(p.inputs(n), "\n") + "\n"
		if err := os.WriteFile(filepath.Join(p.dir, fmt.Sprintf("program-%d.txt", n)), []byte(list), 0o644); err != nil {
			return err
		}
	}
	if len(todo) == 0 {
		return nil
	}

	log("building %d of %d sources in %s with nvcc (%d jobs)", len(todo), maxN-1+len(sizes), p.dir, jobs)
	start := time.Now()
	var (
		next, done atomic.Int64
		wg         sync.WaitGroup
		mu         sync.Mutex
		firstErr   error
	)
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := int(next.Add(1) - 1)
				if k >= len(todo) {
					return
				}
				mu.Lock()
				stop := firstErr != nil
				mu.Unlock()
				if stop {
					return
				}
				src := todo[k].src
				tmp := fmt.Sprintf("%s.tmp%d", p.variant.objectOf(src), os.Getpid())
				args := p.variant.nvccArgs(p.arch)
				args = append(args, filepath.Base(src), "-o", filepath.Base(tmp))
				cmd := exec.Command("nvcc", args...)
				cmd.Dir = p.dir
				cmd.Env = toolEnv()
				msg, err := cmd.CombinedOutput()
				if err == nil {
					err = os.Rename(tmp, p.variant.objectOf(src))
				}
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = fmt.Errorf("nvcc %s: %v\n%s", strings.Join(args, " "), err, msg)
					}
					mu.Unlock()
					return
				}
				if d := done.Add(1); d%100 == 0 {
					log("  %d/%d compiled (%v)", d, len(todo), time.Since(start).Round(time.Second))
				}
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	log("  built %d cubins in %v", len(todo), time.Since(start).Round(time.Second))
	return nil
}

// toolEnv is the environment of nvcc and the linkers: the user's, without
// the variables that change what nvcc does, in the C locale.
func toolEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "NVCC_PREPEND_FLAGS", "NVCC_APPEND_FLAGS", "NVCC_CCBIN", "LC_ALL":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "LC_ALL=C")
}
