// Package partial tests cudalink's partial link (-r) over the link-case
// corpus: for every case nvlink linked, the inputs are split, the part is
// linked with cudalink -r, and the relocatable cubin it writes is linked
// with the rest, by the real nvlink (when installed) and by cudalink; the
// result must be the link of the original inputs. See README.md.
package partial

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/cudalink/cudalink/linker/archive"
	"github.com/cudalink/cudalink/linker/cli"
	"github.com/cudalink/cudalink/linker/cubin"
	"github.com/cudalink/cudalink/linker/fatbin"
	"github.com/cudalink/cudalink/linker/hostobj"
	"github.com/cudalink/cudalink/tests/difftest"
	"github.com/cudalink/cudalink/tests/normalize"
)

const corpusDir = "../corpus/cases"

// A toolkit is a CUDA release the corpus is built with and where its tools
// are: 11.8's on PATH, 12.x's in /opt/cuda-<v>/usr/bin.
type toolkit struct {
	version string
	bin     string // "" for PATH
}

// toolkits are the releases the round trips run with: their cases are the
// corpus's cases built with them (difftest.LoadToolkitCases), their final
// links are checked against their own nvlink.
var toolkits = []toolkit{
	{version: difftest.DefaultToolkit},
	{version: "12.4", bin: "/opt/cuda-12.4/usr/bin"},
	{version: "12.5", bin: "/opt/cuda-12.5/usr/bin"},
}

// tool returns the path of the toolkit's tool, "" if it is not installed.
func (tk toolkit) tool(name string) string {
	if tk.bin != "" {
		name = filepath.Join(tk.bin, name)
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return ""
	}
	return path
}

// forToolkits runs test on the corpus's cases for each toolkit: 11.8's at
// the top level (TestRoundTrip/<case>/...), the others' under cuda-<v>/.
func forToolkits(t *testing.T, test func(t *testing.T, tk toolkit, cases []*difftest.Case)) {
	corpus, err := filepath.Abs(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(corpus); os.IsNotExist(err) {
		// As tests/difftest: under Bazel the corpus is not in the sandbox.
		t.Skipf("SKIP: no corpus at %s (generate it with go run ./tests/corpus/regen)", corpusDir)
	}
	for _, tk := range toolkits {
		cases, err := difftest.LoadToolkitCases(corpus, tk.version)
		if err != nil {
			t.Fatal(err)
		}
		if tk.version == difftest.DefaultToolkit {
			test(t, tk, cases)
			continue
		}
		t.Run("cuda-"+tk.version, func(t *testing.T) { test(t, tk, cases) })
	}
}

// split is one way to cut a case's inputs: the inputs the partial link
// takes, and the final link's inputs with "@" where the partial output goes.
type split struct {
	name    string
	partial []string
	final   []string
	// nested, if set, are two groups of inputs partially linked first;
	// partial then links their two outputs ("@1", "@2").
	nested [2][]string
}

// splits returns the splits tried for a case's link inputs (relative to
// dir): all of them partially linked (the output alone goes to the final
// link), the first half, all but the first, and the two halves partially
// linked apart and then together. -L options go to both links; -l libraries
// stay in the final link unless every input is partially linked.
func splits(dir string, inputs []string, sm int) []split {
	var files, libDirs, libs []string
	for _, in := range inputs {
		switch {
		case strings.HasPrefix(in, "-L"):
			libDirs = append(libDirs, in)
		case strings.HasPrefix(in, "-l"):
			libs = append(libs, in)
		default:
			files = append(files, in)
		}
	}
	final := func(before, after []string) []string {
		f := append(slices.Clone(before), "@")
		f = append(f, after...)
		return append(append(f, libDirs...), libs...)
	}
	out := []split{{name: "all", partial: inputs, final: []string{"@"}}}
	if len(files) >= 2 {
		half := (len(files) + 1) / 2
		if half == len(files) {
			half--
		}
		out = append(out,
			split{name: "prefix", partial: append(slices.Clone(files[:half]), libDirs...), final: final(nil, files[half:])},
			split{name: "suffix", partial: append(slices.Clone(files[1:]), libDirs...), final: final(files[:1], nil)},
			split{name: "nested", partial: []string{"@1", "@2"}, final: final(nil, nil),
				nested: [2][]string{append(slices.Clone(files[:half]), libDirs...), append(slices.Clone(files[half:]), libDirs...)}})
	}
	// A partial link of nothing but libcudadevrt (its members join on
	// demand) or of inputs a link skips (text files, host objects without
	// device code for the target) has nothing to link, and -r refuses it:
	// such splits are not tried.
	linksSomething := func(group []string) bool {
		return slices.ContainsFunc(group, func(in string) bool {
			return !strings.HasPrefix(in, "-") && !strings.Contains(filepath.Base(in), "cudadevrt") && deviceInput(filepath.Join(dir, in), sm)
		})
	}
	return slices.DeleteFunc(out, func(sp split) bool {
		if sp.nested[0] != nil {
			return !linksSomething(sp.nested[0]) || !linksSomething(sp.nested[1])
		}
		return !linksSomething(sp.partial)
	})
}

// deviceInput says whether a file is something a link for sm_<sm> takes
// code from: a host object with relocatable code of the target's major
// and a minor not above it, a cubin, an ar archive or a fatbinary (by
// their first bytes; links skip text files).
func deviceInput(path string, sm int) bool {
	b, err := os.ReadFile(path)
	base := filepath.Base(path)
	if err != nil || !strings.Contains(base, ".") || filepath.Ext(base) == ".so" {
		return false // links skip inputs named so
	}
	if !hostobj.IsHostObject(b) && bytes.HasPrefix(b, []byte("\x7fELF")) && filepath.Ext(base) != ".cubin" {
		return false // a cubin is linked only from a file named .cubin
	}
	return deviceData(path, b, sm)
}

// deviceData is deviceInput for a file's contents; an archive holds
// device code when one of its members does.
func deviceData(path string, b []byte, sm int) bool {
	if archive.IsArchive(b) {
		ar, err := archive.Parse(path, b)
		if err != nil {
			return true // the link says what is wrong with it
		}
		return slices.ContainsFunc(ar.Members, func(m archive.Member) bool { return deviceData(path, m.Data, sm) })
	}
	if hostobj.IsHostObject(b) {
		ho, err := hostobj.Parse(path, b)
		if err != nil || len(ho.RelFatbin) == 0 {
			return false
		}
		entries, _ := fatbin.Parse(path, ho.RelFatbin)
		return slices.ContainsFunc(entries, func(e fatbin.Entry) bool {
			return e.Kind == fatbin.KindELF && cubin.ArchCompatible(e.SM, sm)
		})
	}
	return bytes.HasPrefix(b, []byte("\x7fELF")) && len(b) >= 20 && b[18] == 190 && b[19] == 0 && // a cubin (EM_CUDA)
		!(b[16] == 2 && b[17] == 0 && filepath.Ext(path) == ".cubin") || // but an executable .cubin, which links skip
		bytes.HasPrefix(b, []byte{0x50, 0xed, 0x55, 0xba})
}

// ewpInput says whether a file is a host object holding a -ewp image
// (nvcc -c -ewp: ELF type 0xff00 in __nv_relfatbin).
func ewpInput(path string) bool {
	b, err := os.ReadFile(path)
	if err != nil || !hostobj.IsHostObject(b) {
		return false
	}
	ho, err := hostobj.Parse(path, b)
	if err != nil || len(ho.RelFatbin) == 0 {
		return false
	}
	entries, _ := fatbin.Parse(path, ho.RelFatbin)
	return slices.ContainsFunc(entries, func(e fatbin.Entry) bool {
		img, err := e.Data()
		return e.Kind == fatbin.KindELF && err == nil && len(img) >= 18 && img[16] == 0x00 && img[17] == 0xff
	})
}

// archNumber is 80 for "sm_80".
func archNumber(arch string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(arch, "sm_"))
	return n
}

// knownDifferences are the round trips whose result differs from the
// direct link in a known way: the part of the normalized text that may
// differ (a regular expression whose first group is kept), for which
// linkers ("" for both), and why.
var knownDifferences = map[string]knownDifference{
	"template-specialization-overrides-weak/all":                      weakFirst,
	"ptx-input-stack-warning-ignores-werror-sm80/all":                 ptxCompiledInPartial,
	"ptx-file-extrawarn-ignores-werror-sm90/all":                      ptxCompiledInPartialExtrawarn,
	"ptx-input-arch-warning-after-ptx-werror-sm75/suffix":             ptxLeftOutOfPartial,
	"archive-given-twice-linked-once-sm80/suffix":                     archiveAgainInFinal,
	"archive-given-twice-linked-once-sm80/nested":                     archiveAgainInFinal,
	"template-specialization-overrides-weak/nested":                   weakFirst,
	"weak-data-overridden-by-strong/all":                              weakFirst,
	"weak-data-overridden-by-strong/prefix":                           weakFirst,
	"weak-data-overridden-by-strong/nested":                           weakFirst,
	"common-data-with-strong-definitions/all":                         unnamedStorage,
	"common-data-with-strong-definitions/suffix":                      unnamedStorage,
	"common-data-with-strong-definitions/nested":                      unnamedStorage,
	"dynamic-parallelism-sm90-launch/all":                             segmentPad,
	"cooperative-groups-reduce-scan-memcpy-async-objects-sm70/all":    segmentPad,
	"cooperative-groups-reduce-scan-memcpy-async-objects-sm70/prefix": segmentPad,
	"cooperative-groups-reduce-scan-memcpy-async-objects-sm70/nested": segmentPad,
	"cub-block-warp-kernel-templates-objects-sm86/all":                segmentPad,
	"cub-block-warp-kernel-templates-objects-sm86/prefix":             segmentPad,
	"cub-block-warp-kernel-templates-objects-sm86/nested":             segmentPad,
	"libcudacxx-pipeline-barrier-atomic-ref-objects-sm80/all":         segmentPad,
	"libcudacxx-pipeline-barrier-atomic-ref-objects-sm80/prefix":      segmentPad,
	"libcudacxx-pipeline-barrier-atomic-ref-objects-sm80/nested":      segmentPad,
	"libcudacxx-pipeline-barrier-atomic-ref-objects-sm80/suffix":      libcuxxObjectsRealigned,
	"devrt-between-objects-taken-sm61/all":                            segmentPad,
	"devrt-between-objects-taken-sm61/prefix":                         segmentPad,
	"devrt-between-objects-taken-sm61/nested":                         segmentPad,
	"devrt-between-objects-taken-sm61/suffix":                         devrtFirstInPartial,
	"weak-data-uninitialized-before-strong-sm52/all":                  weakFirst,
	"weak-data-uninitialized-before-strong-sm52/prefix":               weakFirst,
	"weak-data-uninitialized-before-strong-sm52/suffix":               weakCopyStorage,
	"weak-data-uninitialized-before-strong-sm52/nested":               weakFirstCopyStorage,
	"weak-data-uninitialized-three-files/suffix":                      weakCopyStorage,
	"cmake-resolved-static-library-skipped-sm80/all":                  prelinkedInPartial,
	"cmake-resolved-static-library-skipped-sm80/prefix":               prelinkedInPartial,
	"cmake-resolved-static-library-skipped-sm80/suffix":               prelinkedInPartial,
	"cmake-resolved-static-library-skipped-sm80/nested":               prelinkedInPartial,
	"cmake-resolved-ptx-library-compiled-werror-sm80/all":             ptxCompiledInPartial,
	"cmake-resolved-ptx-library-compiled-werror-sm80/prefix":          prelinkedInPartial,
	"weak-data-uninitialized-host-objects-sm90/suffix":                weakCopyStorage,

	// the weak template variables g_zero<float> and g_zero<int> (hunt25's
	// cases of a4eaf59, 2565163, 8f54297 and 1fd364b): nvlink's round
	// trip of the suffix keeps the same storage
	"weak-function-lost-constants-overlay-offset-sm61/suffix":         weakCopyStorage,
	"local-helper-removed-copy-keeps-rel-name-sm52/suffix":            weakCopyStorage,
	"local-helper-removed-first-copy-names-order-sm75/suffix":         weakCopyStorage,
	"weak-function-lost-constants-removed-null-zero-sm61/suffix":      weakCopyStorage,
	"weak-function-lost-constants-overlay-offset-objects-sm52/suffix": weakCopyStorage,

	// the dead kernel calling an undefined function: only the host
	// object's list prunes it, and a partial output carries none
	"register-link-binaries-devrt-no-image-dead-call-sm53/all":    hostListLost,
	"register-link-binaries-devrt-no-image-dead-call-sm53/prefix": hostListLost,
	"register-link-binaries-devrt-no-image-dead-call-sm53/suffix": hostListLost,
	"register-link-binaries-devrt-no-image-dead-call-sm53/nested": hostListLost,

	"prog-templates-sm61/all":    undefinedFirst,
	"prog-templates-sm61/nested": undefinedFirst,
	"prog-templates-sm89/all":    undefinedFirst,
	"prog-templates-sm89/nested": undefinedFirst,
	// nvlink's own round trips of these lose the same: see weakFunctionHistory.
	"cuda12-mixed-toolkits-weak-kernel-replaced-first-12x-sm80/all":           weakKernelFirstBank,
	"cuda12-mixed-toolkits-weak-kernel-replaced-first-12x-sm80/nested":        weakKernelFirstBank,
	"cuda12-mixed-toolkits-weak-kernel-replaced-first-118-sm80/all":           weakKernelFirstBank,
	"cuda12-mixed-toolkits-weak-kernel-replaced-first-118-sm80/nested":        weakKernelFirstBank,
	"weak-function-lost-constants-own-section-sm61/all":                       weakFunctionHistory,
	"weak-kernel-lost-copy-bank2-kept-none-callee-objects-sm52/all":           weakFunctionHistory,
	"weak-kernel-lost-copy-bank2-kept-none-callee-objects-sm52/prefix":        weakFunctionHistory,
	"weak-kernel-lost-copy-bank2-kept-none-callee-objects-sm52/nested":        weakFunctionHistory,
	"weak-function-lost-constants-own-section-sm61/prefix":                    weakFunctionHistory,
	"weak-function-lost-constants-own-section-sm61/nested":                    weakFunctionHistory,
	"weak-function-replaced-copy-callees/all":                                 weakFunctionHistory,
	"weak-function-replaced-copy-callees/prefix":                              weakFunctionHistory,
	"weak-function-replaced-copy-callees/nested":                              weakFunctionHistory,
	"weak-kernel-replaced-copy-bank2-align-callee-blocks-objects-sm52/all":    weakFunctionHistory,
	"weak-kernel-replaced-copy-bank2-align-callee-blocks-objects-sm52/nested": weakFunctionHistory,
	"weak-function-replaced-copy-constants-sm52/all":                          weakFunctionHistory,
	"weak-function-replaced-copy-constants-sm52/prefix":                       weakFunctionHistory,
	"weak-function-replaced-copy-constants-sm52/nested":                       weakFunctionHistory,
	// 7ba29dce's cases: the 11.8 loser's missing flag (all, prefix, nested)
	// and the losers' order (suffix) are history the partial output drops
	"cuda12-mixed-toolkits-weak-kernel-lost-copy-bank2-kept-none-118-loser-objects-sm52/all":          weakFunctionHistory,
	"cuda12-mixed-toolkits-weak-kernel-lost-copy-bank2-kept-none-118-loser-objects-sm52/prefix":       weakFunctionHistory,
	"cuda12-mixed-toolkits-weak-kernel-lost-copy-bank2-kept-none-118-loser-objects-sm52/nested":       weakFunctionHistory,
	"cuda12-mixed-toolkits-weak-kernel-lost-copy-bank2-kept-none-12x-loser-first-objects-sm52/suffix": weakFunctionHistory,
	// b.cu's divmix<double> copy lost when met: the direct 12.x link keeps
	// its constants in a .nv.constant2 of the function's own
	"weak-data-lost-initialized-section-named-after-section-symbols-sm52/all":    weakFunctionHistory12x,
	"weak-data-lost-initialized-section-named-after-section-symbols-sm52/nested": weakFunctionHistory12x,
	// the -G copies of the virtual destructors, replaced by the second
	// file's, leave their calls (Shape's D2 kept) and address references
	"vtable-G-copy-replaced-keeps-address-refs-sm60/all":            weakFunctionHistory,
	"vtable-G-copy-replaced-keeps-address-refs-sm60/nested":         weakFunctionHistory,
	"vtable-G-copy-replaced-keeps-address-refs-objects-sm61/all":    weakFunctionHistory,
	"vtable-G-copy-replaced-keeps-address-refs-objects-sm61/nested": weakFunctionHistory,
	// A replaced copy's call edges and undefined callees (hunt14).
	"weak-function-replaced-duplicate-call-edges/all":                 weakFunctionHistory,
	"weak-function-replaced-duplicate-call-edges/nested":              weakFunctionHistory,
	"weak-function-replaced-duplicate-call-edges-objects-sm61/all":    weakFunctionHistory,
	"weak-function-replaced-duplicate-call-edges-objects-sm61/prefix": weakFunctionHistory,
	"weak-function-replaced-duplicate-call-edges-objects-sm61/suffix": weakFunctionHistory,
	"weak-function-replaced-duplicate-call-edges-objects-sm61/nested": weakFunctionHistory,
	"weak-function-replaced-copy-externs/all":                         weakFunctionHistory,
	"weak-function-replaced-copy-externs/nested":                      weakFunctionHistory,
	"weak-function-replaced-copy-externs-objects-sm70/all":            weakFunctionHistory,
	"weak-function-replaced-copy-externs-objects-sm70/nested":         weakFunctionHistory,
	// hunt57: a first copy from compute_61 PTX loses to the second
	// file's sm_75 copy and the third's wins after it; a partial output
	// holds one copy, so the final link meets no such history (11.8,
	// 12.4, 12.5).
	"weak-function-ptx-copy-first-later-copies-win-sm75/all":    weakFunctionHistory,
	"weak-function-ptx-copy-first-later-copies-win-sm75/prefix": weakFunctionHistory,
	"weak-function-ptx-copy-first-later-copies-win-sm75/suffix": weakFunctionHistory,
	"weak-function-ptx-copy-first-later-copies-win-sm75/nested": weakFunctionHistory,
	// hunt29: the -G light copy of smooth replaces the heavy copy met
	// first; a later heavy copy loses (11.8, 12.4, 12.5).
	"weak-light-copy-replaces-heavy-bank2-overlay-order-G-sm52/all":    weakFunctionHistory,
	"weak-light-copy-replaces-heavy-bank2-overlay-order-G-sm52/prefix": weakFunctionHistory,
	"weak-light-copy-replaces-heavy-bank2-overlay-order-G-sm52/suffix": weakFunctionHistory,
	"weak-light-copy-replaces-heavy-bank2-overlay-order-G-sm52/nested": weakFunctionHistory,
	"weak-light-copy-replaces-heavy-bank2-overlay-order-G-sm35/all":    weakFunctionHistory,
	"weak-light-copy-replaces-heavy-bank2-overlay-order-G-sm35/prefix": weakFunctionHistory,
	"weak-light-copy-replaces-heavy-bank2-overlay-order-G-sm35/suffix": weakFunctionHistory,
	"weak-light-copy-replaces-heavy-bank2-overlay-order-G-sm35/nested": weakFunctionHistory,
	// hunt62: a first copy with constants replaced by a lighter one
	// without (the kernels' bank-2 sections made in the order of
	// nvlink's list of functions), and one with 8-byte aligned constants
	// replaced by a -G copy whose constants take that alignment: a
	// partial output holds only the kept copies.
	"bank2-kernel-sections-order-replaced-weak-function-place-sm61/all":    weakFunctionHistory,
	"bank2-kernel-sections-order-replaced-weak-function-place-sm61/prefix": weakFunctionHistory,
	"bank2-kernel-sections-order-replaced-weak-function-place-sm61/nested": weakFunctionHistory,
	"weak-function-replacing-constants-take-emptied-alignment-sm61/all":    weakFunctionHistory,
	"weak-function-replacing-constants-take-emptied-alignment-sm61/nested": weakFunctionHistory,
	// hunt63: a file's local __cuda_sm20_* helper met before the weak
	// copies of its name takes a losing copy's constants, or loses its own
	// when a copy is replaced; a partial output without the local's file,
	// or with the copies already resolved, leaves the history out.
	"weak-helper-lost-copy-constants-appended-to-earlier-local-sm61/suffix": weakFunctionHistory,
	"weak-helper-replaced-copy-empties-earlier-local-constants-sm52/all":    weakFunctionHistory,
	"weak-helper-replaced-copy-empties-earlier-local-constants-sm52/suffix": weakFunctionHistory,
	"weak-helper-replaced-copy-empties-earlier-local-constants-sm52/nested": weakFunctionHistory,
	// hunt63: the emptied constants of a replaced first copy align the
	// banks of the kernels reaching the function.
	"weak-function-replaced-constants-emptied-alignment-kept-in-banks-sm61/all":    weakFunctionHistory,
	"weak-function-replaced-constants-emptied-alignment-kept-in-banks-sm61/prefix": weakFunctionHistory,
	"weak-function-replaced-constants-emptied-alignment-kept-in-banks-sm61/suffix": weakFunctionHistory,
	"weak-function-replaced-constants-emptied-alignment-kept-in-banks-sm61/nested": weakFunctionHistory,
	// hunt65: emptied constants placed past a kernel's own constants
	// still end its bank (12.x); a removed local helper's .rel.text name
	// goes when the kept weak helper of its name has none (12.x); a losing
	// copy's constants emptied with the first copy's section, whose
	// alignment the replacing copy's take (11.8), or with the function's
	// own (12.x: its name goes, and a later kept copy's constants, apart
	// from it, stay the function's).
	"weak-function-emptied-constants-extend-other-kernels-banks-sm61/all":             weakFunctionHistory,
	"weak-function-emptied-constants-extend-other-kernels-banks-sm61/prefix":          weakFunctionHistory,
	"weak-function-emptied-constants-extend-other-kernels-banks-sm61/suffix":          weakFunctionHistory,
	"weak-function-emptied-constants-extend-other-kernels-banks-sm61/nested":          weakFunctionHistory,
	"local-helper-removed-rel-name-dropped-kept-weak-copy-without-relocs-sm52/all":    weakFunctionHistory,
	"local-helper-removed-rel-name-dropped-kept-weak-copy-without-relocs-sm52/nested": weakFunctionHistory,
	"weak-function-lost-copy-constants-emptied-by-replacement-sm61/all":               weakFunctionHistory,
	"weak-function-lost-copy-constants-emptied-by-replacement-sm61/nested":            weakFunctionHistory,
	"weak-function-lost-copy-constants-emptied-by-replacement-sm61/suffix":            weakFunctionHistory118,
	"weak-function-lost-copy-constants-emptied-by-replacement-sm61/prefix":            weakFunctionHistory12x,
	"weak-function-replaced-copy-constants-kept-after-lost-copy-section-sm61/all":     weakFunctionHistory,
	"weak-function-replaced-copy-constants-kept-after-lost-copy-section-sm61/prefix":  weakFunctionHistory,
	"weak-function-replaced-copy-constants-kept-after-lost-copy-section-sm61/suffix":  weakFunctionHistory,
	"weak-function-replaced-copy-constants-kept-after-lost-copy-section-sm61/nested":  weakFunctionHistory,
	"weak-function-lost-copy-section-emptied-after-second-kept-copy-sm61/all":         weakFunctionHistory,
	"weak-function-lost-copy-section-emptied-after-second-kept-copy-sm61/prefix":      weakFunctionHistory,
	"weak-function-lost-copy-section-emptied-after-second-kept-copy-sm61/suffix":      weakFunctionHistory,
	"weak-function-lost-copy-section-emptied-after-second-kept-copy-sm61/nested":      weakFunctionHistory,
	"constant-bank3-folded-variable-past-64k-kernels-used-sm80/all":                   constantsUnfolded,
	"constant-bank3-folded-variable-past-64k-kernels-used-sm80/prefix":                constantsUnfolded,
	"constant-bank3-folded-variable-past-64k-kernels-used-sm80/suffix":                constantsUnfolded,
	"constant-bank3-folded-variable-past-64k-kernels-used-sm80/nested":                constantsUnfolded,
	"constant-bank3-limit-after-remerge-kernels-used-sm80/all":                        constantsUnfolded,
	"constant-bank3-limit-after-remerge-kernels-used-sm80/prefix":                     constantsUnfolded,
	"constant-bank3-limit-after-remerge-kernels-used-sm80/suffix":                     constantsUnfolded,
	"constant-bank3-limit-after-remerge-kernels-used-sm80/nested":                     constantsUnfolded,
	// hunt68: weak copies replaced one after another keep their first
	// file's order; a partial output holds only the kept copies. 12.x:
	// the losing copy's constants make the function's own section, which
	// no kernel's bank takes in the direct link, every kernel reaching it
	// in the final link (nvlink's through the same output is compared).
	"weak-functions-replaced-together-keep-first-file-order-sm60/all":     weakFunctionHistory,
	"weak-functions-replaced-together-keep-first-file-order-sm60/nested":  weakFunctionHistory,
	"weak-function-lost-copy-constants-raise-block-alignment-sm52/all":    weakFunctionHistory12x,
	"weak-function-lost-copy-constants-raise-block-alignment-sm52/nested": weakFunctionHistory12x,
	// A local helper's constants emptied by the replacement of a weak
	// copy of its name without constants: a partial output holds the
	// resolved copies only.
	"weak-helper-bare-copy-replaced-empties-later-local-constants-sm61/all":    weakFunctionHistory,
	"weak-helper-bare-copy-replaced-empties-later-local-constants-sm61/prefix": weakFunctionHistory,
	"weak-helper-bare-copy-replaced-empties-later-local-constants-sm61/suffix": weakFunctionHistory,
	"weak-helper-bare-copy-replaced-empties-later-local-constants-sm61/nested": weakFunctionHistory,
	// A weak copy with constants replaced by one without: the kernel
	// reaching only the emptied section gets a bank of zeros in the
	// direct link; the partial output holds the replacing copy alone.
	"weak-function-emptied-constants-placed-past-zero-write-kernel-bank-sm61/all":    weakFunctionHistory,
	"weak-function-emptied-constants-placed-past-zero-write-kernel-bank-sm61/nested": weakFunctionHistory,
	// nvlink's own round trips of these differ the same way: see
	// constantsRealigned and constantsRemerged.
	"constant-remerge-block-sizes-sm80/suffix":                                  constantsRealigned,
	"constant-remerge-scalars-sm61/all":                                         constantsRemerged,
	"constant-remerge-scalars-sm61/prefix":                                      constantsRemerged,
	"constant-remerge-scalars-sm61/suffix":                                      constantsRemerged,
	"constant-remerge-scalars-sm61/nested":                                      constantsRemerged,
	"constant-remerge-pointer-table-relocation-inside-shorter-bank-sm80/all":    constantsRemerged,
	"constant-remerge-pointer-table-relocation-inside-shorter-bank-sm80/prefix": constantsRemerged,
	"constant-remerge-pointer-table-relocation-inside-shorter-bank-sm80/suffix": constantsRemerged,
	"constant-remerge-pointer-table-relocation-inside-shorter-bank-sm80/nested": constantsRemerged,
	// 12.x: the host objects' lists that prune kp, and so leave its pad
	// out of the rebuild of bank 3, are not in the partial output.
	"cuda12-constant-bank3-rebuild-host-objects-sm80/all":    bank3HostListLost,
	"cuda12-constant-bank3-rebuild-host-objects-sm80/prefix": bank3HostListLost,
	"cuda12-constant-bank3-rebuild-host-objects-sm80/suffix": bank3HostListLost,
	"cuda12-constant-bank3-rebuild-host-objects-sm80/nested": bank3HostListLost,
	// The same: the null symbol's value, which the .debug_loc fields
	// naming labels ptxas left undefined take (fillDanglingLabels).
	"debug-G-dangling-label-null-symbol-kernels-used-sm61/all":    constantsRemerged,
	"debug-G-dangling-label-null-symbol-kernels-used-sm61/nested": constantsRemerged,
}

// hostPruned are the cases whose direct link removes a kernel because
// the host objects' kernel reference lists do not name it. A partial
// output is a cubin, which carries no such lists (docs/partial.md), so
// their round trips are compared with a direct link that ignores them
// (-ignore-host-info), by each linker.
var hostPruned = map[string]bool{
	"dynamic-parallelism-sm90-launch": true, // unused_kernel: nothing launches it, the host does not name it
	// k_tail: only k_root's code takes its address, and the host's list
	// keeps k_root alone, which makes k_tail an ordinary function
	"kernel-address-taken-one-host-kernel-demoted-sm80": true,
	"overloads-templates-host-launch":                   true, // k_unlaunched: the host code of a.o never launches it
	// quiet: only launcher.o's list (sm_70 code only) names a kernel (idle)
	"host-refs-of-object-without-target-image-sm86": true,
	// never_launched: k.o's list does not name it; the ELF files next to
	// it that nvlink skips do not turn pruning off
	"foreign-machine-exec-object-skipped": true,
	"inputs-without-extension-skipped":    true,
	"executable-cubin-skipped-sm80":       true, // neverLaunched, beside a skipped executable cubin
	// unlaunched: the host code of the first object never launches it
	"constant-data-pruned-null-symbol":   true,
	"texture-constant-host-pruned-names": true,
	// the kernels no archive member's host code launches
	"host-refs-archive-member-prunes":               true,
	"host-refs-archive-member-internal-kernel-sm61": true,
	"host-refs-archive-first-prunes-sm90":           true,
	// not_launched: -G objects whose host code launches only the other kernel
	"debug-G-pruned-kernel-shared":              true,
	"debug-G-pruned-kernel-shared-sm90":         true,
	"debug-G-pruned-kernel-shared-archive-sm75": true,
	// the host objects' lists prune, so the direct link merges bank 3 a
	// second time; without them neither link does
	"constant-remerge-block-sizes-sm80":            true,
	"constant-remerge-fold-header-table-sm52":      true,
	"constant-remerge-fold-uninit-sm75":            true,
	"constant-remerge-header-weights-archive-sm70": true,
	"constant-remerge-pointer-tables-sm89":         true,
}

type knownDifference struct {
	linker string
	mask   *regexp.Regexp
	why    string
	// asNvlink: the round trip loses what nvlink's own round trip of the
	// same split loses, in more places than a mask can name (code,
	// whole sections). Instead of the direct link, cudalink's result
	// through -r must equal nvlink's through the same partial output,
	// and nvlink's must differ from its direct link (else the entry is
	// stale). Without nvlink the round trip is not compared.
	asNvlink bool
	// releases: the CUDA releases (space-separated) whose round trip
	// differs; "" for all of them. Elsewhere the round trip is exact.
	releases string
	// finalFails: the final link through the partial output fails where
	// the direct link succeeds, and nvlink's final link of the same
	// partial output fails with the same exit status and message. Both
	// are checked instead of the round trip.
	finalFails string
	// partialFails: the partial link itself fails, with this message, as
	// a direct link of its inputs alone fails (checked instead of the
	// round trip).
	partialFails string
}

// ptxCompiledInPartial: under -Werror, a link that compiles PTX keeps
// "Stack size ... cannot be statically determined" a warning (nvlink
// 11.8, 12.4, 12.5). When every input goes through -r, the partial link
// compiles the PTX and the final link compiles none, so there the
// warning is an error, for nvlink as for cudalink.
var ptxCompiledInPartial = knownDifference{
	why:        "the PTX is compiled by the partial link, so the final link's -Werror makes the stack-size warning an error",
	finalFails: "Stack size for entry function",
}

// ptxCompiledInPartialExtrawarn: the same for -extrawarn's "Function ...
// has address taken but no calls to it found" (a .ptx input).
var ptxCompiledInPartialExtrawarn = knownDifference{
	why:        "the PTX is compiled by the partial link, so the final link's -Werror makes the -extrawarn warnings errors",
	finalFails: "has address taken but no calls to it found",
}

// ptxLeftOutOfPartial: under -Werror, "SM Arch not found" for an input
// read after nvlink compiled PTX stays a warning. A partial link of the
// inputs after the PTX input compiles none, so it fails there, as a
// direct link of those inputs alone does (nvlink 11.8, 12.4, 12.5).
// archiveAgainInFinal: an archive given again by another path (./libb.a
// after -lb) is linked once by a direct link; split, the partial link
// holds the members of one copy and the final link takes the other, so
// both define them: nvlink's final link of the same partial output fails
// with the same duplicate definition.
var archiveAgainInFinal = knownDifference{
	why:        "the partial output holds an archive's members that the final link also takes from the same archive (-lb)",
	finalFails: "_Z4pongi",
}

// devrtFirstInPartial: libcudadevrt given by path between two objects
// is taken where it comes when the first leaves a name undefined; a
// partial link of it and the inputs after it meets it first, skips it,
// and stops at the next object, as a direct link of those inputs alone
// does (nvlink 11.8, 12.4, 12.5).
var devrtFirstInPartial = knownDifference{
	why:          "libcudadevrt comes first among the partial link's inputs, so the object after it is refused",
	partialFails: "unexpected object after cudadevrt",
}

// constantsUnfolded: the direct link's second merge of bank 3 folds a
// repeated block onto an earlier input's and so fits the 64 KiB limit; a
// partial output's bank 3 is one section, which that merge never folds,
// so the final link through it is over the limit, as nvlink's final link
// of the same output is.
var constantsUnfolded = knownDifference{
	why:        "the second merge of bank 3 folds whole input sections, and a partial output has one: unfolded, the bank passes 64 KiB",
	finalFails: "File uses too much global constant data",
}

// hostListLost: a kernel that calls a function no input defines is left
// out of the direct link by the host object's kernel reference list
// alone. A partial output carries no such list (docs/partial.md), so the
// final link keeps the kernel and its undefined call fails it, as
// nvlink's final link of the same partial output fails.
var hostListLost = knownDifference{
	why:        "the host object's list that prunes the kernel with the undefined call is not in the partial output",
	finalFails: "_Z7missingi",
}

var bank3HostListLost = knownDifference{
	why:        "the host objects' lists that prune kp, whose pad 12.x's rebuild of bank 3 then leaves out, are not in the partial output",
	finalFails: "File uses too much global constant data (0x10130 bytes, 0x10000 max)",
}

// prelinkedInPartial: with --register-link-binaries a link skips the
// objects an nvcc -dlink input lists as linked already (docs/dlink.md); a
// partial link takes no --register-link-binaries, so it links them, and
// the final link keeps their code, for nvlink as for cudalink.
var prelinkedInPartial = knownDifference{
	why:      "the partial link, without --register-link-binaries, links the objects the nvcc -dlink output lists, which the direct link skips",
	asNvlink: true,
}

var ptxLeftOutOfPartial = knownDifference{
	why:          "the PTX input is left to the final link, so -Werror makes the partial link's 'SM Arch not found' an error",
	partialFails: "not found in 'legacy.o'",
}

var (
	// A weak definition is overridden by a strong one among the partial
	// link's inputs. nvlink (and cudalink, which follows it) keeps a name
	// first seen weak among the locals of .symtab; in the partial output
	// the name is only the strong definition, so it lands among the
	// globals: .symtab's sh_info is one less. The symbols are the same.
	weakFirst = knownDifference{
		mask: regexp.MustCompile(`(?m)^(section \.symtab .*) info=\d+$`),
		why:  "a name first seen weak sits among the locals of a direct link's .symtab",
	}
	// The reverse: a name first met undefined (an extern template
	// declared in one file) and defined weak in a later one (nvcc makes
	// explicit template instantiations weak) sits among the globals of a
	// direct link's .symtab; in the partial output the name is only the
	// weak definition, so it lands among the locals: .symtab's sh_info
	// grows by one per such name, with nvlink as with cudalink.
	undefinedFirst = knownDifference{
		mask: regexp.MustCompile(`(?m)^(section \.symtab .*) info=\d+$`),
		why:  "a name first seen undefined, then defined weak, sits among the globals of a direct link's .symtab",
	}
	// A strong uninitialized definition after a common of the same size
	// leaves the common in charge, and its own storage stays in .nv.global,
	// unused. In the partial output no symbol names that storage, and
	// nvlink drops .nv.global storage that no symbol names: the commons it
	// allocates after the inputs' .nv.global move down by its size.
	// cudalink keeps the storage (its round trip is exact).
	unnamedStorage = knownDifference{
		linker: "nvlink",
		mask: regexp.MustCompile(`(?m)^(phdr 2 .*memsz=filesz)\+0x[0-9a-f]+.*$|` +
			`^(section \.nv\.global type=NOBITS .*) size=0x[0-9a-f]+.*$|^(symbol [acz]data .*) value=0x[0-9a-f]+.*$`),
		why: "nvlink drops .nv.global storage no symbol names",
	}
)

var (
	// A partial output's bank 3 is one section at the largest alignment of
	// its parts (8: wts_a's doubles), so in the final link it starts at an
	// 8-byte boundary after the first file's 12 bytes, where the direct
	// link placed lut_b at 0xc: every later __constant__ variable moves by
	// 4, in the code too.
	constantsRealigned = knownDifference{
		asNvlink: true,
		why:      "a partial output's bank 3 is one section at its parts' largest alignment",
	}
	// -kernels-used makes the final link merge bank 3 a second time,
	// folding whole input sections (linker/remerge.go); through -r the
	// partial output's bank 3 is one section of another size, which that
	// merge neither folds nor counts, so the bank keeps every copy and the
	// null symbol another offset.
	constantsRemerged = knownDifference{
		asNvlink: true,
		why:      "the second merge of bank 3 folds whole input sections, and a partial output has one",
	}
)

// .nv.global storage moved by weak copies a partial link cannot see lose:
// nvlink (and cudalink) drops the .nv.global of an input whose every
// symbol is a weak copy that lost when met, but a partial link of the
// later inputs alone meets its copies first and keeps them, and a merged
// .nv.global is one contribution with the largest alignment of its
// parts, so the data after it moves. The read-write segment is the
// third program header, or the second in a 12.x output without code.
var (
	storagePatterns = `^(phdr \d+ type=LOAD flags=RW .*memsz=filesz)\+0x[0-9a-f]+.*$|` +
		`^(section \.nv\.global type=NOBITS .*) size=0x[0-9a-f]+.*$|^(symbol .* sec=\.nv\.global) value=0x[0-9a-f]+.*$`
	weakCopyStorage = knownDifference{
		mask: regexp.MustCompile(`(?m)` + storagePatterns),
		why:  "a partial link keeps the storage of weak copies an earlier input's definition makes lose",
	}
	weakFirstCopyStorage = knownDifference{
		mask: regexp.MustCompile(`(?m)` + storagePatterns + `|^(section \.symtab .*) info=\d+$`),
		why:  weakFirst.why + "; " + weakCopyStorage.why,
	}
)

// weakFunctionHistory: a direct link resolves weak copies of a function
// with a history a partial output no longer carries. A copy met first and
// replaced later by a lighter one leaves its calls (and the callee they
// keep, with its registers) with the symbol; when the first copy met had
// no bank-2 constants, the losers' constants go to a .nv.constant2.<f> of
// the function's own, else they are folded into the kernels' banks. The
// partial link resolves the copies it holds, and the final link meets
// only the winner: nvlink 11.8's round trip of these splits differs from
// its direct link (callees, register counts, bank-2 sections, code
// offsets into bank 2), and cudalink's must be the same as nvlink's.
var weakFunctionHistory = knownDifference{
	asNvlink: true,
	why:      "weak function copies resolved by a partial link lose the order the direct link met them in",
}

// weakFunctionHistory118 and weakFunctionHistory12x are
// weakFunctionHistory for the splits whose round trip differs in one
// release's link only (where a partial output holds other copies).
var (
	weakFunctionHistory118 = knownDifference{asNvlink: true, releases: "11.8", why: weakFunctionHistory.why}
	weakFunctionHistory12x = knownDifference{asNvlink: true, releases: "12.4 12.5", why: weakFunctionHistory.why}
)

// weakKernelFirstBank: a weak kernel whose first copy a later one replaced
// keeps its first copy's SHF_INFO_LINK on .nv.constant0 (nvlink 12.x, where
// an 11.8 copy has none); a partial link holding both copies keeps only
// the replacing one, and the final link takes its flag, through nvlink as
// through cudalink.
var weakKernelFirstBank = knownDifference{
	asNvlink: true,
	why:      "a weak kernel copy replaced inside the partial link no longer gives the output its parameter bank's flags",
}

// segmentPad: with every input, libcudadevrt included, in the partial
// output, both nvlink and cudalink end the read-write segment's memory
// 4 bytes earlier than the direct link; every section and symbol is the
// same. (Seen on dynamic-parallelism-sm90-launch; the cause is not
// established.)
var segmentPad = knownDifference{
	mask: regexp.MustCompile(`(?m)^(phdr 2 .*memsz=filesz)\+0x[0-9a-f]+.*$`),
	why:  "the read-write segment's memory size after a partial link of everything, libcudadevrt included",
}

// libcuxxObjectsRealigned: libcu++ 2.x (12.4, 12.5) gives each file
// 1-byte file-local objects in .nv.global (its customization point
// objects), so barrier.o's .nv.global has alignment 1 and follows pipe.o's
// 7 (12.4) or 9 (12.5) bytes directly, while the partial output's
// .nv.global is one contribution at the largest alignment of its parts (4:
// atomics.o's ticket) and starts at the next multiple of 4: every object
// after pipe.o's moves, and the section grows. nvlink's final link of the
// same partial output does the same, byte for byte as cudalink's; nvlink
// has no partial link of its own to compare with (its -r is
// --host-relocatable-link, a full link: docs/partial.md). libcu++ 1.8
// (11.8) gives these files no such objects: nothing moves.
var libcuxxObjectsRealigned = knownDifference{
	asNvlink: true,
	releases: "12.4 12.5",
	why:      "a partial output's .nv.global, libcu++'s 1-byte objects included, is one contribution at its parts' largest alignment",
}

// partialTempDir makes a temporary directory for a partial output. nvlink
// (and cudalink) takes any input whose path contains "cudadevrt" for
// libcudadevrt, linked only on demand: unlike t.TempDir(), the directory is
// not named after the test, hence not after the case.
func partialTempDir(t *testing.T) string {
	t.Helper()
	tmp, err := os.MkdirTemp("", "partial")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	return tmp
}

// runCudalink runs cudalink in-process in dir (difftest.InDir: one link
// at a time, while the round trips' other work runs in parallel); a panic
// fails the test.
func runCudalink(t *testing.T, dir string, args []string) (status int, msgs string) {
	t.Helper()
	if err := difftest.InDir(dir, func() { status, msgs = runCudalinkHere(t, args) }); err != nil {
		t.Fatal(err)
	}
	return status, msgs
}

// runCudalinkHere runs cudalink in-process in the working directory.
func runCudalinkHere(t *testing.T, args []string) (int, string) {
	t.Helper()
	var out bytes.Buffer
	status := func() (status int) {
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("cudalink %s panicked: %v", strings.Join(args, " "), r)
				status = -1
			}
		}()
		return cli.Run(args, &out, &out)
	}()
	if status == 3 { // a panic, reported by linker/cli as an internal error
		t.Errorf("cudalink %s panicked: %s", strings.Join(args, " "), out.String())
	}
	return status, out.String()
}

// runToolkitCudalink runs cudalink on a case built with tk: a 12.x case's
// PTX is compiled by that release's ptxas, as the differential test does.
func runToolkitCudalink(t *testing.T, tk toolkit, dir string, args []string) (int, string) {
	t.Helper()
	if tk.bin != "" {
		if ptxas := tk.tool("ptxas"); ptxas != "" {
			args = append([]string{"--ptxas=" + ptxas}, args...)
		}
	}
	return runCudalink(t, dir, args)
}

// nvlinkFinal runs tk's nvlink on a final link's arguments in dir,
// writing out in place of the last argument (cudalink's output): its exit
// status and messages; ok is false without an nvlink to run.
func nvlinkFinal(tk toolkit, dir string, args []string, out string) (status int, msgs []byte, ok bool) {
	nvlink := tk.tool("nvlink")
	if nvlink == "" {
		return 0, nil, false
	}
	args = slices.Clone(args)
	args[len(args)-1] = out
	cmd := exec.Command(nvlink, args...)
	cmd.Dir = dir
	msgs, err := cmd.CombinedOutput()
	if cmd.ProcessState == nil { // it did not start
		return -1, []byte(err.Error()), true
	}
	return cmd.ProcessState.ExitCode(), msgs, true
}

// finalOnly are the case flags only a final link takes (-r refuses them):
// those that remove code or print the final call graph.
var finalOnly = []string{"kernels-used", "variables-used", "dump-callgraph", "dump-callgraph-no-demangle"}

// perInputFlag returns the flag among flags that -r refuses because the
// final link it asks for keeps per-input records ("" if none).
func perInputFlag(flags []string) string {
	for _, f := range flags {
		switch strings.TrimLeft(f, "-") {
		case "g", "debug":
			return "-g"
		case "preserve-relocs":
			return "-preserve-relocs"
		}
		if strings.HasPrefix(strings.TrimLeft(f, "-"), "register-link-binaries") {
			// The final link's module list (error-ld-r-dlink-output-with-objects-sm80).
			return "--register-link-binaries"
		}
	}
	return ""
}

// partialFlags are the case's flags a partial link takes.
func partialFlags(flags []string) []string {
	var out []string
	for i := 0; i < len(flags); i++ {
		name, _, hasValue := strings.Cut(strings.TrimLeft(flags[i], "-"), "=")
		switch {
		case !slices.Contains(finalOnly, name):
			out = append(out, flags[i])
		case !hasValue && !strings.HasPrefix(name, "dump-callgraph"):
			i++ // and its value
		}
	}
	return out
}

// substitute replaces the placeholder mark in list by path.
func substitute(list []string, mark, path string) []string {
	out := slices.Clone(list)
	for i, s := range out {
		if s == mark {
			out[i] = path
		}
	}
	return out
}

// TestRoundTrip partially links a split of every case nvlink linked and
// checks that linking the partial output with the rest gives the direct
// link's result: with nvlink against expected.cubin (nvlink's direct
// link), with cudalink against cudalink's direct link. Outputs must be
// equal under tests/normalize; how many are byte-identical is logged.
func TestRoundTrip(t *testing.T) {
	if *updateValidated {
		t.Cleanup(func() { writeReadable(t) })
	}
	forToolkits(t, roundTrips)
}

// roundTrips runs the round trips of the cases built with one toolkit.
func roundTrips(t *testing.T, tk toolkit, cases []*difftest.Case) {
	nvlink := tk.tool("nvlink")
	if nvlink == "" {
		t.Logf("nvlink %s is not installed: the round trips through nvlink are skipped; those through cudalink still run", tk.version)
	}
	// The round trips run in parallel (cudalink's links one at a time,
	// runCudalink); mu guards their counts.
	var mu sync.Mutex
	var tried, nvSame, nvBytes, cuSame, cuBytes, listed int
	triedBySplit, bytesBySplit := map[string]int{}, map[string]int{}
	for _, c := range cases {
		if c.Expect != "ok" || c.Differs || c.LTO() || c.Virtual() { // a virtual target links nothing
			continue
		}
		nfiles := 0
		for _, in := range c.Inputs {
			if !strings.HasPrefix(in, "-") {
				nfiles++
			}
		}
		if nfiles < 2 {
			continue
		}
		if flag := perInputFlag(c.Flags); flag != "" {
			// -g and -preserve-relocs keep per-input records (a
			// placeholder function per file) that a partial output
			// would merge: -r refuses them, which is what is checked.
			t.Run(c.Name+"/refused", func(t *testing.T) {
				args := append([]string{"-arch=" + c.Arch, "-r"}, partialFlags(c.Flags)...)
				args = append(append(args, c.Inputs...), "-o", filepath.Join(t.TempDir(), "partial.cubin"))
				status, msgs := runToolkitCudalink(t, tk, c.Dir, args)
				if status != 1 || !strings.Contains(msgs, flag+" keeps per-input records") {
					t.Errorf("cudalink %s: exit %d, want 1 with the %s refusal\n%s", strings.Join(args, " "), status, flag, msgs)
				}
			})
			continue
		}
		if in := slices.IndexFunc(c.Inputs, func(in string) bool { return ewpInput(filepath.Join(c.Dir, in)) }); in >= 0 {
			// A -ewp image cannot go through -r: that is what is checked.
			t.Run(c.Name+"/refused-ewp", func(t *testing.T) {
				args := append([]string{"-arch=" + c.Arch, "-r"}, partialFlags(c.Flags)...)
				args = append(append(args, c.Inputs[in]), "-o", filepath.Join(t.TempDir(), "partial.cubin"))
				status, msgs := runToolkitCudalink(t, tk, c.Dir, args)
				if status != 1 || !strings.Contains(msgs, "cannot go through a partial link") {
					t.Errorf("cudalink %s: exit %d, want 1 with the -ewp refusal\n%s", strings.Join(args, " "), status, msgs)
				}
			})
			continue
		}
		for _, sp := range splits(c.Dir, c.Inputs, archNumber(c.Arch)) {
			t.Run(c.Name+"/"+sp.name, func(t *testing.T) {
				t.Parallel()
				mu.Lock()
				tried++
				triedBySplit[sp.name]++
				mu.Unlock()
				known := knownDifferences[c.Name+"/"+sp.name]
				if known.releases != "" && !slices.Contains(strings.Fields(known.releases), tk.version) {
					known = knownDifference{}
				}
				tmp := partialTempDir(t)
				part := filepath.Join(tmp, "partial.cubin")
				partialInputs := sp.partial
				for i, group := range sp.nested {
					if group == nil {
						break
					}
					// A partial output is an input like any other, to -r too.
					out := filepath.Join(tmp, fmt.Sprintf("partial%d.cubin", i+1))
					args := append([]string{"-arch=" + c.Arch, "-r"}, partialFlags(c.Flags)...)
					args = append(append(args, group...), "-o", out)
					if status, msgs := runToolkitCudalink(t, tk, c.Dir, args); status != 0 {
						t.Fatalf("cudalink %s: exit %d\n%s", strings.Join(args, " "), status, msgs)
					}
					partialInputs = substitute(partialInputs, fmt.Sprintf("@%d", i+1), out)
				}
				args := append([]string{"-arch=" + c.Arch, "-r"}, partialFlags(c.Flags)...)
				args = append(append(args, partialInputs...), "-o", part)
				if known.partialFails != "" {
					status, msgs := runToolkitCudalink(t, tk, c.Dir, args)
					if status == 0 || !strings.Contains(msgs, known.partialFails) {
						t.Fatalf("cudalink %s: exit %d, want a failure naming %q (%s)\n%s", strings.Join(args, " "), status, known.partialFails, known.why, msgs)
					}
					return
				}
				if status, msgs := runToolkitCudalink(t, tk, c.Dir, args); status != 0 {
					t.Fatalf("cudalink %s: exit %d\n%s", strings.Join(args, " "), status, msgs)
				}
				if checkReadable(t, tk, c.Name+"/"+sp.name, part, sp.name == "all" && !testing.Short()) {
					mu.Lock()
					listed++
					mu.Unlock()
				}
				checkDebugFields(t, part)
				finalArgs := func(out string) []string {
					a := append([]string{"-arch=" + c.Arch}, c.Flags...)
					return append(append(a, substitute(sp.final, "@", part)...), "-o", out)
				}

				// cudalink: direct vs through the partial link.
				direct, viaPartial := filepath.Join(tmp, "direct.cubin"), filepath.Join(tmp, "final.cubin")
				directArgs := func(out string) []string {
					a := c.Args(c.Inputs, out)
					if hostPruned[c.Name] {
						a = append(a, "-ignore-host-info")
					}
					return a
				}
				if status, msgs := runToolkitCudalink(t, tk, c.Dir, directArgs(direct)); status != 0 {
					t.Fatalf("cudalink direct link: exit %d\n%s", status, msgs)
				}
				if known.finalFails != "" {
					status, msgs := runToolkitCudalink(t, tk, c.Dir, finalArgs(viaPartial))
					if status == 0 || !strings.Contains(msgs, known.finalFails) {
						t.Fatalf("cudalink %s: exit %d, want a failure naming %q (%s)\n%s", strings.Join(finalArgs(viaPartial), " "), status, known.finalFails, known.why, msgs)
					}
					if nvlink == "" {
						return
					}
					cmd := exec.Command(nvlink, finalArgs(filepath.Join(tmp, "nvlink.cubin"))...)
					cmd.Dir = c.Dir
					nvMsgs, _ := cmd.CombinedOutput()
					if cmd.ProcessState.ExitCode() != status || !strings.Contains(string(nvMsgs), known.finalFails) {
						t.Errorf("nvlink's final link of the same partial output: exit %d, cudalink's %d (%s)\n%s", cmd.ProcessState.ExitCode(), status, known.why, nvMsgs)
					}
					return
				}
				if status, msgs := runToolkitCudalink(t, tk, c.Dir, finalArgs(viaPartial)); status != 0 {
					t.Fatalf("cudalink %s: exit %d\n%s", strings.Join(finalArgs(viaPartial), " "), status, msgs)
				}
				cudalinkRoundTrip := func(wantName, want string) {
					same, identical := compare(t, "cudalink", wantName, want, viaPartial, known.maskFor("cudalink"))
					mu.Lock()
					defer mu.Unlock()
					if same {
						cuSame++
					}
					if identical {
						cuBytes++
						bytesBySplit[sp.name+" cudalink"]++
					}
				}
				if !known.asNvlink {
					cudalinkRoundTrip("the direct link", direct)
				}

				// nvlink: its direct link is expected.cubin.
				if nvlink == "" {
					if known.asNvlink {
						t.Logf("nvlink %s is not installed: this round trip is compared with nvlink's own, and is not compared", tk.version)
					}
					return
				}
				nvOut := filepath.Join(tmp, "nvlink.cubin")
				cmd := exec.Command(nvlink, finalArgs(nvOut)...)
				cmd.Dir = c.Dir
				if msgs, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("nvlink %s: %v\n%s", strings.Join(finalArgs(nvOut), " "), err, msgs)
				}
				// The final link of a partial output is a link like any
				// other: what nvlink makes of the same file, byte for
				// byte (the order of .nv.callgraph's address-taken group
				// when the partial output's .symtab lists the functions
				// in another order than the direct link's output:
				// partial-address-taken-order-*). The known differences
				// are compared under normalize only.
				if known == (knownDifference{}) && !sameBytes(t, viaPartial, nvOut) {
					t.Errorf("cudalink's final link of the partial output is not nvlink's final link of it byte for byte")
				}
				nvDirect := filepath.Join(c.Dir, "expected.cubin")
				if hostPruned[c.Name] {
					nvDirect = filepath.Join(tmp, "nvlink-direct.cubin")
					cmd := exec.Command(nvlink, directArgs(nvDirect)...)
					cmd.Dir = c.Dir
					if msgs, err := cmd.CombinedOutput(); err != nil {
						t.Fatalf("nvlink %s: %v\n%s", strings.Join(directArgs(nvDirect), " "), err, msgs)
					}
				}
				if known.asNvlink {
					// cudalink through -r must give what nvlink through
					// the same partial output gives, and that must not be
					// nvlink's direct link.
					cudalinkRoundTrip("nvlink's link through the partial output", nvOut)
					if known.mask == nil && !sameBytes(t, viaPartial, nvOut) {
						t.Errorf("cudalink's final link of the partial output is not nvlink's final link of it byte for byte")
					}
					if sameLink(t, nvDirect, nvOut) {
						t.Errorf("nvlink: linking through the partial output gives the direct link: the known difference (%s) is stale", known.why)
					}
					return
				}
				same, identical := compare(t, "nvlink", "the direct link", nvDirect, nvOut, known.maskFor("nvlink"))
				mu.Lock()
				defer mu.Unlock()
				if same {
					nvSame++
				}
				if identical {
					nvBytes++
					bytesBySplit[sp.name+" nvlink"]++
				}
			})
		}
	}
	// The summary, once every round trip has run.
	t.Cleanup(func() {
		for _, name := range []string{"all", "prefix", "suffix", "nested"} {
			t.Logf("split %s: %d round trips, byte-identical: cudalink %d, nvlink %d",
				name, triedBySplit[name], bytesBySplit[name+" cudalink"], bytesBySplit[name+" nvlink"])
		}
		t.Logf("CUDA %s: %d round trips; cudalink: %d equal under normalize (%d byte-identical); nvlink: %d equal (%d byte-identical)",
			tk.version, tried, cuSame, cuBytes, nvSame, nvBytes)
		t.Logf("CUDA %s: partial outputs that %s lists as read by nvdisasm: %d", tk.version, validatedFile, listed)
	})
}

// compare checks that two cubins are the same link result; it reports
// whether they are equal under normalize and byte for byte. wantName says
// what want is. What mask matches may differ (a known difference; nil for
// none).
func compare(t *testing.T, linker, wantName, want, got string, mask *regexp.Regexp) (same, identical bool) {
	t.Helper()
	a, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(got)
	if err != nil {
		t.Fatal(err)
	}
	na, err := normalize.Normalize(a)
	if err != nil {
		t.Fatalf("%s direct link: %v", linker, err)
	}
	nb, err := normalize.Normalize(b)
	if err != nil {
		t.Fatalf("%s link through the partial output: %v", linker, err)
	}
	if mask != nil {
		na, nb = mask.ReplaceAllString(na, "$1$2$3$4 <known difference>"), mask.ReplaceAllString(nb, "$1$2$3$4 <known difference>")
	}
	if d := normalize.Diff(na, nb); d != "" {
		t.Errorf("%s: linking through the partial output differs from %s (- want, + through -r):\n%s", linker, wantName, d)
		return false, false
	}
	return true, bytes.Equal(a, b)
}

// sameLink says whether two cubins are equal under normalize.
func sameLink(t *testing.T, a, b string) bool {
	t.Helper()
	var texts [2]string
	for i, path := range []string{a, b} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if texts[i], err = normalize.Normalize(data); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	return texts[0] == texts[1]
}

// toolComplaint is how cuobjdump and nvdisasm start a diagnostic line.
var toolComplaint = regexp.MustCompile(`(?m)^(cuobjdump|nvdisasm) *(error|fatal|warning)`)

// checkReadable runs the toolkit's readers on a partial output when they
// are installed: cuobjdump -elf always, nvdisasm (about a second a file)
// when disassemble is set, unless validatedFile lists the output's bytes
// as read by that very nvdisasm (listed is then true). name is the round
// trip's, for the list.
func checkReadable(t *testing.T, tk toolkit, name, path string, disassemble bool) (listed bool) {
	t.Helper()
	tools := [][]string{{"cuobjdump", "-elf"}}
	if disassemble {
		tools = append(tools, []string{"nvdisasm"})
	}
	for _, tool := range tools {
		exe := tk.tool(tool[0])
		if exe == "" {
			continue
		}
		var data []byte
		var id string
		if tool[0] == "nvdisasm" {
			var err error
			if data, err = os.ReadFile(path); err != nil {
				t.Fatal(err)
			}
			if id, err = difftest.ProgramsID(exe); err != nil {
				t.Fatal(err)
			}
			if listed = readableListed(t, tk.version, id, data); listed && rand.IntN(validatedSample) != 0 {
				continue
			}
		}
		out, err := exec.Command(exe, append(tool[1:], path)...).CombinedOutput()
		switch {
		case (err != nil || toolComplaint.Match(out)) && listed:
			t.Errorf("%s does not read the partial output, which %s lists as read by it: %v\n%.2000s", strings.Join(tool, " "), validatedFile, err, out)
		case err != nil || toolComplaint.Match(out):
			t.Errorf("%s does not read the partial output: %v\n%.2000s", strings.Join(tool, " "), err, out)
		case tool[0] == "nvdisasm" && *updateValidated:
			readable(t).Record(tk.version, id, name, data)
		}
	}
	return listed
}

// validatedFile lists the partial outputs (of the round trips' all split)
// that nvdisasm read without complaint, by round trip (a
// difftest.ValidatedList): checkReadable does not have the same nvdisasm
// read the same bytes again, but for a random one in validatedSample,
// which must still be read. nvdisasm took most of TestRoundTrip's time: in
// a run of 713 s on 2 CPUs (load 8, 29 Nov 2026) the all split's round
// trips took 1.36 s each, the others' 0.1 s. A round trip whose partial
// output changed is read as before.
const validatedFile = "testdata/validated.txt"

// validatedSample: one listed output in validatedSample is read again.
const validatedSample = 16

var updateValidated = flag.Bool("update-validated", false,
	"have nvdisasm read every partial output (none taken from "+validatedFile+"), and list those it reads in "+validatedFile)

// validatedPath is validatedFile from the package's directory, where the
// test starts: the round trips' links change the working directory.
var validatedPath, _ = filepath.Abs(validatedFile)

var readableOnce = sync.OnceValues(func() (*difftest.ValidatedList, error) {
	return difftest.ReadValidatedList(validatedPath)
})

// readable is validatedFile, read once.
func readable(t *testing.T) *difftest.ValidatedList {
	t.Helper()
	l, err := readableOnce()
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// readableListed says whether validatedFile lists data as read by the
// nvdisasm of identity id (difftest.ProgramsID); never with
// -update-validated.
func readableListed(t *testing.T, toolkit, id string, data []byte) bool {
	t.Helper()
	return !*updateValidated && readable(t).Listed(toolkit, id, data)
}

// writeReadable rewrites validatedFile after a run with -update-validated.
func writeReadable(t *testing.T) {
	t.Helper()
	const header = `# Partial outputs (cudalink -r of every input of a corpus case: the round
# trips' all split) that nvdisasm read without complaint, by CUDA release, with
# the SHA-256 of the nvdisasm that read them; TestRoundTrip does not have it
# read a listed output again (but one in 16, chosen at random). Written by a
# run that reads every output:
#   go test ./tests/partial/ -run 'TestRoundTrip$' -update-validated -timeout 60m
`
	if err := readable(t).Write(validatedPath, header); err != nil {
		t.Error(err)
	}
}

// checkDebugFields checks that in a partial output every field of
// .debug_info that a .rela entry against .debug_abbrev or .debug_line
// patches (each compilation unit's offsets into them) already holds the
// entry's addend. Readers such as cuobjdump -elf take those fields as they
// are, and a later input's compilation unit read with the first one's
// abbreviations can crash them. (The first unit's offsets are 0, as nvcc
// writes them; other fields of an input that did not move, such as its
// .debug_frame CIE pointers, stay as nvcc wrote them: 0.)
func checkDebugFields(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := cubin.Parse(path, data)
	if err != nil {
		t.Fatalf("the partial output does not parse: %v", err)
	}
	bad := 0
	for _, rs := range f.Relocs {
		target := f.Sections[rs.Target]
		if !rs.Rela || target.Name != ".debug_info" {
			continue
		}
		for r := range rs.All() {
			sym := f.Symbols[r.Sym]
			how := cubin.HowToRelocate(r.Type)
			if sym.Type() != cubin.STT_SECTION || (sym.Name != ".debug_abbrev" && sym.Name != ".debug_line") || len(how.Fields) == 0 || uint64(r.Offset)+how.Span() > uint64(len(target.Data)) {
				continue
			}
			if got := how.Extract(target.Data[r.Offset:]); got != uint64(r.Addend) && bad < 5 {
				bad++
				t.Errorf("%s at 0x%x (%v against %s + 0x%x) holds 0x%x: a reader that applies no relocation sees the wrong offset",
					target.Name, r.Offset, r.Type, sym.Name, r.Addend, got)
			}
		}
	}
}

// maskFor returns the mask that applies to linker's round trip, nil if none.
func (k knownDifference) maskFor(linker string) *regexp.Regexp {
	if k.linker != "" && k.linker != linker {
		return nil
	}
	return k.mask
}

// finalLinkErrors are the errors only a final link reports: a partial
// link leaves names undefined and lays nothing out.
var finalLinkErrors = []string{"undefined device symbol", "uses too much",
	"cannot be statically determined", // stack sizes: -Werror makes the final link's warning an error
	"with max regcount of",            // a kernel's registers through its call graph, as stack sizes
	"overlapping"}                     // bank-2 data tied to no function: placed, and its overlaps checked, by the final link

// hostListsDecide are the failing cases whose warnings and -v report
// depend on the host objects' kernel reference lists, which a partial
// output does not carry (docs/partial.md): the final link through it keeps
// every kernel whole, so TestErrors compares their errors alone.
var hostListsDecide = map[string]string{
	"unlisted-launched-kernel-demoted-no-devrt-image-sm72":             "the lists keep one kernel: the launched ones are demoted",
	"unlisted-launched-kernel-demoted-without-lcudadevrt-sm80":         "the lists keep one kernel: the launched ones are demoted",
	"unlisted-launched-kernels-demoted-one-launching-sm80":             "the lists keep one kernel: the launched ones are demoted",
	"error-callgraph-dump-device-launched-kernel-one-host-kernel-sm53": "the lists keep one kernel: the launched one is demoted (--dump-callgraph)",
}

// partialOrderDecides are the failing cases whose messages follow the order
// of the functions and call graph nodes of the one input a final link
// reads, which a partial output orders otherwise than the inputs did: the
// register limit errors (functions by symbol, kernels last node first) and
// --dump-callgraph's numbers. TestErrors compares the final link of the
// partial output with nvlink's final link of the same output.
var partialOrderDecides = map[string]string{
	"error-maxrregcount-callee-registers":                       "mid's symbol comes before mid2's in the partial output, chain's before heavy's",
	"error-maxrregcount-order-callgraph-dump-sm75":              "the partial output's call graph has no blank node 2",
	"error-limits-constant-bank-among-kernels-order-sm75":       "nvlink's final link of the partial output makes bank 3 after the kernels' shared sections: its error comes last",
	"error-constant-bank3-too-large-after-remerge-verbose-sm80": "the partial output's bank 3 is one section, which the second merge does not fold: its size is reported unfolded",
	"error-callgraph-dump-undefined-address-taken-sm80":         "the partial output's call graph has no blank node for the second input",
}

// partialOutputAvoids are the failing cases whose error needs the inputs'
// own sections, which a partial output merges into one: the final link of
// the partial output succeeds, as nvlink's final link of the same output
// does, with the same bytes.
var partialOutputAvoids = map[string]string{
	"error-constant-remerge-pointer-table-relocation-past-bank-end-sm80": "the second merge of bank 3 folds whole input sections, and a partial output's bank 3 is one: nothing folds ahead of slot_ptr",
}

// partialOutputAvoidsFatal are the failing cases whose fatal error needs
// the inputs' own sections, which a partial output merges into one, after
// non-fatal errors (undefined references, resource limits): the final
// link of the partial output reports those alone, exit status 255, as
// nvlink's final link of the same output does.
var partialOutputAvoidsFatal = map[string]string{
	"error-undefined-then-relocation-past-bank-end-sm80":     partialOutputAvoids["error-constant-remerge-pointer-table-relocation-past-bank-end-sm80"],
	"error-undefined-variable-relocation-past-bank-end-sm80": partialOutputAvoids["error-constant-remerge-pointer-table-relocation-past-bank-end-sm80"],
	"error-shared-limit-then-relocation-past-bank-end-sm80":  partialOutputAvoids["error-constant-remerge-pointer-table-relocation-past-bank-end-sm80"],
}

// errorLines keeps the error headlines.
func errorLines(lines []string) []string {
	var out []string
	for _, l := range lines {
		if strings.HasPrefix(l, "cudalink: error:") {
			out = append(out, l)
		}
	}
	return out
}

// TestErrors runs -r on every corpus case nvlink refused and checks that it
// reports what a full cudalink link of the same inputs reports, with the
// same exit status and no output; or, for errors only a final link can see
// (undefined references, resource limits), that -r succeeds and the final
// link of its output reports them.
func TestErrors(t *testing.T) { forToolkits(t, partialErrors) }

// partialErrors runs TestErrors on the cases built with one toolkit.
func partialErrors(t *testing.T, tk toolkit, cases []*difftest.Case) {
	n := 0
	for _, c := range cases {
		if c.Expect != "error" || perInputFlag(c.Flags) != "" || c.LTO() || c.Virtual() {
			continue // (-r refuses a virtual target, which links nothing)
		}
		if slices.ContainsFunc(c.Inputs, func(in string) bool { return ewpInput(filepath.Join(c.Dir, in)) }) {
			continue // -r refuses a -ewp image whatever else is wrong (see TestRoundTrip's refused-ewp)
		}
		n++
		t.Run(c.Name, func(t *testing.T) {
			tmp := partialTempDir(t)
			full, part := filepath.Join(tmp, "full.cubin"), filepath.Join(tmp, "partial.cubin")
			fullArgs := c.Args(c.Inputs, full)
			if c.CUDAVersion {
				fullArgs = append([]string{"--cuda-version=" + c.Toolkit}, fullArgs...)
			}
			fullStatus, fullMsgs := runToolkitCudalink(t, tk, c.Dir, fullArgs)
			if fullStatus == 0 {
				if c.Differs {
					return // cudalink links what nvlink refuses (archives of cubins)
				}
				t.Fatalf("the full link succeeded")
			}
			args := append([]string{"-arch=" + c.Arch, "-r"}, partialFlags(c.Flags)...)
			if c.CUDAVersion {
				args = append(args, "--cuda-version="+c.Toolkit)
			}
			args = append(append(args, c.Inputs...), "-o", part)
			status, msgs := runToolkitCudalink(t, tk, c.Dir, args)
			if status != 0 {
				if status != fullStatus || msgs != fullMsgs {
					t.Errorf("cudalink -r: exit %d with\n%s\nwant the full link's exit %d with\n%s", status, msgs, fullStatus, fullMsgs)
				}
				if _, err := os.Stat(part); err == nil {
					t.Errorf("cudalink -r failed but wrote %s", part)
				}
				return
			}
			// Unless the error comes from a flag only the final link takes,
			// it must be one only a final link can see.
			stripped := len(partialFlags(c.Flags)) != len(c.Flags)
			for _, h := range headlines(fullMsgs) {
				if !stripped && strings.HasPrefix(h, "cudalink: error:") && !slices.ContainsFunc(finalLinkErrors, func(e string) bool { return strings.Contains(h, e) }) {
					t.Errorf("cudalink -r succeeded, but the full link reports what a partial link must: %s", h)
				}
			}
			// libcudadevrt goes to the final link as well, as a user gives
			// it: -r links none of its members a link does not need, and
			// a link failing with undefined references keeps them all
			// (its -v report lists their kernels).
			finalArgs := append(append([]string{"-arch=" + c.Arch}, c.Flags...), part)
			finalArgs = append(finalArgs, systemLibraries(c.Inputs)...)
			finalArgs = append(finalArgs, "-o", filepath.Join(tmp, "final.cubin"))
			finalStatus, finalMsgs := runToolkitCudalink(t, tk, c.Dir, finalArgs)
			if why, ok := partialOutputAvoids[c.Name]; ok {
				if finalStatus != 0 {
					t.Fatalf("cudalink -r, then the final link of its output: exit %d, want 0 (%s)\n%s", finalStatus, why, finalMsgs)
				}
				nvStatus, out, ok := nvlinkFinal(tk, c.Dir, finalArgs, filepath.Join(tmp, "nvlink.cubin"))
				if !ok {
					return
				}
				if nvStatus != 0 {
					t.Fatalf("nvlink's final link of the partial output failed where cudalink's links (%s): exit %d\n%s", why, nvStatus, out)
				}
				got, err1 := os.ReadFile(filepath.Join(tmp, "final.cubin"))
				want, err2 := os.ReadFile(filepath.Join(tmp, "nvlink.cubin"))
				if err1 != nil || err2 != nil || !bytes.Equal(got, want) {
					t.Errorf("the final link of the partial output differs from nvlink's of the same output (%v, %v)", err1, err2)
				}
				return
			}
			if why, ok := partialOutputAvoidsFatal[c.Name]; ok {
				nvStatus, nvMsgs, ok := nvlinkFinal(tk, c.Dir, finalArgs, filepath.Join(tmp, "nvlink.cubin"))
				if !ok {
					return
				}
				if want, got := difftest.DiagnosticOrder(string(nvMsgs)), difftest.DiagnosticOrder(finalMsgs); finalStatus != 255 || nvStatus != finalStatus || !slices.Equal(got, want) {
					t.Errorf("the final link of the partial output: exit %d, %v; nvlink's of the same output: exit %d, %v; want 255 for both (%s)\n%s\n%s", finalStatus, got, nvStatus, want, why, finalMsgs, nvMsgs)
				}
				return
			}
			if why, ok := partialOrderDecides[c.Name]; ok {
				// The final link's messages follow the partial output's
				// order: nvlink's final link of the same output is the
				// reference.
				if finalStatus != fullStatus {
					t.Fatalf("cudalink -r, then the final link of its output: exit %d, the full link's %d (%s)\n%s", finalStatus, fullStatus, why, finalMsgs)
				}
				nvStatus, nvMsgs, ok := nvlinkFinal(tk, c.Dir, finalArgs, filepath.Join(tmp, "nvlink.cubin"))
				if !ok {
					return
				}
				if want, got := difftest.DiagnosticOrder(string(nvMsgs)), difftest.DiagnosticOrder(finalMsgs); nvStatus != finalStatus || !slices.Equal(got, want) {
					t.Errorf("the final link of the partial output: exit %d, %v; nvlink's of the same output: exit %d, %v (%s)\n%s\n%s", finalStatus, got, nvStatus, want, why, finalMsgs, nvMsgs)
				}
				return
			}
			// Warnings come from the partial link, errors from the final one
			// (which repeats a warning about libcudadevrt given to both).
			got := headlines(msgs)
			for _, h := range headlines(finalMsgs) {
				if !strings.HasPrefix(h, "cudalink: warning:") || !slices.Contains(got, h) {
					got = append(got, h)
				}
			}
			want := headlines(fullMsgs)
			if _, ok := hostListsDecide[c.Name]; ok {
				got, want = errorLines(got), errorLines(want)
			}
			if finalStatus != fullStatus || !slices.Equal(undefinedSorted(got), undefinedSorted(want)) {
				t.Errorf("cudalink -r, then the final link of its output: exit %d with\n%s%s\nwant exit %d with the full link's messages\n%s", finalStatus, msgs, finalMsgs, fullStatus, fullMsgs)
			}
		})
	}
	if n == 0 {
		t.Fatalf("no error case in the corpus for CUDA %s", tk.version)
	}
}

// systemLibraries returns the link inputs that give libcudadevrt: -L and
// -l options, and paths naming it.
func systemLibraries(inputs []string) []string {
	var out []string
	for _, in := range inputs {
		if strings.HasPrefix(in, "-L") || strings.HasPrefix(in, "-l") || strings.Contains(filepath.Base(in), "cudadevrt") {
			out = append(out, in)
		}
	}
	return out
}

// undefinedSorted sorts each run of undefined-reference headlines: a link
// reports them input by input, each file's functions first, so the final
// link of a partial link's one output has them in that file's order, not
// in the order the inputs of a full link give.
func undefinedSorted(heads []string) []string {
	out := slices.Clone(heads)
	isUndef := func(h string) bool { return strings.Contains(h, "undefined device symbol") }
	for i := 0; i < len(out); {
		j := i
		for j < len(out) && isUndef(out[j]) {
			j++
		}
		slices.Sort(out[i:j])
		i = max(j, i+1)
	}
	return out
}

// headlines returns the diagnostic lines of messages without the ">>>"
// lines that name files (a partial output names itself, not its inputs).
func headlines(msgs string) []string {
	var out []string
	for _, line := range strings.Split(msgs, "\n") {
		if line != "" && !strings.HasPrefix(line, ">>>") {
			out = append(out, line)
		}
	}
	return out
}

// TestSingleInput checks the output's conventions against nvcc's own: a
// partial link of one relocatable cubin of the corpus (nvcc -dc -cubin or
// ptxas -c output) must be that cubin again, equal under tests/normalize:
// the same sections with the same types, flags, links and contents, the
// same symbols with their CUDA types and memory spaces, the same
// relocations and .nv.info records. Cubins that are broken on purpose must
// be refused as a full link refuses them.
//
// The cubins of every toolkit's build of the corpus are checked (12.x's
// under cuda-<v>/).
func TestSingleInput(t *testing.T) {
	corpus, err := filepath.Abs(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, dir := range []string{corpus, difftest.ToolkitCasesDir(corpus, "12.4"), difftest.ToolkitCasesDir(corpus, "12.5")} {
		more, err := filepath.Glob(filepath.Join(dir, "*", "*.cubin"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, more...)
	}
	if len(files) == 0 {
		t.Skipf("SKIP: no corpus at %s (generate it with go run ./tests/corpus/regen)", corpusDir)
	}
	base := filepath.Dir(corpus)
	n := 0
	for _, path := range files {
		if filepath.Base(path) == "expected.cubin" {
			continue
		}
		if strings.Contains(filepath.Base(path), "cudadevrt") {
			// Taken for libcudadevrt, whose members join a link only on
			// demand: alone, -r has nothing to link (see splits).
			continue
		}
		if b, err := os.ReadFile(path); err == nil && len(b) >= 18 && b[16] == 2 && b[17] == 0 {
			continue // an executable cubin, which links skip (executable-cubin-skipped-sm80)
		}
		n++
		rel, _ := filepath.Rel(base, path)
		rel = strings.TrimPrefix(rel, "cases/")
		t.Run(rel, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			arch := "sm_80"
			if len(data) >= 52 {
				arch = fmt.Sprintf("sm_%d", data[48]) // e_flags' SM byte
			}
			out := filepath.Join(t.TempDir(), "one.cubin")
			// The input by its name in its directory: the case's
			// directory may be named after libcudadevrt.
			in := filepath.Base(path)
			status, msgs := runCudalink(t, filepath.Dir(path), []string{"-arch=" + arch, "-r", in, "-o", out})
			if status != 0 {
				fullStatus, fullMsgs := runCudalink(t, filepath.Dir(path), []string{"-arch=" + arch, in, "-o", out + ".full"})
				if fullStatus == 0 || fullStatus != status || fullMsgs != msgs {
					t.Errorf("cudalink -r: exit %d\n%s\nbut the full link: exit %d\n%s", status, msgs, fullStatus, fullMsgs)
				}
				return
			}
			var mask *regexp.Regexp
			if k, ok := singleInputKnown[rel]; ok {
				mask = k.mask
			}
			compare(t, "cudalink -r of one input", "its input", path, out, mask)
		})
	}
	t.Logf("%d cubins", n)
}

// singleInputKnown are the inputs whose own .symtab differs from what -r
// writes of them in a known way (by their path under tests/corpus).
var singleInputKnown = map[string]knownDifference{
	// ptxas 12.x of an sm_90 file whose only function is a weak kernel:
	// the weak kernel and the undefined weak __UFT/__UDT symbols come
	// before the section symbols, and ptxas's sh_info (13) counts all
	// but the last symbol; -r writes one past the last local (14), as
	// for any other output. The symbols are the same.
	"cuda-12.4/cases/cuda12-weak-kernel-address-taken-in-skipped-copy-sm90/a.cubin": ptxasWeakFirstInfo,
	"cuda-12.5/cases/cuda12-weak-kernel-address-taken-in-skipped-copy-sm90/a.cubin": ptxasWeakFirstInfo,
}

var ptxasWeakFirstInfo = knownDifference{
	mask: regexp.MustCompile(`(?m)^(section \.symtab .*) info=\d+$`),
	why:  "ptxas 12.x's .symtab sh_info for an sm_90 file whose weak symbols precede its section symbols",
}

// sameBytes says whether two files hold the same bytes.
func sameBytes(t *testing.T, a, b string) bool {
	x, err1 := os.ReadFile(a)
	y, err2 := os.ReadFile(b)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	return bytes.Equal(x, y)
}
