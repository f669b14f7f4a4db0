package linker

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/cudalink/cudalink/linker/archive"
	"github.com/cudalink/cudalink/linker/cubin"
	"github.com/cudalink/cudalink/linker/fatbin"
	"github.com/cudalink/cudalink/linker/hostobj"
)

// hostInfo is what a host object tells the device link besides its device
// code: its module id (for --register-link-binaries) and the lists of
// kernels and variables its host code references (.nvHRKE and friends).
type hostInfo struct {
	moduleID string
	// refs holds the names in .nvHRKE, .nvHRKI, .nvHRDE, .nvHRDI, .nvHRCE
	// and .nvHRCI, in that order (hostobj.RefKind); internal names are
	// wildcard patterns.
	refs [hostobj.NumRefKinds][]string
	// hasRefSections says whether the object has the .nvHR* sections at
	// all: nvcc -dc writes them, possibly empty; nvcc -c (whole-program
	// code) and a host compiler alone do not, and one such object among
	// the inputs makes nvlink keep every kernel (hostKernelRefs).
	hasRefSections bool
	// prelinked are the module ids an nvcc -dlink output lists as the
	// objects it linked ("def <id>" entries of its __nv_module_id; its
	// own device code is an executable image nvlink does not link).
	prelinked []string
	// unexpectedID is a plain module id after the "def" entries (an
	// `ld -r` of a dlink output and other objects, in that order).
	unexpectedID string
}

// moduleIDOrNone is h's module id, "" for a plain cubin's (h nil).
func (h *hostInfo) moduleIDOrNone() string {
	if h == nil {
		return ""
	}
	return h.moduleID
}

// listsKernels says whether h's lists name a kernel (.nvHRKE, .nvHRKI).
func (h *hostInfo) listsKernels() bool {
	return len(h.refs[hostobj.KernelExtern])+len(h.refs[hostobj.KernelIntern]) > 0
}

// unit is one logical input: a cubin, or the device code of one host
// object or fatbinary, which may hold images for several architectures.
// Parsing keeps every image, so a parse can be cached whatever -arch a later
// link asks for; selectImages picks one per unit.
type unit struct {
	id        int        // unique within the input file
	host      *hostInfo  // nil for a plain cubin or .fatbin
	container bool       // the images come from a fatbinary container
	ptx       []ptxImage // the unit's PTX images, in file order (ptxcompile.go)
	nvvm      []irImage  // the unit's NVVM IR for -dlto, in file order (lto.go)
	hasELF    bool
	// system: from libcudadevrt*.a, linked only if the program uses it.
	system bool
	// member: an archive member (linked whole, or on demand with
	// --archive-mode=on-demand).
	member bool
	// skipped are the ELF images parsing left unread (for architectures
	// the target cannot use) and wholeFatbin the whole-program
	// fatbinary (.nv_fatbin, from nvcc -c), which nvlink does not link:
	// read only for a unit nothing is linked from, to tell which release
	// wrote it (imageVersion) and whether to say why it is ignored
	// (readWholeProgram).
	skipped     []fatbin.Entry
	wholeFatbin []byte
	// thinArchive marks what the cache keeps for a thin archive
	// (thinArchiveMark), which is parsed anew in every link; no link
	// sees such a unit.
	thinArchive bool
}

// minInputSize is the size of the smallest input nvlink 11.8 opens that
// is not an archive (an ELF32 header): it refuses a shorter file, whatever
// its name, with "Could not open input file" (exit 1).
const minInputSize = 52

// parseInput turns the contents of one input file into objects: a cubin,
// every ELF image of a host object or fatbinary, every member of an
// archive. sm, if not 0, keeps only images that could serve that target
// (the command line has no cache, so it need not parse the others).
// alloc, if not nil, gives the buffers compressed images are
// decompressed into (fileMaps.imageBuffer); nil, the heap.
//
// The kinds are told apart as nvlink 11.8 tells them: a file named without
// an extension is skipped whatever it holds, and one named .so unless it is
// an archive (but one under 52 bytes that is not an archive is an error); an
// archive by its contents, whatever its size and name; any other file under
// 52 bytes (an empty one too) is an error; an ELF file of another machine
// than CUDA's named .cubin is an error, an x86-64 object too; then a host
// object (ELF64 little-endian, relocatable, for x86-64 or another host
// machine such as aarch64) by its contents; any other ELF file is a cubin
// only when named .cubin (or, for 12.x, a relocatable one named .o; else
// see below), and skipped if it is an executable one; a fatbinary by the
// name .fatbin; a file of another kind is an error when named .cubin, .ptx
// or .fatbin, and is skipped otherwise (nvlink says nothing; cudalink
// warns).
func parseInput(path string, data []byte, sm int, alloc func(int) []byte, lazy bool) ([]*Object, error) {
	// nvlink compares extensions as spelt: K.CUBIN is no cubin to it, nor
	// E.FATBIN a fatbinary, and D.SO is linked (11.8, 12.4, 12.5;
	// upper-case-extensions-not-cubin-fatbin-so-sm80).
	ext := filepath.Ext(path)
	base := filepath.Base(path)
	switch {
	case !strings.Contains(base, ".") && (isArchive(data) || len(data) >= minInputSize),
		ext == ".so" && !isArchive(data) && len(data) >= minInputSize:
		// nvlink skips an input whose name has no extension, whatever it
		// holds (cubins, host objects, archives), and one named as a
		// shared library that is not an archive, without a word. An
		// archive named .so on the command line is linked as any other
		// (11.8, 12.4, 12.5; -l never finds one: findLibrary).
		return nil, errSkippedName
	case isArchive(data):
		return parseArchive(path, data, sm, alloc, lazy)
	case len(data) < minInputSize:
		return nil, &linkError{file: path, msg: fmt.Sprintf(
			"cannot open input file: %d bytes, too short for an object (nvlink: Could not open input file)", len(data))}
	case ext == ".cubin" && isELF(data) && !cubin.IsCubin(data):
		// nvlink takes a file named .cubin (exactly: a host object named
		// .CUBIN is linked as one) for a cubin whatever it holds, so an
		// x86-64 object under that name (a host object renamed, a g++
		// object) stops the link as any other machine's: "cubin not a
		// device elf?", exit status 1 (11.8, 12.4, 12.5).
		var msg string
		if machine := le.Uint16(data[18:]); machine == cubin.EM_CUDA {
			// CUDA's machine, so not ELF64 (IsCubin; EI_CLASS 1):
			// nvlink 11.8 stops with "Input file '...' size does not
			// match target '-m64'", exit status 1; 12.4 and 12.5 skip it
			// without a word, as other corrupt inputs (docs/toolkits.md).
			msg = fmt.Sprintf("not a CUDA device object: a 32-bit ELF file (ELF class %d; a cubin is ELF64, class 2) "+
				"for CUDA's machine (nvlink: Input file size does not match target '-m64')", data[4])
		} else {
			msg = fmt.Sprintf("not a CUDA device object: an ELF file for another machine (e_machine %d, not %d), "+
				"which nvlink takes for a cubin by its name (nvlink: cubin not a device elf?)", machine, cubin.EM_CUDA)
		}
		if hostobj.IsHostObject(data) {
			msg += "; a host object (nvcc -dc) is linked under the name .o"
		}
		return nil, &linkError{file: path, msg: msg}
	case hostobj.IsHostObject(data):
		return parseHostObject(path, data, sm, &unit{id: 1}, alloc, lazy)
	case isELF(data) && ext != ".cubin":
		// Not a host object, and not named .cubin: a cubin under another
		// name, or a 32-bit or big-endian ELF file. nvlink links no
		// device code from it, but takes a relocatable one (a cubin
		// named .obj, or .o for 11.8) as a host
		// object without host-reference lists, which makes it keep every
		// kernel; it skips the others (executables, -ewp images)
		// silently.
		if len(data) >= 18 && le.Uint16(data[16:]) == hostobj.ET_REL {
			if filepath.Ext(path) == ".o" && cubin.IsCubin(data) {
				// nvlink 12.4 and 12.5 link a relocatable cubin named
				// .o (exactly: not .O, .obj, .bin) as a cubin; 11.8
				// does as above. Which release links it is known once
				// every input is read (addInputs). One that does not
				// parse is what 11.8 makes of it.
				if obj, err := parseObject(path, data); err == nil {
					obj.unit = &unit{id: 1, hasELF: true}
					obj.namedO = true
					return []*Object{obj}, nil
				}
			}
			obj := hostLikeObject(path)
			obj.cubinAsHost = cubin.IsCubin(data)
			obj.version = skippedCubinVersion(path, data)
			return []*Object{obj}, nil
		}
		return nil, skippedDevice(path, data, errSkippedELF)
	case isELF(data) && cubin.IsCubin(data) && len(data) >= 18 && le.Uint16(data[16:]) == cubin.ET_EXEC:
		// An executable cubin named .cubin: nvlink skips it silently
		// (its kernels are not in the output; alone, it makes the empty
		// cubin of a link without device code).
		return nil, skippedDevice(path, data, errSkippedExec)
	case isELF(data):
		obj, err := parseObject(path, data)
		if err != nil {
			return nil, brokenCubin(data, err)
		}
		obj.unit = &unit{id: 1, hasELF: true}
		return []*Object{obj}, nil
	case ext == ".fatbin":
		if !fatbin.IsFatbin(data) {
			return nil, &linkError{file: path, msg: "not a fatbinary (nvlink: fatbin wrong format?)"}
		}
		// nvlink reads the first container alone, as of a host object's
		// __nv_relfatbin (fatbin-concatenated-first-only-sm80).
		entries, err := fatbin.Parse(path, fatbin.First(data))
		if err != nil {
			return nil, err
		}
		return parseFatbin(path, entries, sm, &unit{id: 1}, alloc, lazy)
	case ext == ".cubin":
		// nvlink insists that a .cubin is ELF; parseObject says why not.
		_, err := parseObject(path, data)
		return nil, err
	case filepath.Ext(path) == ".ptx": // nvlink: this spelling only
		return parsePTXFile(path, data)
	case fatbin.IsFatbin(data):
		// nvlink reads a fatbinary only from a file named .fatbin.
		return nil, errSkippedFatbin
	}
	// nvlink skips inputs of other kinds without a word; cudalink says so,
	// and goes on as nvlink does.
	return nil, errSkipped
}

// skippedCubinVersion is the release that wrote data (its e_version) if data is
// a cubin, else 0. nvlink links no device code from a cubin it skips or
// takes for a host object (one not named .cubin), and then writes its own
// release's output whatever the file says; such a file still tells which
// release made it, as a host object's images for other architectures do,
// so that a link of nothing else gives that release's empty cubin
// (chooseToolkit).
func skippedCubinVersion(path string, data []byte) uint32 {
	if !cubin.IsCubin(data) {
		return 0
	}
	h, err := cubin.ParseHeader(path, data)
	if err != nil {
		return 0
	}
	return h.Version
}

// skippedDevice is err, one of the errors of an input nvlink skips, with
// the release that wrote it when it is a cubin (skippedCubinVersion).
func skippedDevice(path string, data []byte, err error) error {
	if v := skippedCubinVersion(path, data); v != 0 {
		return &skippedCubinError{err, v}
	}
	return err
}

// hostLikeObject is what nvlink 11.8 makes of a relocatable ELF file that
// is neither a host object nor named .cubin: a host object with
// no device code and no host-reference lists.
func hostLikeObject(path string) *Object {
	return &Object{Name: path, unit: &unit{id: 1, host: &hostInfo{}}}
}

// parseHostObject extracts the relocatable device code of an nvcc -dc host
// object. An object with only whole-program code (.nv_fatbin, from nvcc -c
// without -rdc) has nothing to link: nvlink skips it, and so does cudalink.
func parseHostObject(name string, data []byte, sm int, u *unit, alloc func(int) []byte, lazy bool) ([]*Object, error) {
	ho, err := hostobj.Parse(name, data)
	if err != nil {
		return nil, err
	}
	u.host = &hostInfo{moduleID: ho.ModuleID, refs: ho.HostRefs, hasRefSections: ho.HasHostRefSections}
	// An nvcc -dlink output's ids are all "def <id>". After `ld -r`, the
	// first id tells: a plain one is the object's, and nvlink reads no
	// other; a "def" one followed by a plain one is an error to nvlink
	// with --register-link-binaries (prelinkedModules).
	if len(ho.ModuleIDs) > 0 && strings.HasPrefix(ho.ModuleIDs[0], "def ") {
		for _, id := range ho.ModuleIDs {
			def, ok := strings.CutPrefix(id, "def ")
			if !ok {
				u.host.unexpectedID = id
				break
			}
			u.host.prelinked = append(u.host.prelinked, def)
		}
	}
	u.wholeFatbin = ho.Fatbin
	if len(ho.RelFatbin) == 0 {
		return []*Object{{Name: name, unit: u}}, nil
	}
	// nvlink links the first container alone: of an `ld -r` of several
	// nvcc -dc objects, the first object's device code (measured with
	// 11.8, 12.4 and 12.5: the others' names are undefined, and an
	// sm_86-only first object linked for sm_80 is "SM Arch not found"
	// whatever the others hold).
	// Its errors give offsets in the section and in the object: one in
	// the fatbinary alone points nowhere a user can look.
	entries, err := fatbin.ParseSection(name, hostobj.SectionRelFatbin, ho.Section(hostobj.SectionRelFatbin).Offset, fatbin.First(ho.RelFatbin))
	if err != nil {
		return nil, err
	}
	return parseFatbin(name, entries, sm, u, alloc, lazy)
}

// readWholeProgram reads an nvcc -c object's whole-program fatbinary
// once, for what is said of a unit nothing is linked from: the newest
// e_version of its ELF images (0 if none can be read: a broken
// whole-program fatbinary only leaves the release unknown, and nvlink
// does not read it either), and whether it holds device code: an image
// with a code section, or PTX with a function. nvcc -c of a file without
// device code embeds images without code, which are no reason to say the
// object was compiled without -rdc. An image that cannot be read counts
// as code. Without needCode (an archive member, which nvlink and cudalink
// skip without a word), and once code is found, only the ELF images'
// headers are decompressed: a library as NVIDIA ships them holds thousands
// of images, and nvcc -arch=all embeds one per architecture.
func readWholeProgram(name string, data []byte, needCode bool) (version uint32, hasCode bool) {
	if len(data) == 0 {
		return 0, false
	}
	entries, err := fatbin.Parse(name, data)
	if err != nil {
		return 0, true
	}
	for _, e := range entries {
		if !needCode || hasCode {
			// Only the release is left to find: the ELF images' headers
			// tell it, without decompressing the rest of them.
			if e.Kind == fatbin.KindELF {
				version = max(version, headerVersion(name, e))
			}
			continue
		}
		if e.Kind != fatbin.KindELF && e.Kind != fatbin.KindPTX {
			continue
		}
		image, err := e.Data()
		if err != nil {
			hasCode = true
			continue
		}
		if e.Kind == fatbin.KindPTX {
			hasCode = hasCode || bytes.Contains(image, []byte(".entry")) || bytes.Contains(image, []byte(".func"))
			continue
		}
		if h, err := cubin.ParseHeader(name, image); err == nil {
			version = max(version, h.Version)
		}
		if !hasCode {
			hasCode = imageHasCode(name, image)
		}
	}
	return version, hasCode
}

// imageHasCode says whether an ELF image has a code section; one that
// cannot be parsed counts as code.
func imageHasCode(name string, image []byte) bool {
	ef, err := cubin.Parse(name, image)
	if err != nil {
		return true
	}
	for _, sec := range ef.Sections {
		if strings.HasPrefix(sec.Name, ".text.") {
			return true
		}
	}
	return false
}

// parseFatbin parses the ELF images among a fatbinary container's entries
// (fatbin.Parse, fatbin.ParseSection); alloc, if
// not nil, gives the buffers compressed images are decompressed into
// (fileMaps.imageBuffer), as it does for parseInput's other kinds. With
// lazy (libcudadevrt's images: deferredImage), an image for the target
// is only decompressed as far as its ELF header.
func parseFatbin(name string, entries []fatbin.Entry, sm int, u *unit, alloc func(int) []byte, lazy bool) ([]*Object, error) {
	u.container = true
	var objs []*Object
	for _, e := range entries {
		if e.Kind == fatbin.KindPTX {
			if e.Is64Bit() {
				u.ptx = append(u.ptx, ptxImage{sm: e.SM, options: e.Options, entry: e})
			}
			continue
		}
		if e.Kind == fatbin.KindNVVM {
			if e.Is64Bit() {
				u.nvvm = append(u.nvvm, irImage{sm: e.SM, options: e.Options, entry: e})
			}
			continue
		}
		if e.Kind != fatbin.KindELF {
			continue
		}
		u.hasELF = true
		if sm != 0 && !cubin.ArchCompatible(e.SM, sm) {
			u.skipped = append(u.skipped, e)
			continue
		}
		obj := deferredImage(name, e, lazy)
		if obj == nil {
			var err error
			if obj, err = parseEntry(name, e, alloc); err != nil {
				return nil, err
			}
		}
		obj.unit = u
		objs = append(objs, obj)
	}
	if len(objs) == 0 {
		// Keep the unit: selection reports what it holds instead.
		objs = append(objs, &Object{Name: name, unit: u})
	}
	return objs, nil
}

// parseEntry decompresses (with alloc, as parseFatbin) and parses the
// fatbinary ELF image e of the input name; an error names the file, then
// the image.
func parseEntry(name string, e fatbin.Entry, alloc func(int) []byte) (*Object, error) {
	image, err := e.DataIn(alloc)
	if err != nil {
		return nil, err
	}
	obj, err := parseImage(name, image, e.Compression == fatbin.CompressionNone)
	if fe := (*cubin.FormatError)(nil); errors.As(err, &fe) {
		// The offset is the image's: name the file, then the image.
		fe.File = imageLabel(name, e)
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", imageLabel(name, e), err)
	}
	return obj, nil
}

// imageLabel names the fatbinary image e of the input name in an error
// about its contents, with where the image is stored in the input (the
// offsets of an image's error are the image's): "d.o:(__nv_relfatbin):
// sm_80 image at offset 0x50 of the section (0x380 of the object)" or
// "k.fatbin: sm_80 image at offset 0x50". A compressed image says so: its
// offsets are in the decompressed bytes.
func imageLabel(name string, e fatbin.Entry) string {
	kind := ""
	if e.Compression != fatbin.CompressionNone {
		kind = " (" + e.Compression.String() + "-compressed)"
	}
	section, off, fileOff := e.Stored()
	if section == "" {
		return fmt.Sprintf("%s: sm_%d image%s at offset 0x%x", name, e.SM, kind, off)
	}
	return fmt.Sprintf("%s:(%s): sm_%d image%s at offset 0x%x of the section (0x%x of the object)",
		name, section, e.SM, kind, off, fileOff)
}

// deferredImage is, with lazy, the object of the fatbinary ELF image e
// whose ELF header alone is read: what chooses an image and tells the
// inputs' release (selectImages, chooseToolkit) reads nothing else of it,
// and libcudadevrt's images are read whole only where the link needs the
// library (chooseDevrt, loadDeferred). nvcc -dlink gives -lcudadevrt to
// every link, and a link that calls nothing of it decompressed and parsed
// its image for nothing: 3.1 M of the 7.9 M instructions of the flat
// 10-object benchmark program's link with 11.8's library, 5.4 M of 11.1 M
// with 12.4's (docs/benchmarks.md, perf28). nil without lazy, or when the
// header cannot be read: the image is then parsed at once, and its error
// reported where it was.
func deferredImage(name string, e fatbin.Entry, lazy bool) *Object {
	if !lazy {
		return nil
	}
	head, err := e.Head(64)
	if err != nil {
		return nil
	}
	h, err := cubin.ParseHeader(name, head)
	if err != nil {
		return nil
	}
	return &Object{Name: name, ELF: &cubin.File{Name: name, Header: h}, deferred: &e}
}

// loadDeferred reads whole the images of objs that deferredImage left to
// their header (alloc as parseFatbin's); each object keeps its unit.
func loadDeferred(objs []*Object, alloc func(int) []byte) error {
	for _, obj := range objs {
		if obj.deferred == nil {
			continue
		}
		full, err := parseEntry(obj.Name, *obj.deferred, alloc)
		if err != nil {
			return err
		}
		full.unit = obj.unit
		*obj = *full
	}
	return nil
}

// parseArchive parses every member of an ar archive: host objects from
// nvcc -lib and, beyond nvlink (which ignores them), relocatable cubins.
// Members are linked whole, wherever the archive appears, as nvlink 11.8
// does. Of the other members, nvlink takes an ELF file of any other kind
// (an executable cubin, a shared object, a 32-bit or big-endian object)
// as a host object without device code, which makes it keep
// every kernel; and it reads no further than a member that is not ELF (a
// text file, a fatbinary, PTX, an empty file): the members from there on
// are not linked, which an archiveCutError says.
func parseArchive(name string, data []byte, sm int, alloc func(int) []byte, lazy bool) ([]*Object, error) {
	ar, err := archive.Parse(name, data)
	if err != nil {
		return nil, err
	}
	var objs []*Object
	for i, m := range ar.Members {
		memberName := fmt.Sprintf("%s(%s)", name, m.Name)
		if ar.Thin {
			if m.Data, err = readThinMember(memberName, m.Name); err != nil {
				return nil, err
			}
		}
		u := &unit{id: i + 1, member: true}
		var got []*Object
		switch {
		case hostobj.IsHostObject(m.Data):
			got, err = parseHostObject(memberName, m.Data, sm, u, alloc, lazy)
		case cubin.IsCubin(m.Data) && le.Uint16(m.Data[16:]) != cubin.ET_EXEC:
			var obj *Object
			obj, err = parseObject(memberName, m.Data)
			if obj != nil {
				u.hasELF = true
				obj.unit = u
				got = []*Object{obj}
			}
		case isELF(m.Data):
			u.host = &hostInfo{}
			got = []*Object{{Name: memberName, unit: u}}
		default:
			return objs, &archiveCutError{member: m.Name, rest: len(ar.Members) - i - 1}
		}
		if err != nil {
			return nil, err
		}
		objs = append(objs, got...)
	}
	return objs, nil
}

// isArchive says whether data is an ar archive, thin or not.
func isArchive(data []byte) bool { return archive.IsArchive(data) || archive.IsThinArchive(data) }

// readThinMember reads the file a thin archive's member names, as nvlink
// 11.8, 12.4 and 12.5 do: the name up to its first '/' (GNU ar writes the
// path relative to the archive's directory, and nvlink cuts it there),
// opened relative to the working directory, not the archive's. So a
// member in a subdirectory (ar rcsT lib.a sub/x.o: nvlink opens the
// directory sub and fails, "Memory allocation failure") or named by an
// absolute path (an empty name: "Could not open input file") stops the link, as a
// thin archive used from another directory does when the name is not
// there (exit status 1 in each case).
func readThinMember(memberName, stored string) ([]byte, error) {
	path := stored
	if i := strings.IndexByte(path, '/'); i >= 0 {
		path = path[:i]
	}
	fail := func(why string) error {
		return &linkError{file: memberName, msg: fmt.Sprintf("cannot open thin archive member: nvlink opens '%s' (the stored name %q up to its first '/', relative to the working directory): %s", path, stored, why)}
	}
	if path == "" {
		return nil, fail("an empty name")
	}
	st, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fail("no such file")
		}
		return nil, fail(err.Error())
	}
	if !st.Mode().IsRegular() {
		return nil, fail("not a regular file")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fail(err.Error())
	}
	return data, nil
}

// selectImages keeps, of each unit's images, the one nvlink would link for
// -arch: the exact architecture, else the same major with the highest
// lower minor; but PTX for a higher architecture than that image (and not
// above the target) wins, compiled by ptxas (ptxcompile.go), as does PTX
// when there is no image at all. A plain cubin is kept whatever its
// architecture, so that checkArchitectures can say why it does not fit. A
// unit with nothing for the target is skipped with nvlink's warning
// (-suppress-arch-warning silences it), and given as an object without an
// image (ELF nil): its host-reference lists (or their absence) and its
// module id still count.
func (ctx *linkContext) selectImages(objs []*Object) []*Object {
	target, images := ctx.config.Arch, ctx.config.imageTarget()
	var out []*Object
	for group := range unitGroups(objs) {
		u := group[0].unit
		if ctx.lto.units[u] {
			// Its IR went to libnvvm: the cubin made of all of them is
			// linked where ctx.lto.at says (lto.go); the unit keeps its
			// place for --register-link-binaries.
			out = append(out, &Object{Name: group[0].Name, unit: u, ltoIR: true})
			if len(ctx.lto.objs) > 0 && !ctx.lto.placed && ctx.lto.at == u {
				out = append(out, ctx.lto.objs...)
				ctx.lto.placed = true
			}
			continue
		}
		best, ptx := chooseImage(group, images)
		name := group[0].Name
		var wholeCode bool // the unit's whole-program fatbinary holds code
		if best == nil && ptx == nil {
			var wholeVersion uint32
			wholeVersion, wholeCode = readWholeProgram(name, u.wholeFatbin, !u.member)
			if len(ctx.lto.objs) > 0 && !ctx.lto.placed && ctx.lto.at == u {
				// -dlto's cubins go where the last input without
				// code of its own stands (lto.go).
				out = append(out, ctx.lto.objs...)
				ctx.lto.placed = true
			}
			out = append(out, &Object{Name: name, unit: u, version: max(imageVersion(group), wholeVersion)})
		}
		switch {
		case ptx == nil && best == nil && u.irFor(target) != nil && !ctx.config.LTO:
			ctx.errorf("LTO objects found, use -dlto: %s holds only NVVM IR for sm_%d, which is linked with -dlto -nvvmpath=<CUDA toolkit>/nvvm", name, target)
		case ptx != nil:
			if obj := ctx.compiledObject(name, u, ptx); obj != nil {
				out = append(out, obj)
			} else if ctx.ptxFailed {
				return out
			}
		case best != nil:
			out = append(out, best)
		case !u.hasELF && len(u.ptx) == 0 && len(u.nvvm) == 0:
			// (NVVM IR for higher architectures alone is device code:
			// nvlink warns below and --register-link-binaries lists it,
			// ir-only-for-higher-arch-listed-sm75.)
			// nvlink skips both without a word. A host object with no
			// device code at all is an ordinary input of a device link,
			// and so is an archive member compiled without -rdc: NVIDIA's
			// static libraries hold hundreds of them.
			if u.wholeFatbin != nil && !u.member {
				ctx.noRDC = append(ctx.noRDC, name)
			}
			if wholeCode && !u.member {
				ctx.ownWarnf("ignoring input %s: it holds no relocatable device code (compile it with nvcc -dc or -rdc=true)", name)
			}
		case !ctx.config.SuppressArchWarning && !u.member && !ctx.lto.announced:
			// (nvlink says nothing about an archive member; -dlto said
			// it in its place among the info lines, announceInputs.)
			if ctx.mergeWarnf("SM Arch ('%s') not found in '%s'", ctx.config.archName(), name) {
				return out
			}
		}
	}
	return out
}

// imageTarget is what chooseImage picks a unit's images for.
type imageTarget struct {
	sm int // -arch's SM: 90 for sm_90 and for sm_90a
	// generic: a -dlto link for a target that is not arch-specific (sm_90,
	// which nvcc -dlink -dlto -arch=sm_90a gives nvlink): nvlink 12.x then
	// takes no sm_90a image of a fatbinary (host object, .fatbin, archive
	// member), not even the only one, but the unit's sm_90 image or
	// compute_90 PTX, else skips it ("SM Arch ('sm_90') not found"); its
	// compute_90a PTX it compiles, and ptxas refuses. Without -dlto, or
	// for sm_90a, or for a relocatable cubin, it takes the sm_90a image
	// (measured with 12.4 and 12.5 on objects whose sm_90a code differs
	// from their sm_90 code: cuda12-lto-sm90-*).
	generic bool
}

// imageTarget is what the link takes the inputs' images for.
func (cfg *Config) imageTarget() imageTarget {
	return imageTarget{sm: cfg.Arch, generic: cfg.LTO && !cfg.ArchSpecific}
}

// chooseImage picks, among the parsed images of one unit, what nvlink
// links for sm_<target>: an ELF image (best), or a PTX image to compile.
// Measured with nvlink 11.8: of the ELF images of the same major and a
// minor not above the target, the highest; of the PTX images not above the
// target, the highest; the PTX when its architecture is higher than the
// ELF image's (compute_86 beats sm_80 for sm_86 and sm_89, sm_86 beats
// compute_86). Among ELF images of the same SM the last in file order
// wins (11.8, 12.4, 12.5: nvcc -gencode arch=compute_70,code=sm_75
// -gencode arch=compute_75,code=sm_75 makes two sm_75 images, and nvlink
// links the second, whichever virtual architecture it was compiled from;
// fatbinary --create with two images of one profile alike), but that an
// sm_90a image beats an sm_90 one in either order (but see
// imageTarget.generic); among PTX images of the same architecture the
// first wins, but for the target's own the last (ptxFor). A .ptx file's
// text is always compiled.
func chooseImage(objs []*Object, target imageTarget) (best *Object, ptx *ptxImage) {
	u := objs[0].unit
	for _, obj := range objs {
		switch {
		case obj.ELF == nil:
		case !u.container:
			best = obj
		case !cubin.ArchCompatible(obj.ELF.Header.SM(), target.sm):
		case target.generic && obj.ELF.Header.Flags&cubin.EF_CUDA_ARCH_SPECIFIC != 0:
		case best == nil || obj.ELF.Header.SM() > best.ELF.Header.SM():
			best = obj
		case obj.ELF.Header.SM() == best.ELF.Header.SM() &&
			(obj.ELF.Header.Flags&cubin.EF_CUDA_ARCH_SPECIFIC != 0 || best.ELF.Header.Flags&cubin.EF_CUDA_ARCH_SPECIFIC == 0):
			// nvlink 12.x takes an sm_90a image over an sm_90 one of
			// the same unit, in either order and for either target.
			best = obj
		}
	}
	if !u.container {
		if len(u.ptx) == 1 && u.ptx[0].file {
			return nil, &u.ptx[0]
		}
		return best, nil
	}
	p := u.ptxFor(target.sm)
	if p != nil && (best == nil || p.sm > best.ELF.Header.SM()) {
		return nil, p
	}
	return best, nil
}

// imageVersion returns the newest e_version (the release of the tool that
// wrote it) of the ELF images of a unit nothing is linked from: those
// parsed for other architectures and those left unread (its whole-program
// fatbinary's are readWholeProgram's), or what parsing said of a cubin
// taken for a host object (skippedCubinVersion); 0 if it has none. A link
// of such units alone is still written as the release that built them
// would write it (chooseToolkit).
func imageVersion(group []*Object) uint32 {
	u := group[0].unit
	var v uint32
	for _, obj := range group {
		if obj.ELF != nil {
			v = max(v, obj.ELF.Header.Version)
		} else {
			v = max(v, obj.version)
		}
	}
	return max(v, u.skippedRelease(group[0].Name))
}

// skippedRelease is the newest release the unit's skipped images (of
// input name) record in their ELF headers; 0 if none tells.
func (u *unit) skippedRelease(name string) uint32 {
	var v uint32
	for _, e := range u.skipped {
		v = max(v, headerVersion(name, e))
	}
	return v
}

// headerVersion returns the e_version of a fatbinary's ELF image, reading
// (decompressing) its header alone; 0 if that cannot be read.
func headerVersion(name string, e fatbin.Entry) uint32 {
	if data, err := e.Head(64); err == nil {
		if h, err := cubin.ParseHeader(name, data); err == nil {
			return h.Version
		}
	}
	return 0
}

// ptxFor returns the unit's PTX image of the highest architecture a
// target can compile, or nil: of images for the target's own SM the last
// in file order, of older ones the first of equals (measured with 11.8,
// 12.4 and 12.5 on fatbinaries of two compute_80 images: sm_80 links the
// second, sm_86 the first). compute_90 and compute_90a PTX are of one
// SM: nvcc -dc -arch=compute_90a writes compute_90's, then compute_90a's,
// so nvlink compiles the compute_90a PTX for sm_90 (and ptxas refuses it).
func (u *unit) ptxFor(target int) *ptxImage {
	var best *ptxImage
	for i := range u.ptx {
		p := &u.ptx[i]
		switch {
		case p.sm > target:
		case p.sm == target, best == nil, p.sm > best.sm:
			best = p
		}
	}
	return best
}

// archiveCutError marks an archive nvlink reads only up to its member that
// is not ELF: neither that member nor any after it is linked.
type archiveCutError struct {
	member string
	rest   int // members after it
}

func (e *archiveCutError) Error() string {
	after := ""
	switch {
	case e.rest == 1:
		after = " and the member after it"
	case e.rest > 1:
		after = fmt.Sprintf(" and the %d members after it", e.rest)
	}
	return fmt.Sprintf("%s%s: it is not an object, and nvlink reads an archive no further", e.member, after)
}

// readFailed says whether err, from reading an input, means that nothing
// of the input is linked: an archive read up to a member that is not an
// object still links the members before it.
func readFailed(err error) bool {
	_, cut := err.(*archiveCutError)
	return err != nil && !cut
}

// brokenCubinError is a cubin that does not parse (cut short, corrupt)
// but whose ELF header holds its e_flags and e_version: nvlink 11.8 reads
// those first, and refuses the file for its architecture, then for its
// release, before it finds it broken (11.8 with the first 53 bytes or
// more of an sm_75 cubin for -arch=sm_80: "Input file 'b.cubin' arch does
// not match target 'sm_80'"; of a 12.4 cubin: "newer than toolkit").
// headerRefusal makes the refusal.
type brokenCubinError struct {
	err     error
	sm      int
	version uint32
}

func (e *brokenCubinError) Error() string { return e.err.Error() }
func (e *brokenCubinError) Unwrap() error { return e.err }

// brokenCubin is err, what parsing the cubin data returned, with the
// header fields nvlink 11.8 checks when data holds them: more than 52
// bytes (nvlink 11.8 links on without a word past a cubin of 52 bytes,
// the end of e_flags, which cudalink refuses as it refuses every cubin
// cut short; 12.4 and 12.5 skip every such cubin: docs/toolkits.md).
func brokenCubin(data []byte, err error) error {
	if len(data) <= 52 || !cubin.IsCubin(data) {
		return err
	}
	return &brokenCubinError{err: err, sm: int(le.Uint32(data[48:]) & cubin.EF_CUDA_SM_MASK), version: le.Uint32(data[20:])}
}
