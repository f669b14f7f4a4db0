package linker

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/cudalink/cudalink/linker/archive"
	"github.com/cudalink/cudalink/linker/cubin"
)

// readFiles is what readInputs read, by command-line position: the path
// (empty for a -l library that was not found), the objects parsed from it
// and the error reading it. readInputs writes it; gatherLTOInputs,
// compilePTXImages and addInputs read it, and addInputs drops it.
type readFiles struct {
	paths []string
	objs  [][]*Object
	errs  []error
}

// librarySearched says where an -l library that was not found was looked
// for, for the warning: the number of -L directories, and those that are
// none (a file, a path that does not exist, the usual slips: -L lib.a for
// -L lib), or that nvlink has no default directory; and, for a name that
// is a file's (-llibfoo.a, -lkernel.cubin), that -l takes a name.
func librarySearched(name string, dirs []string) string {
	var s string
	switch len(dirs) {
	case 0:
		s = "no -L directory was given, and nvlink searches none by default"
	case 1:
		s = fmt.Sprintf("looked for lib%s.a in 1 -L directory", name)
	default:
		s = fmt.Sprintf("looked for lib%s.a in %d -L directories", name, len(dirs))
	}
	if strings.ContainsRune(name, '/') || strings.HasSuffix(name, ".a") || strings.HasSuffix(name, ".o") || strings.HasSuffix(name, ".cubin") {
		// -llibfoo.a, -lkernel.cubin: a file given to -l.
		s += "; -l takes a library's name (-lfoo finds libfoo.a): give a file by its path"
	}
	for _, dir := range dirs {
		switch fi, err := os.Stat(dir); {
		case errors.Is(err, os.ErrNotExist):
			s += fmt.Sprintf("; -L %s does not exist", dir)
		case err == nil && !fi.IsDir():
			s += fmt.Sprintf("; -L %s is a file, not a directory", dir)
		}
	}
	return s
}

// readInputs reads and parses every input: the first ones on the link's
// goroutine, the rest, once those hold serialReadBytes, in parallel. Each
// goroutine fills only its own slot, so the result is in command-line
// order whatever the scheduling.
func readInputs(ctx *linkContext) {
	cfg := ctx.config
	paths := make([]string, len(cfg.Inputs))
	for i, in := range cfg.Inputs {
		if in.Library {
			p, found, skipped := findLibrary(ctx, in.Path, cfg.LibDirs)
			if ctx.mergeStopped() {
				return
			}
			if !found {
				if !skipped {
					// nvlink goes on without a word; cudalink says so.
					ctx.ownWarnf("library -l%s not found (%s); linking without it", in.Path, librarySearched(in.Path, cfg.LibDirs))
				}
				continue
			}
			paths[i] = p
		} else {
			paths[i] = in.Path
		}
	}
	if len(cfg.Inputs) == 0 {
		ctx.errorf("no input files")
		return
	}
	if ctx.failed() {
		return
	}
	total := dropRepeatedArchives(paths)
	collectWhileReading(ctx, total)
	// A link that maps its inputs and hands their pages back as its
	// passes move on keeps their relocations in memory, but for a large
	// link (whose memory they would add to most): see copyRelocations. A
	// test sets it for smaller links too.
	ctx.maps.copyRelocs = ctx.maps.copyRelocs || cfg.Cache == nil && total >= serialReadBytes && total < largeInputBytes
	if total < serialReadBytes {
		ctx.maps.readSmall(int(total))
	}

	slots := make([][]*Object, len(paths))
	errs := make([]error, len(paths))
	for i, in := range cfg.Inputs {
		if !in.Library && in.Path == "" {
			// An empty argument among the inputs: nvlink 11.8, 12.4 and
			// 12.5 stop there with "Could not open input file ''".
			errs[i] = &linkError{file: "''", msg: "cannot open input file: the name is empty"}
		}
	}
	panics := make([]*goPanic, len(paths))
	read := func(i int) (size int) {
		if paths[i] != "" { // "": a -l library that was not found
			defer catch(&panics[i])
			slots[i], size, errs[i] = readInput(paths[i], cfg, &ctx.maps)
		}
		return size
	}
	// The first inputs are read on the link's goroutine until they hold
	// serialReadBytes; the rest, if any, in parallel. The mappings of the
	// first are held meanwhile: a link of no more is small, and holds its
	// inputs to its end (tuneCollectorAfter).
	next, size := 0, 0
	ctx.maps.hold(true)
	for ; next < len(paths) && size < serialReadBytes; next++ {
		size += read(next)
	}
	if next < len(paths) {
		ctx.maps.hold(false)
		ctx.useParallelism()
	}
	forEachIndex(len(paths)-next, cfg.Parallelism, func(i int) { read(next + i) })
	rethrow(panics)
	ctx.read = &readFiles{paths, slots, errs}
}

// compilePTXImages has ptxas compile, in parallel, the PTX images that
// addInputs will choose (ptxcompile.go), unless -dlto left nothing to
// link.
func compilePTXImages(ctx *linkContext) {
	read := ctx.read
	if read == nil || ctx.ltoTookLink() {
		return
	}
	ctx.compilePTX(read.objs)
}

// ltoTookLink says whether -dlto leaves no input to link: libnvvm could
// not be loaded, -emit-ptx writes its PTX, ptxas linked the whole
// program, or -Werror stopped the link at an input -dlto's read found
// nothing in for the target (announceInputs).
func (ctx *linkContext) ltoTookLink() bool {
	cfg := ctx.config
	return cfg.LTO && (ctx.lto.units == nil || ctx.emitsPTX() || ctx.lto.executable != nil || ctx.mergeStopped())
}

// addInputs makes the link's input files of what readInputs read, in
// command-line order: of each unit, the image selectImages chooses for
// the target; a file that could not be read is reported here.
func addInputs(ctx *linkContext) {
	read := ctx.read
	readTk := toolkitFor(ctx.readRelease())
	namedO := readTk.cubinNamedO
	ctx.read = nil
	if read == nil || ctx.ltoTookLink() {
		return
	}
	paths, slots, errs := read.paths, read.objs, read.errs
	// skippedDevrt: libcudadevrt came where nothing needed it (nvlink takes
	// it for the system library whether or not it has an image for the
	// target); see unexpectedAfterDevrt.
	skippedDevrt := false
	prelinked, err := prelinkedModules(ctx.config, slots)
	if err != nil {
		ctx.report(err)
		return
	}
	// stop ends the walk at input i, refused: the inputs after it are not
	// added, but the releases they were written by count (chooseToolkit).
	stop := func(i int) {
		ctx.unreadRelease = unreadRelease(slots[i+1:], errs[i+1:])
	}
	for i := range paths {
		if paths[i] == "" && errs[i] == nil { // a -l library not found, an archive given again
			continue
		}
		if ctx.mergeStopped() || ctx.ptxFailed {
			return
		}
		first := ctx.nextSeq() // the input's place among the units
		if ok, err := ctx.inputReadable(paths[i], errs[i]); !ok {
			if err != nil {
				ctx.refuse(first, ctx.headerRefusal(paths[i], &err), err) // nvlink stops at it
				stop(i)
				return
			}
			continue
		}
		system := isSystemLibrary(paths[i])
		if len(slots[i]) == 1 && slots[i][0].cubinAsHost {
			ctx.ownWarnf("ignoring input %s as a cubin: nvlink takes a relocatable cubin not named .cubin (or .o, from CUDA 12) for a host object without device code (which keeps every kernel); name it .cubin", paths[i])
		}
		objs := ctx.selectImages(ctx.dropPrelinked(slots[i], prelinked))
		if !namedO && len(objs) == 1 && objs[0].namedO {
			ctx.ownWarnf("ignoring input %s as a cubin: nvlink 11.8 takes a relocatable cubin named .o for a host object without device code (which keeps every kernel); name it .cubin", paths[i])
			objs = []*Object{hostLikeObject(objs[0].Name)}
		}
		linked := slices.ContainsFunc(objs, func(obj *Object) bool { return obj.ELF != nil })
		// An input with device code after a skipped libcudadevrt is
		// refused once its images are checked (their architecture and
		// release come first: refuseAfterDevrt).
		afterDevrt := skippedDevrt && !system && linked
		var choice devrtChoice
		if system {
			choice, err = ctx.chooseDevrt(objs)
			if err != nil {
				// An image read only now (deferredImage) that does not
				// parse: reported as when it was read with the others.
				ctx.report(err)
				continue
			}
			skippedDevrt = skippedDevrt || choice == devrtSkipped
		}
		added := len(ctx.added)
		for _, obj := range objs {
			seq := ctx.nextSeq()
			un := obj.unit
			if obj.ltoIR {
				ctx.lto.listed = append(ctx.lto.listed, ltoPlace{un, obj.Name, seq})
				continue
			}
			if system && !slices.Contains(ctx.lto.objs, obj) {
				// (-dlto's cubin goes where a libcudadevrt without an
				// image for the target stands, selectImages; it is no
				// member of the library.)
				// Units are shared with cached parses: mark a copy.
				u := *obj.unit
				u.system = true
				un = &u
				if ctx.devrt == nil {
					ctx.devrt = map[*unit]devrtChoice{}
				}
				ctx.devrt[un] = choice
			}
			if obj.ELF == nil {
				ctx.unlinked = append(ctx.unlinked, unlinkedUnit{un, seq, obj.version})
				continue
			}
			file := newInputFile(obj)
			file.seq = seq
			file.unit = un
			ctx.added = append(ctx.added, file)
		}
		if ctx.refuseArch(ctx.added[added:]) {
			stop(i)
			return
		}
		if afterDevrt {
			ctx.refuse(first, refuseAfterDevrt, &linkError{file: paths[i], msg: unexpectedAfterDevrt})
			stop(i)
			return
		}
		if ctx.newerThanForced(ctx.added[added:]) || olderEWP(ctx.added[added:], readTk) {
			// nvlink stops at the first input newer than itself, or at
			// an -ewp image of another release, before it reads (or
			// compiles the PTX of) the inputs after it; chooseToolkit
			// reports it.
			stop(i)
			return
		}
	}
	// -Werror stopped the link at the last input: no input follows to
	// fail on it.
	ctx.lastInputStopped()
	if len(ctx.lto.objs) > 0 {
		// nvlink compiles the -dlto program once it has read every
		// input: its warnings from here on escape -w and -Werror.
		ctx.ptxasRan()
	}
}

// headerRefusal is the check of a cubin that could not be read (*err,
// what reading it returned) that nvlink refuses it for: in an 11.8 link,
// one that did not parse is refused for the architecture or the release
// its header gives (brokenCubinError), *err then made that refusal's.
func (ctx *linkContext) headerRefusal(path string, err *error) refusalStep {
	bc := (*brokenCubinError)(nil)
	tk := toolkitFor(ctx.readRelease())
	if !tk.headerFirst || !errors.As(*err, &bc) {
		return refuseRead
	}
	if target := ctx.config.Arch; !cubin.ArchCompatible(bc.sm, target) {
		*err = archMismatchError(path, bc.sm, target)
		return refuseArch
	}
	if bc.version > tk.version {
		*err = newerThanToolkit(path, bc.version, tk)
		return refuseRelease
	}
	return refuseRead
}

// nextSeq is the place (inputFile.seq) of the next unit addInputs loads:
// the units loaded so far, linked, unlinked or -dlto IR.
func (ctx *linkContext) nextSeq() int {
	return len(ctx.added) + len(ctx.unlinked) + len(ctx.lto.listed)
}

// inputReadable says whether the input read from path (err: what reading
// it returned) has objects to link: an input nvlink skips gets cudalink's
// warning, one that could not be read is returned as the error to report;
// an archive cut short keeps the members before the cut, with a warning.
func (ctx *linkContext) inputReadable(path string, err error) (bool, error) {
	if err == nil {
		return true, nil
	}
	if why, skipped := skipReason(err); skipped {
		ctx.ownWarnf("ignoring input %s: %s", path, why)
		if sc := (*skippedCubinError)(nil); errors.As(err, &sc) {
			ctx.skippedVersion = max(ctx.skippedVersion, sc.version)
		}
		return false, nil
	}
	if cut, ok := err.(*archiveCutError); ok {
		ctx.ownWarnf("ignoring input %s:%v", path, cut)
		return true, nil
	}
	return false, err
}

// refusedRead says whether err, what reading an input returned, is one
// nvlink stops at (inputReadable reports it), not an input it skips nor
// an archive cut short.
func refusedRead(err error) bool {
	_, skipped := skipReason(err)
	return readFailed(err) && !skipped
}

// skipReason says why cudalink warns of an input nvlink skips, if err
// (what reading it returned) is one of skipReasons.
func skipReason(err error) (why string, skipped bool) {
	for _, skip := range skipReasons {
		if errors.Is(err, skip.err) {
			return skip.why, true
		}
	}
	return "", false
}

// unreadRelease is the newest release the objects of slots were written
// by (and the cubins errs says nvlink skips): inputs read after one nvlink
// stops at, which tell the release nvlink is of all the same.
func unreadRelease(slots [][]*Object, errs []error) uint32 {
	var v uint32
	for _, objs := range slots {
		v = newestRelease(v, objs)
	}
	for _, err := range errs {
		if sc := (*skippedCubinError)(nil); errors.As(err, &sc) {
			v = max(v, sc.version)
		}
	}
	return v
}

// skipReasons says why cudalink warns of each kind of input nvlink skips
// without a word (parseInput). A list, not a map: an error of a type that
// is not comparable cannot be a map key.
var skipReasons = []struct {
	err error
	why string
}{
	{errSkipped, "it is not a cubin, host object or archive"},
	{errSkippedName, "nvlink skips an input named without an extension or .so"},
	{errSkippedELF, "an ELF file not named .cubin that is not relocatable, which nvlink skips"},
	{errSkippedFatbin, "a fatbinary is linked only from a file named *.fatbin, as nvlink does"},
	{errSkippedExec, "an executable cubin (whole-program code), which nvlink skips; compile it with nvcc -dc to link its device code"},
}

// newerThanForced says whether one of files was written by a newer CUDA
// release than the one --cuda-version asks for.
func (ctx *linkContext) newerThanForced(files []*inputFile) bool {
	v := ctx.config.CUDAVersion
	if v == 0 {
		return false
	}
	tk := toolkitFor(v)
	return slices.ContainsFunc(files, func(f *inputFile) bool { return f.ELF.Header.Version > tk.version })
}

// olderEWP says whether one of files is an -ewp image older than tk, the
// release the inputs read tell: the link's nvlink, of that release or a
// newer one (the cubins ptxas compiles can tell a newer one), refuses it
// (chooseToolkit).
func olderEWP(files []*inputFile, tk *toolkit) bool {
	return slices.ContainsFunc(files, func(f *inputFile) bool {
		return f.ELF.Header.Type == cubin.ET_CUDA_EWP && f.ELF.Header.Version < tk.version
	})
}

// prelinkedModules maps the module id of every object that an nvcc -dlink
// output among the inputs (anywhere on the command line, archive members
// too) says it linked already to that output's name. nvlink 11.8, 12.4
// and 12.5 skip those objects, but only when --register-link-binaries is
// given (as nvcc -dlink gives it): a static library device-linked by
// itself (CMake's CUDA_RESOLVE_DEVICE_SYMBOLS: its objects and their
// cmake_device_link.o in one archive) then adds nothing to the device
// link of the executable, and a name only its objects define is
// undefined there. An output whose "def" entries a plain id follows (an
// `ld -r` of the dlink output with other objects) stops nvlink ("unexpected
// data in module_ids", exit status 1; 11.8, 12.4, 12.5): an error naming
// the file.
func prelinkedModules(cfg *Config, slots [][]*Object) (map[string]string, error) {
	if cfg.RegisterLinkBinaries == "" {
		return nil, nil
	}
	var by map[string]string
	for _, objs := range slots {
		for _, obj := range objs {
			if obj.unit == nil || obj.unit.host == nil {
				continue
			}
			if id := obj.unit.host.unexpectedID; id != "" {
				return nil, &linkError{file: obj.Name, section: "__nv_module_id", msg: fmt.Sprintf(
					"unexpected data in module_ids: the module id %q follows the \"def\" entries of an nvcc -dlink output (an ld -r of the dlink output with other objects?); nvlink stops at it with --register-link-binaries: give the objects separately", id)}
			}
			for _, id := range obj.unit.host.prelinked {
				if by == nil {
					by = map[string]string{}
				}
				if _, ok := by[id]; !ok {
					by[id] = obj.Name
				}
			}
		}
	}
	return by, nil
}

// dropPrelinked returns objs less the images of the host objects that
// prelinked names, saying so once for each.
func (ctx *linkContext) dropPrelinked(objs []*Object, prelinked map[string]string) []*Object {
	isPrelinked := func(obj *Object) bool {
		h := obj.unit.host
		_, ok := prelinked[h.moduleIDOrNone()]
		return ok
	}
	if !slices.ContainsFunc(objs, isPrelinked) {
		return objs
	}
	var kept []*Object
	for group := range unitGroups(objs) {
		if !isPrelinked(group[0]) {
			kept = append(kept, group...)
			continue
		}
		u := group[0].unit
		ctx.ownWarnf("ignoring input %s: %s device-linked it already (nvcc -dlink), so nvlink skips it with --register-link-binaries", group[0].Name, prelinked[u.host.moduleID])
		// nvlink compiles the unit's PTX all the same: ptxas's messages
		// are printed, and the link is one that compiled PTX.
		if _, p := chooseImage(group, ctx.config.imageTarget()); p != nil && !ctx.lto.units[u] {
			ctx.compiledObject(group[0].Name, u, p)
		}
	}
	return kept
}

// toolkitSoFar is the release the inputs added so far and objs (images
// not added yet) tell: --cuda-version's, else the newest e_version among
// them. chooseToolkit asks it once every input is in; chooseDevrt asks it
// before, with libcudadevrt's images (which nvcc -dlink gives last), as
// libcudadevrt is taken for a device graph function only in an 11.8 link.
func (ctx *linkContext) toolkitSoFar(objs []*Object) *toolkit {
	v := ctx.config.CUDAVersion
	if v == 0 {
		v = newestRelease(ctx.inputsRelease(), objs)
	}
	return toolkitFor(v)
}

// readRelease is the release the inputs read so far tell before any is
// added: --cuda-version's, else the newest an input read was written by
// (ctx.read), else 0.
func (ctx *linkContext) readRelease() uint32 {
	if v := ctx.config.CUDAVersion; v != 0 {
		return v
	}
	var v uint32
	if read := ctx.read; read != nil {
		for _, objs := range read.objs {
			v = newestRelease(v, objs)
		}
		for _, err := range read.errs {
			if sc := (*skippedCubinError)(nil); errors.As(err, &sc) {
				v = max(v, sc.version)
			}
		}
	}
	return v
}

// inputsRelease is the newest release the inputs read so far record (the
// added cubins' e_version, what the unlinked units' containers said, the
// e_version of the cubins nvlink skips), 0 when none tells.
func (ctx *linkContext) inputsRelease() uint32 {
	v := max(ctx.skippedVersion, ctx.unreadRelease)
	for _, file := range ctx.added {
		v = max(v, file.ELF.Header.Version)
	}
	for _, un := range ctx.unlinked {
		v = max(v, un.version)
	}
	return v
}

// newestRelease is the newest of v and the releases objs were written by
// (a cubin's e_version, else what its container said).
func newestRelease(v uint32, objs []*Object) uint32 {
	for _, obj := range objs {
		if obj.ELF != nil {
			v = max(v, obj.ELF.Header.Version)
		} else {
			v = max(v, obj.version)
		}
	}
	return v
}

// nvlinkName is the file's name as nvlink's messages give it: the path, or
// "lib.a:member" for an archive member (cudalink's file names say
// "lib.a(member)").
func (file *inputFile) nvlinkName() string { return memberColonName(file.Name, file.unit.member) }

// memberColonName turns an archive member's "lib.a(member)" into nvlink's
// "lib.a:member"; other names stay as they are.
func memberColonName(name string, member bool) string {
	if member && strings.HasSuffix(name, ")") {
		if i := strings.LastIndexByte(name, '('); i > 0 {
			return name[:i] + ":" + name[i+1:len(name)-1]
		}
	}
	return name
}

// warnMixedEWP gives nvlink's warning for every input linked next to a
// -ewp image (ELF type 0xff00, from nvcc -c -ewp) that is not one itself
// nor from libcudadevrt, for a link that merges no input after it (-dlto's
// whole program, -emit-ptx). A link that merges them warns of each as it
// merges it (resolveSymbols, through warnMixedEWPFile).
func warnMixedEWP(ctx *linkContext) {
	if ctx.mergeStopped() || !ctx.hasEWP() {
		return
	}
	for _, file := range ctx.files {
		if ctx.warnMixedEWPFile(file) {
			return
		}
	}
}

// hasEWP says whether an -ewp image is among the inputs linked.
func (ctx *linkContext) hasEWP() bool {
	return slices.ContainsFunc(ctx.files, func(f *inputFile) bool { return f.ELF.Header.Type == cubin.ET_CUDA_EWP })
}

// warnMixedEWPFile gives nvlink's warning for file, linked next to an
// -ewp image, unless it is one itself or from libcudadevrt, and says
// whether -Werror stopped the link at it. nvlink gives it as it merges
// the file, before the file's duplicate definitions, and merges no input
// after one with duplicates (11.8, 12.4, 12.5). nvlink names an archive
// member lib.a:member here.
func (ctx *linkContext) warnMixedEWPFile(file *inputFile) (stop bool) {
	if file.ELF.Header.Type == cubin.ET_CUDA_EWP || file.unit.system {
		return false
	}
	return ctx.mergeWarnf("'%s': -ewp compiled objects should only link with libcudadevrt", file.nvlinkName())
}

// unexpectedAfterDevrt is nvlink's fatal error for an input with device
// code after libcudadevrt when nvlink skipped libcudadevrt where it came
// (chooseDevrt): given before every object, or after objects that leave
// nothing undefined, then an object after it (11.8, 12.4, 12.5:
// error-unexpected-object-after-cudadevrt-nothing-undefined-sm61). -l
// libraries come after the files.
const unexpectedAfterDevrt = "unexpected object after cudadevrt"

// devrtChoice is what nvlink does with libcudadevrt where it comes among
// the inputs (chooseDevrt).
type devrtChoice uint8

const (
	// devrtSkipped: nothing needs it there; it is left out, and an input
	// with device code after it is an error (unexpectedAfterDevrt).
	devrtSkipped devrtChoice = iota
	// devrtTaken: linked (its image, if it has one for the target) and
	// registered (writeHostSide).
	devrtTaken
	// devrtPresent: needed, but an input before it (a partial output that
	// took it) has its definitions already: not taken again, nor counted
	// as left out.
	devrtPresent
)

// chooseDevrt says whether nvlink takes libcudadevrt (objs, the images of
// the input it is in; none for an architecture it has no image for) where
// it comes among the inputs: with -keep-system-libraries, or when the
// inputs before it leave a name undefined that may not stay so, or need
// one it defines. The inputs after it do not count: given by path between
// two objects, libcudadevrt is linked whole when the first calls a
// function the second defines (devrt-between-objects-taken-sm61). Taken,
// its module is registered (writeHostSide) even without an image (an
// undefined call only dead code makes); skipped, it is not, and an input
// with device code after it is an error (unexpectedAfterDevrt). This is
// the one scan of the inputs' names a link with -lcudadevrt makes
// (linkedFiles makes another only for --archive-mode=on-demand members).
// The library's images are read whole (loadDeferred) only when the choice
// needs their names: when the inputs before it leave some name undefined;
// skipped, they stay headers (deferredImage). err is an image's that
// does not parse.
func (ctx *linkContext) chooseDevrt(objs []*Object) (devrtChoice, error) {
	if ctx.config.KeepSystemLibraries {
		return devrtTaken, loadDeferred(objs, ctx.maps.imageBuffer)
	}
	// A libcudadevrt not taken, or a member linked only if needed
	// (onDemandMember), does not count. A libcudadevrt taken counts in
	// either archive mode: it is linked whole (linkedFiles), so a second
	// copy after it finds its names defined and is not taken again.
	skip := func(file *inputFile) bool {
		return file.unit.system && ctx.devrt[file.unit] != devrtTaken || ctx.onDemandMember(file)
	}
	names := make(globalNames, distinctNames(ctx.added, skip))
	tk := ctx.toolkitSoFar(objs)
	var unresolved []string
	for _, file := range ctx.added {
		if !skip(file) {
			names.fold(file, func(esym *cubin.Symbol) {
				// A weak reference may stay undefined (12.x sm_90 objects
				// all declare the driver's __UFT and __UDT so).
				if esym.Bind() == cubin.STB_GLOBAL && !undefinedIsFine(tk, esym.Name, esym.Type(), esym.Other) {
					unresolved = append(unresolved, esym.Name)
				}
			})
		}
	}
	// Only a name the inputs before it refer to and none defines can
	// make it taken (below): without one, nothing of it is needed.
	if !names.anyUndefined() {
		return devrtSkipped, nil
	}
	if err := loadDeferred(objs, ctx.maps.imageBuffer); err != nil {
		return 0, err
	}
	definesAny := false
	for _, obj := range objs {
		if obj.ELF == nil {
			continue
		}
		for _, esym := range obj.ELF.Symbols {
			if esym.Bind() == cubin.STB_LOCAL || esym.Shndx == cubin.SHN_UNDEF {
				continue
			}
			if names[esym.Name] == nameUndefined {
				return devrtTaken, nil // it defines a name the inputs before it need
			}
			definesAny = definesAny || names[esym.Name]&nameDefined != 0
		}
	}
	if !slices.ContainsFunc(unresolved, func(name string) bool { return names[name]&nameDefined == 0 }) {
		return devrtSkipped, nil
	}
	// A name no input defines: nvlink takes libcudadevrt all the same,
	// unless its definitions are in the link already.
	if definesAny {
		return devrtPresent, nil
	}
	return devrtTaken, nil
}

// isSystemLibrary says whether nvlink takes an input for libcudadevrt: its
// path (as given, or -L dir joined with lib<name>.a) contains "cudadevrt",
// whatever the file holds. A directory named so is enough, and so is a
// plain object: nvlink links its members (or the object) only on demand, and
// its host reference lists do not switch kernel pruning on.
func isSystemLibrary(path string) bool { return strings.Contains(path, "cudadevrt") }

// findLibrary looks for -l<name> as nvlink does: first lib<name>.so in
// every directory of dirs, in order, then lib<name>.a. A lib<name>.so found
// anywhere is nvlink's choice, and links nothing (cudalink says so; skipped
// is then true). Of the archives, one from which nvlink would read no
// object (it has no member, or its first member is not ELF, where nvlink
// stops reading an archive) is skipped with nvlink's warning, "Skipping
// incompatible '<dir>/lib<name>.a' when searching for -l<name>"
// (libraryPath, the path nvlink names the archive and its members by), and
// the search goes on in the next directories. Under -Werror that warning
// stops the link (mergeWarnf). skipped says whether some archive (or a
// lib<name>.so) was passed over. (nvlink also skips an archive whose only
// objects are cubins, which cudalink links; see docs/errors.md.)
func findLibrary(ctx *linkContext, name string, dirs []string) (path string, found, skipped bool) {
	for _, dir := range dirs {
		// nvlink first looks for lib<name>.so in every directory; the
		// first it finds (anything stat finds: a shared library, an
		// archive so named, a directory) is its choice, which it does
		// not even open, as a shared library holds no device code for
		// it (11.8, 12.4, 12.5).
		so := libraryPath(dir, name, ".so")
		if _, err := os.Stat(so); err == nil {
			ctx.ownWarnf("library -l%s is %s for nvlink, which looks for lib%s.so in every -L directory before any lib%s.a and links nothing from a shared library; linking without -l%s", name, so, name, name, name)
			return "", false, true
		}
	}
	for _, dir := range dirs {
		p := libraryPath(dir, name, ".a")
		if _, err := os.Stat(p); err != nil {
			continue
		}
		if !readsNoObject(p) {
			return p, true, skipped
		}
		skipped = true
		if ctx.mergeWarnf("Skipping incompatible '%s' when searching for -l%s", p, name) {
			return "", false, true
		}
	}
	return "", false, skipped
}

// libraryPath is the path nvlink gives lib<name><ext> in an -L directory,
// which its messages show: the directory as given, without trailing '/'s,
// then "/lib<name><ext>" ("./libfoo.a" for -L., "libs/libfoo.a" for
// -Llibs/).
func libraryPath(dir, name, ext string) string {
	return strings.TrimRight(dir, "/") + "/lib" + name + ext
}

// dropRepeatedArchives blanks (as a library not found) every archive that
// an earlier input names already, by any path (-l, a path with ./, a
// symbolic or hard link: the same file): nvlink links an archive once, at
// its first place, where an object given twice is a duplicate definition
// (11.8, 12.4 and 12.5; "-lfoo -lbar -lfoo" is how builds spell libraries
// that need each other).
//
// It returns the size of the files it keeps.
func dropRepeatedArchives(paths []string) (total int64) {
	// The earlier inputs, by what os.SameFile compares where the system
	// tells it (device and inode), else by size: the same file has the
	// same size, so each input is compared with those of its size only.
	// Generated programs have hundreds of objects of one size (flat 1,600:
	// 900 of 16,584 bytes), which made the lists quadratic: 17.8 M
	// instructions at 1,600 objects, 1.5 M at 400 (perf26).
	seen := map[fileID]bool{}
	bySize := map[int64][]os.FileInfo{}
	for i, p := range paths {
		if p == "" {
			continue
		}
		fi, err := os.Stat(p)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		id, ok := sameFileID(fi)
		var same bool
		if ok {
			same = seen[id]
		} else {
			same = slices.ContainsFunc(bySize[fi.Size()], func(e os.FileInfo) bool { return os.SameFile(fi, e) })
		}
		if same && isArchiveFile(p) {
			paths[i] = ""
			continue
		}
		if ok {
			seen[id] = true
		} else {
			bySize[fi.Size()] = append(bySize[fi.Size()], fi)
		}
		total += fi.Size()
	}
	return total
}

// isArchiveFile says whether path starts with an archive's magic, thin or
// not.
func isArchiveFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var magic [len(archive.Magic)]byte
	n, _ := f.ReadAt(magic[:], 0)
	return isArchive(magic[:n])
}

// readsNoObject says whether path is an ar archive nvlink reads no object
// from (archive.ReadsNoObject); it reads only the member headers.
func readsNoObject(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return false
	}
	return archive.ReadsNoObject(f, st.Size())
}

// readInput reads one file from disk and parses it into objects, through
// the cache when the link has one. A cached parse keeps the images of every
// architecture, since the next link may target another, and owns its
// bytes; without a cache the file is mapped for the link's duration. size
// is the bytes read from disk: 0 for a parse the cache held.
//
// A thin archive is parsed anew in every link, since a cached parse would
// not see its members' files change; the cache keeps only thinArchiveMark
// for it, so that telling one apart costs no read of the file.
func readInput(path string, cfg *Config, maps *fileMaps) (objs []*Object, size int, err error) {
	cache := cfg.Cache
	// libcudadevrt's images for the target are read to their ELF headers
	// (deferredImage), and whole where the link needs them (chooseDevrt):
	// not for the cache, which keeps every image read, nor for -dlto,
	// which reads the library's names before addInputs (gatherLTOInputs).
	lazy := cache == nil && !cfg.LTO && isSystemLibrary(path)
	load := func(sm int, cached bool) func() ([]*Object, error) {
		return func() ([]*Object, error) {
			cfg.testHook("parse " + path)
			var data []byte
			var mapped bool
			var err error
			if cache != nil {
				data, err = os.ReadFile(path)
			} else {
				data, mapped, err = maps.read(path, lazy)
			}
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil, &linkError{file: path, msg: "cannot open input file: no such file"}
				}
				// The path is the error's file already: say only why
				// ("is a directory", "permission denied"), as nvlink
				// says only "Could not open input file".
				why := err.Error()
				if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
					why = pe.Err.Error()
				}
				return nil, &linkError{file: path, msg: "cannot open input file: " + why}
			}
			size = len(data)
			if cached && archive.IsThinArchive(data) {
				return thinArchiveMark(path), nil
			}
			var alloc func(int) []byte // a cached parse owns its images: in the heap
			if cache == nil {
				alloc = maps.imageBuffer
			}
			objs, err := parseInput(path, data, sm, alloc, lazy)
			switch {
			case mapped && imagesCopied(objs, data):
				// Later passes read none of it.
				maps.releaseCopied(data)
				releaseSectionHeaders(maps, objs)
			case mapped:
				// Parsing read the headers and tables (and the kernel
				// mapped their neighbours); later passes fault in what they
				// read.
				if maps.copyRelocs {
					copyRelocations(objs, data)
				}
				maps.release(data)
			case err == nil && cache == nil:
				maps.trimSlab(data, objs)
			}
			return objs, err
		}
	}
	if cache == nil {
		objs, err = load(cfg.Arch, false)()
		return objs, size, err
	}
	objs, err = cache.Objects(path, load(0, true))
	if err == nil && isThinArchiveMark(objs) {
		objs, err = load(0, false)()
	}
	return objs, size, err
}

// imagesCopied says whether every object parsed from data has a device
// image of its own outside data (decompressed from a fatbinary), so that
// no pass reads data in place. An image deferredImage read only to its
// header counts as copied: libcudadevrt's, which a link rarely needs
// (chooseDevrt), and then reads whole from the fatbinary (loadDeferred:
// decompressed into an arena, or faulted in again from the page cache
// where it is not compressed). Held instead, the pages the
// kernel mapped around what parsing read of 11.8's library (the archive's,
// host object's and fatbinary's headers) stayed resident to the link's
// end: 868 of its 1,000 KiB (docs/benchmarks.md, perf30).
func imagesCopied(objs []*Object, data []byte) bool {
	lo := addr(data)
	for _, obj := range objs {
		if obj.deferred != nil {
			continue
		}
		if obj.ELF == nil || len(obj.ELF.Data) == 0 {
			return false
		}
		if p := addr(obj.ELF.Data); p >= lo && p-lo < uintptr(len(data)) {
			return false
		}
	}
	return len(objs) > 0
}

// thinArchiveMark is what the cache keeps for the thin archive at path:
// one object without an image, of a unit that says so.
func thinArchiveMark(path string) []*Object {
	return []*Object{{Name: path, unit: &unit{thinArchive: true}}}
}

// isThinArchiveMark says whether objs, from the cache, is thinArchiveMark.
func isThinArchiveMark(objs []*Object) bool {
	return len(objs) == 1 && objs[0].unit != nil && objs[0].unit.thinArchive
}

// copyMetadata moves the bytes of the sections that passes read outside
// an inputWalk (.nv.info, read by several passes; bank-2 constants,
// compared and split before layout) out of the input into one buffer of
// their own. When the input is a file mapping, every other section is read
// in a walk over the inputs (placeContributions copies merged data, the
// relocation and write passes read code and borrowed data), which faults
// a file's pages in and hands them back as it moves on, so nothing keeps
// the mapping resident. Tables that cubin.Parse decodes (symbols, strings,
// the call graph) are not read again at all; relocations are read from
// their sections' bytes by several passes, which a medium link copies out
// of the mapping too (copyRelocations).
func copyMetadata(ef *cubin.File) {
	n := 0
	keep := func(s *cubin.Section) bool {
		return s.Type == cubin.SHT_CUDA_INFO || isConstant2(s)
	}
	for _, s := range ef.Sections {
		if keep(s) {
			n += len(s.Data)
		}
	}
	buf := make([]byte, 0, n)
	for _, s := range ef.Sections {
		if keep(s) {
			start := len(buf)
			buf = append(buf, s.Data...)
			s.Data = buf[start:len(buf):len(buf)]
		}
	}
}

// copyRelocations moves the relocation sections of the cubins parsed from
// the file mapping data (a cubin, or a host object's uncompressed images)
// out of it, into one buffer per cubin. Several passes read every
// function's relocations (name registration, shared memory's uses,
// relocation), each in its own walk over the inputs, and each faulted the
// mapping's pages in again after the walk before had handed them back
// (fileMaps); nvcc puts a cubin's relocation sections together, after its
// tables and before its constants and code. The flat 400-object benchmark
// program (0.49 MB of relocations in 6.6 MB), the -G 100-object one (0.31
// MB in 6.3 MB) and the large 100-object one (15 interleaved runs under
// chrt -f 50): wall 44.2 -> 42.7, 20.8 -> 20.1 and 34.3 -> 33.5 ms, peak
// RSS 0.4 to 0.7 MiB more (docs/benchmarks.md, perf16). A link of
// largeInputBytes or more keeps them in place: the large 400-object
// program's 2.9 MB would take its memory past half of nvlink's.
func copyRelocations(objs []*Object, data []byte) {
	for _, obj := range objs {
		if obj.ELF == nil {
			continue
		}
		n := 0
		for _, rs := range obj.ELF.Relocs {
			if within(rs.Section.Data, data) {
				n += len(rs.Section.Data)
			}
		}
		buf := make([]byte, 0, n)
		for _, rs := range obj.ELF.Relocs {
			if s := rs.Section; within(s.Data, data) {
				start := len(buf)
				buf = append(buf, s.Data...)
				s.Data = buf[start:len(buf):len(buf)]
			}
		}
	}
}

// errSkipped marks an input that is neither ELF nor an archive and is not
// named .cubin: nvlink ignores such inputs, and so does cudalink, with a
// warning.
var errSkipped = errors.New("skipped")

// errSkippedName marks an input named without an extension or .so, which
// nvlink skips whatever it holds.
var errSkippedName = errors.New("skipped by name")

// errSkippedELF marks an ELF file that is neither a cubin nor relocatable
// (an executable or shared object of any machine): nvlink skips it.
var errSkippedELF = errors.New("skipped ELF file")

// errSkippedExec marks an executable cubin (ET_EXEC: whole-program code,
// nvcc -cubin without -dc) named .cubin: nvlink 11.8, 12.4 and 12.5 skip it
// without a word.
var errSkippedExec = errors.New("skipped executable cubin")

// skippedCubinError is errSkippedELF or errSkippedExec for a cubin: nvlink
// skips it, but its e_version tells the release that wrote it
// (skippedCubinVersion), which counts as the releases of the other inputs do
// (inputsRelease).
type skippedCubinError struct {
	err     error
	version uint32
}

func (e *skippedCubinError) Error() string { return e.err.Error() }
func (e *skippedCubinError) Unwrap() error { return e.err }

// errSkippedFatbin marks a fatbinary whose name does not end in .fatbin:
// nvlink ignores it.
var errSkippedFatbin = errors.New("skipped fatbinary")

func isELF(data []byte) bool { return len(data) >= 4 && string(data[:4]) == "\x7fELF" }

// parseObject parses a relocatable cubin, decodes the per-file records the
// passes need (relocations by section, call graph, prototypes) and checks
// the global .nv.info. name is used in messages.
func parseObject(name string, data []byte) (*Object, error) { return parseImage(name, data, true) }

// parseImage is parseObject; copyMeta says whether to move the sections
// the passes read outside a walk out of data (copyMetadata): not for an
// image that was decompressed, which no file mapping holds (7 KB of each
// image of the weak-template program of docs/benchmarks.md were copied
// for nothing).
func parseImage(name string, data []byte, copyMeta bool) (*Object, error) {
	if isELF(data) && len(data) >= 20 && !cubin.IsCubin(data) {
		return nil, &linkError{file: name, msg: "not a CUDA device object: an ELF file for another machine"}
	}
	ef, err := cubin.Parse(name, data)
	if err != nil {
		return nil, err
	}
	if ef.Header.Type != cubin.ET_REL && ef.Header.Type != cubin.ET_CUDA_EWP {
		// ET_CUDA_EWP (nvcc -c -ewp) is linked like ET_REL; its
		// differences (functions copied into kernels, shared memory laid
		// out without symbols) are handled where they matter.
		return nil, &linkError{file: name, msg: fmt.Sprintf("not a relocatable cubin (e_type %d); compile device code with nvcc -dc or -rdc=true", ef.Header.Type)}
	}
	if copyMeta {
		copyMetadata(ef)
	}
	obj := &Object{Name: name, ELF: ef, funcDescs: funcDescSymbols(ef)}
	if err := decodeCallgraph(obj); err != nil {
		return nil, err
	}
	if err := checkGlobalInfo(obj); err != nil {
		return nil, err
	}
	return obj, nil
}

// funcDescSymbols returns the symbol indices function descriptor
// relocations name (Object.funcDescs).
func funcDescSymbols(ef *cubin.File) []uint32 {
	var descs []uint32
	for _, rs := range ef.Relocs {
		for r := range rs.All() {
			if isFuncDesc(r.Type) {
				descs = append(descs, r.Sym)
			}
		}
	}
	slices.Sort(descs)
	return slices.Compact(descs)
}

// newInputFile makes this link's view of a parsed object.
func newInputFile(obj *Object) *inputFile {
	file := &inputFile{Object: obj, unit: obj.unit}
	file.sections = make([]*inputSection, len(obj.ELF.Sections))
	slab := make([]inputSection, len(obj.ELF.Sections)) // one allocation per file
	for i, s := range obj.ELF.Sections {
		slab[i] = inputSection{file: file, sec: s}
		file.sections[i] = &slab[i]
	}
	return file
}

// refuseArch refuses the first of files (the images of an input just
// added) that does not fit -arch, as nvlink does when it reads it, before
// it reads the inputs after it (whose "SM Arch not found" warnings it
// does not give then), and says whether it did. Members of an archive
// linked on demand are checked only if the link takes them
// (checkArchitectures).
func (ctx *linkContext) refuseArch(files []*inputFile) bool {
	for _, file := range files {
		if ctx.onDemandMember(file) {
			continue
		}
		if err := archMismatch(file.Object, ctx.config.Arch); err != nil {
			ctx.refuse(file.seq, refuseArch, err)
			return true
		}
	}
	return false
}

// archMismatch is the error for a cubin whose SM does not fit the target:
// nil for one of the same SM major and an equal or lower minor, which
// nvlink accepts.
func archMismatch(obj *Object, target int) error {
	if sm := obj.ELF.Header.SM(); !cubin.ArchCompatible(sm, target) {
		return archMismatchError(obj.Name, sm, target)
	}
	return nil
}

// archMismatchError says that the input name, of sm_<sm>, does not fit
// sm_<target>.
func archMismatchError(name string, sm, target int) error {
	return &linkError{file: name,
		msg: fmt.Sprintf("input is compiled for sm_%d, which does not match the target architecture sm_%d", sm, target)}
}

// checkArchitectures checks every input linked against -arch, as nvlink
// does (archMismatch): it stops at the first that does not fit, in
// command-line order (refusal.go). addInputs checked the inputs as it
// added them but for the members of archives linked on demand.
func checkArchitectures(ctx *linkContext) {
	target := ctx.config.Arch
	ctx.virtualSM = 0
	newest := 0 // the newest virtual SM
	for _, file := range ctx.files {
		h := file.ELF.Header
		if err := archMismatch(file.Object, target); err != nil {
			ctx.refuse(file.seq, refuseArch, err)
			continue
		}
		if v := h.VirtualSM(); ctx.virtualSM == 0 || v < ctx.virtualSM {
			ctx.virtualSM = v
		}
		newest = max(newest, h.VirtualSM())
	}
	ctx.yieldToNop = newest < 70
}

// inputWalk follows a pass that reads the inputs' bytes roughly in
// command-line order: when the pass moves on to another input, the pages
// of the one it left are handed back (fileMaps.releaseMapping).
type inputWalk struct{ last *inputFile }

func (w *inputWalk) visit(ctx *linkContext, file *inputFile) {
	if file == w.last {
		return
	}
	if w.last != nil {
		ctx.maps.releaseMapping(w.last.ELF.Data)
	}
	w.last = file
}

// byInput returns xs ordered by the index of the input each comes from
// (input, in [0, inputs)), those of one input in their order in xs: what
// slices.SortStableFunc by that index gives, by counting instead of
// merging. The passes that go through output sections member by member
// and then want the members input by input (relocation's and the
// writer's composed sections) had a stable sort take 5% of a flat
// 100-object link's instructions and 8% of a -G one's (callgrind,
// docs/benchmarks.md perf23).
func byInput[T any](xs []T, inputs int, input func(T) int) []T {
	if len(xs) < 2 {
		return xs
	}
	start := make([]int32, inputs+1)
	for _, x := range xs {
		start[input(x)+1]++
	}
	for i := 1; i <= inputs; i++ {
		start[i] += start[i-1]
	}
	out := make([]T, len(xs))
	for _, x := range xs {
		i := input(x)
		out[start[i]] = x
		start[i]++
	}
	return out
}

// serialReadBytes is how much of its inputs a link reads one file after
// the other on its own goroutine before it reads the rest in parallel
// (readInputs). Parsing maps a file and decodes its tables, about 22 us
// for a 16 KB cubin: reading 100 such files in parallel saved no wall
// time (2.2 ms serially and in parallel, --time, load 8), but woke a
// second thread, which under load made the pass wait for it (7 and 30 ms
// in 2 of 4 runs), and gave the second P's allocations spans of their
// own. Side by side (interleaved runs, medians; CPU = user + system):
// flat 100 objects (1.6 MB) peak RSS 10768 -> 10436 KiB, CPU 19.98 ->
// 20.11 ms (20 runs, load 9). Until 56ca4f8 a link read its inputs in
// parallel from the 17th on, whatever their size.
const serialReadBytes = 4 << 20
