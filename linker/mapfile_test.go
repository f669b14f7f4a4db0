//go:build linux

package linker

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/cudalink/cudalink/linker/archive"
)

// pagePresent returns a function that says whether the page holding b[0]
// is mapped in the process (/proc/self/pagemap); the test is skipped
// where the kernel has no pagemap.
func pagePresent(t *testing.T) func(b []byte) bool {
	pagemap, err := os.Open("/proc/self/pagemap")
	if err != nil {
		t.Skipf("no pagemap: %v", err)
	}
	t.Cleanup(func() { pagemap.Close() })
	return func(b []byte) bool {
		var e [8]byte
		page := int64(addr(b)) / int64(os.Getpagesize())
		if _, err := pagemap.ReadAt(e[:], page*8); err != nil {
			t.Fatal(err)
		}
		return binary.LittleEndian.Uint64(e[:])>>63 == 1
	}
}

// TestFileMapsReleaseBatch: the files the passes leave are released
// together once they hold more than releaseBatchBytes, and only then; a
// file left twice counts once; the pages of every file released are gone
// from the process (/proc/self/pagemap), adjacent mappings or not.
func TestFileMapsReleaseBatch(t *testing.T) {
	present := pagePresent(t)

	dir := t.TempDir()
	const n = 5
	size := releaseBatchBytes/4 - 100 // four files fit, the fifth does not
	var m fileMaps
	defer m.unmapAll()
	data := make([][]byte, n)
	sum := 0
	for i := range n {
		path := filepath.Join(dir, fmt.Sprintf("f%d.cubin", i))
		if err := os.WriteFile(path, make([]byte, size), 0o644); err != nil {
			t.Fatal(err)
		}
		d, mapped, err := m.read(path, false)
		if err != nil || !mapped || len(d) != size {
			t.Fatalf("read %s: %d bytes, mapped %v, %v", path, len(d), mapped, err)
		}
		data[i] = d
		for off := 0; off < len(d); off += 4096 {
			sum += int(d[off]) // fault every page in
		}
	}
	t.Logf("read %d files (byte sum %d)", n, sum)
	for i, d := range data {
		if !present(d) {
			t.Fatalf("file %d: not resident after reading it", i)
		}
	}

	m.release(data[0]) // what parsing does
	for i := 1; i < 4; i++ {
		m.releaseMapping(data[i][100:200]) // a pass leaving the file that holds a section
		m.releaseMapping(data[i])          // twice: counted once
	}
	m.releaseMapping(make([]byte, 8)) // not a mapping: nothing happens
	if len(m.left) != 4 || m.leftBytes != 4*size {
		t.Fatalf("after four files: %d left, %d bytes; want 4, %d", len(m.left), m.leftBytes, 4*size)
	}
	for i := range 4 {
		if !present(data[i]) {
			t.Errorf("file %d released before the batch was full", i)
		}
	}
	m.releaseMapping(data[4])
	if len(m.left) != 0 || m.leftBytes != 0 {
		t.Errorf("after the fifth: %d left, %d bytes; want none", len(m.left), m.leftBytes)
	}
	for i, d := range data {
		if present(d) || present(d[len(d)-1:]) {
			t.Errorf("file %d: still resident after the batch was released", i)
		}
		if d[len(d)-1] != 0 { // and still readable
			t.Errorf("file %d: reads %d after release", i, d[len(d)-1])
		}
	}

	// Held: every file left stays resident until the hold ends.
	m.hold(true)
	for i, d := range data {
		sum += int(d[0]) + int(d[len(d)-1])
		m.releaseMapping(d)
		if !present(d) {
			t.Errorf("held: file %d released", i)
		}
	}
	m.hold(false)
	for i, d := range data {
		if present(d) {
			t.Errorf("file %d: still resident after the hold ended", i)
		}
	}
	t.Logf("byte sum %d", sum)
}

// TestFileMapsHoldReleasesCopied: a host object whose device image parsing
// decompressed into the heap (nvcc -dc compresses it) is not held by a
// link that holds its inputs: hold(true), as "add inputs" calls it for a
// small link, hands its pages back; a cubin, which the passes read in
// place, stays resident.
func TestFileMapsHoldReleasesCopied(t *testing.T) {
	present := pagePresent(t)
	host := filepath.Join("..", "tests", "corpus", "cases", "ar-archive-of-host-objects", "main.o")
	cubinPath := filepath.Join("..", "tests", "corpus", "cases", "many-files-24", "f00.cubin")
	for _, p := range []string{host, cubinPath} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("corpus input %s: %v", p, err)
		}
	}
	var m fileMaps
	defer m.unmapAll()
	m.hold(true) // as readInputs reads its first inputs
	cfg := &Config{Arch: 80}
	mapped := map[string][]byte{} // each input's mapping
	seen := map[uintptr]bool{}
	for _, p := range []string{host, cubinPath} {
		objs, _, err := readInput(p, cfg, &m)
		if err != nil || len(objs) != 1 || objs[0].ELF == nil {
			t.Fatalf("readInput(%s): %d objects, %v", p, len(objs), err)
		}
		for _, mp := range m.maps {
			if !seen[addr(mp.data)] {
				seen[addr(mp.data)] = true
				mapped[p] = mp.data
			}
		}
		if d := mapped[p]; d == nil || !present(d) {
			t.Fatalf("%s: not mapped and resident after reading it", p)
		}
		if got, want := imagesCopied(objs, mapped[p]), p == host; got != want {
			t.Errorf("imagesCopied(%s) = %v, want %v", p, got, want)
		}
	}
	m.hold(true) // "add inputs" of a small link
	if present(mapped[host]) {
		t.Errorf("%s: resident after hold(true), though its image was decompressed into the heap", host)
	}
	if !present(mapped[cubinPath]) {
		t.Errorf("%s: released by hold(true), though the passes read it in place", cubinPath)
	}
}

// TestFileMapsHoldReleasesDeferredDevrt: libcudadevrt.a, whose image for
// the target parsing reads only to its ELF header (deferredImage), is not
// held by a link that holds its inputs: hold(true), as "add inputs" calls
// it for a small link, hands back every page parsing faulted in (the
// kernel maps the 64 KiB around each fault: most of the file). Held, 868
// of 11.8's 1,000 KiB stayed resident to the link's end. Reading the image
// whole afterwards (loadDeferred, as chooseDevrt does where the link needs
// the library) still gives its sections.
func TestFileMapsHoldReleasesDeferredDevrt(t *testing.T) {
	present := pagePresent(t)
	devrt := filepath.Join("..", "tests", "corpus", "libs", "libcudadevrt.a")
	var m fileMaps
	defer m.unmapAll()
	m.hold(true) // as readInputs reads its first inputs
	objs, _, err := readInput(devrt, &Config{Arch: 80}, &m)
	if err != nil || len(objs) == 0 || len(m.maps) != 1 {
		t.Fatalf("readInput(%s): %d objects, %d mappings, %v", devrt, len(objs), len(m.maps), err)
	}
	for _, obj := range objs {
		if obj.deferred == nil {
			t.Fatalf("%s: an image parsed whole, not read to its header (deferredImage)", obj.Name)
		}
	}
	data := m.maps[0].data
	resident := func() int {
		n := 0
		for off := 0; off < len(data); off += os.Getpagesize() {
			if present(data[off:]) {
				n++
			}
		}
		return n
	}
	if resident() == 0 {
		t.Fatalf("%s: no page resident after parsing it", devrt)
	}
	if !imagesCopied(objs, data) {
		t.Errorf("imagesCopied(%s) = false, want true: no pass reads its deferred images in place", devrt)
	}
	m.hold(true) // "add inputs" of a small link
	if n := resident(); n > 0 {
		t.Errorf("%s: %d pages resident after hold(true), though parsing read only headers of it", devrt, n)
	}
	if err := loadDeferred(objs, m.imageBuffer); err != nil {
		t.Fatal(err)
	}
	if objs[0].ELF == nil || len(objs[0].ELF.Sections) == 0 {
		t.Errorf("%s: loadDeferred after the release gave no sections", devrt)
	}
}

// TestLastLinkReadsCubinsIntoOneBuffer: the last link of a one-shot
// process with less than serialReadBytes of inputs reads its cubins one
// after the other into one buffer (readSmall) and maps the other files (a
// host object here), keeping of each cubin what the passes read (not its
// section headers, symbol and string tables); linked that way,
// many-files-24 is nvlink's output, byte for byte, as when every input is
// mapped.
func TestLastLinkReadsCubinsIntoOneBuffer(t *testing.T) {
	host := filepath.Join("..", "tests", "corpus", "cases", "ar-archive-of-host-objects", "main.o")
	cubinPath := filepath.Join("..", "tests", "corpus", "cases", "many-files-24", "f00.cubin")
	var m fileMaps
	defer m.unmapAll()
	m.lastLink = true
	m.readSmall(1 << 20)
	m.hold(true)
	cfg := &Config{Arch: 80}
	for _, p := range []string{host, cubinPath} {
		objs, _, err := readInput(p, cfg, &m)
		if err != nil || len(objs) != 1 || objs[0].ELF == nil {
			t.Fatalf("readInput(%s): %d objects, %v", p, len(objs), err)
		}
		data := objs[0].ELF.Data
		inSlab := len(m.slab) > 0 && addr(data) >= addr(m.slab) && addr(data) < addr(m.slab)+uintptr(len(m.slab))
		if want := p == cubinPath; inSlab != want {
			t.Errorf("%s: read into the buffer %v, want %v (%d mappings)", p, inSlab, want, len(m.maps))
		}
	}

	ins := caseCubins(t, "many-files-24")
	want, err := os.ReadFile(filepath.Join("..", "tests", "corpus", "cases", "many-files-24", "expected.cubin"))
	if err != nil {
		t.Fatal(err)
	}
	for _, last := range []bool{false, true} {
		cfg := &Config{Arch: 80, Inputs: ins, Stdout: io.Discard, Stderr: io.Discard, Output: filepath.Join(t.TempDir(), "out.cubin")}
		ctx := newContext(cfg)
		ctx.maps.lastLink = last
		if err := link(ctx); err != nil {
			t.Fatal(err)
		}
		if last {
			// What parsing alone read of each cubin is given back to the
			// buffer (trimSlab): its section header table and its symbol
			// and string tables. The buffer holds the rest, file after file.
			kept, headersOn := 0, 0
			for _, file := range ctx.files {
				kept += len(file.ELF.Data)
				headersOn += int(binary.LittleEndian.Uint64(file.ELF.Data[40:])) // e_shoff
			}
			if len(ctx.maps.slab) != kept || kept >= headersOn || len(ctx.maps.maps) != 0 {
				t.Errorf("last link: %d bytes read into the buffer (the cubins hold %d, %d up to their section headers), %d files mapped; want every cubin read, less than its headers", len(ctx.maps.slab), kept, headersOn, len(ctx.maps.maps))
			}
		}
		ctx.maps.unmapAll()
		got, err := os.ReadFile(cfg.Output)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("last link %v: output differs from nvlink's (%d bytes, nvlink %d)", last, len(got), len(want))
		}
	}
}

// TestSlabReadsSmallCubinsInOneCall: a small link reads a cubin into its
// buffer with one read when the file before it was a cubin (or it is the
// first), and a host object among them costs a read of its header before
// the next cubin again (wholeReadBytes); before, every cubin took two
// reads (its header, then the rest): 9 for these five files, now 6. Each
// file's bytes in the buffer are the file's, and the host object is mapped.
func TestSlabReadsSmallCubinsInOneCall(t *testing.T) {
	host := filepath.Join("..", "tests", "corpus", "cases", "ar-archive-of-host-objects", "main.o")
	dir := filepath.Join("..", "tests", "corpus", "cases", "many-files-24")
	c := func(i int) string { return filepath.Join(dir, fmt.Sprintf("f%02d.cubin", i)) }
	paths := []string{c(0), c(1), host, c(2), c(3)}
	var m fileMaps
	defer m.unmapAll()
	m.lastLink = true
	m.readSmall(1 << 20)
	m.hold(true)
	for _, p := range paths {
		want, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(want) > wholeReadBytes {
			t.Fatalf("%s: %d bytes, more than wholeReadBytes: not a small file", p, len(want))
		}
		data, mapped, err := m.read(p, false)
		if err != nil {
			t.Fatal(err)
		}
		if mapped != (p == host) || !bytes.Equal(data, want) {
			t.Errorf("%s: mapped %v (want %v), bytes read equal to the file's: %v", p, mapped, p == host, bytes.Equal(data, want))
		}
	}
	if m.slabReads != 6 {
		t.Errorf("%d reads for 4 cubins and a host object between them, want 6 (one a cubin, one for the host object, two for the cubin after it)", m.slabReads)
	}
}

// TestReadHeadersResidentPages: a libcudadevrt.a parsed for a link that
// may not need it (deferredImage) is resident by the pages parsing reads
// (readHeaders), not by the 64 KiB the kernel maps around each fault:
// before, 222 of 11.8's library's 250 pages after parsing. What is parsed
// is what a plain mapping gives, and reading an image whole afterwards
// (loadDeferred) reads the file's bytes, before the release and after.
func TestReadHeadersResidentPages(t *testing.T) {
	present := pagePresent(t)
	libs := []string{filepath.Join("..", "tests", "corpus", "libs", "libcudadevrt.a")}
	for _, p := range []string{"/opt/cuda-12.4/usr/lib/x86_64-linux-gnu/libcudadevrt.a", "/opt/cuda-12.5/usr/lib/x86_64-linux-gnu/libcudadevrt.a"} {
		if _, err := os.Stat(p); err == nil {
			libs = append(libs, p)
		}
	}
	for _, devrt := range libs {
		var m, plain fileMaps
		data, mapped, err := m.read(devrt, true) // as readInput reads it
		if err != nil || !mapped {
			t.Fatalf("read(%s): mapped %v, %v", devrt, mapped, err)
		}
		objs, err := parseInput(devrt, data, 80, m.imageBuffer, true)
		if err != nil || len(objs) == 0 || objs[0].deferred == nil {
			t.Fatalf("parseInput(%s): %d objects, %v", devrt, len(objs), err)
		}
		resident := 0
		for off := 0; off < len(data); off += os.Getpagesize() {
			if present(data[off:]) {
				resident++
			}
		}
		t.Logf("%s: %d of %d pages resident after parsing it", devrt, resident, len(data)/os.Getpagesize())
		if limit := 24; resident > limit {
			t.Errorf("%s: %d of %d pages resident after parsing it, want at most %d", devrt, resident, len(data)/os.Getpagesize(), limit)
		}
		whole, _, err := plain.read(devrt, false)
		if err != nil {
			t.Fatal(err)
		}
		want, err := parseInput(devrt, whole, 80, plain.imageBuffer, true)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(objs, want) {
			t.Errorf("%s: parsed from readHeaders' mapping, not what a plain mapping gives", devrt)
		}
		if !bytes.Equal(data, whole) {
			t.Errorf("%s: readHeaders' mapping holds other bytes than the file", devrt)
		}
		m.release(data)
		m.hold(false) // released: read from the file again
		for off := 0; off < len(data); off += os.Getpagesize() {
			if present(data[off:]) {
				t.Errorf("%s: page at 0x%x resident after the release", devrt, off)
				break
			}
		}
		if err := loadDeferred(objs, m.imageBuffer); err != nil {
			t.Fatal(err)
		}
		if err := loadDeferred(want, plain.imageBuffer); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(objs[0].ELF.Data, want[0].ELF.Data) || len(objs[0].ELF.Sections) == 0 {
			t.Errorf("%s: loadDeferred after the release gave another image", devrt)
		}
		m.unmapAll()
		plain.unmapAll()
	}
}

// TestWalkHeadersDamaged: walkHeaders reads only what fill made readable
// and stops at what it does not expect, on libcudadevrt.a cut short or
// with bytes of its headers changed: no panic, and no read past data.
func TestWalkHeadersDamaged(t *testing.T) {
	lib, err := os.ReadFile(filepath.Join("..", "tests", "corpus", "libs", "libcudadevrt.a"))
	if err != nil {
		t.Fatal(err)
	}
	walk := func(data []byte) (filled int) {
		walkHeaders(data, func(off, n uint64) bool {
			if off > uint64(len(data)) || n > uint64(len(data))-off {
				return false
			}
			filled += int(n)
			return true
		})
		return filled
	}
	if n := walk(lib); n == 0 || n > 64<<10 {
		t.Fatalf("walkHeaders(libcudadevrt.a) filled %d bytes, want some, under 64 KiB", n)
	}
	// Every byte walkHeaders reads of the intact library, changed, and the
	// library cut at each of them.
	var offs []uint64
	walkHeaders(lib, func(off, n uint64) bool {
		for o := off; o < off+min(n, 256); o++ {
			offs = append(offs, o)
		}
		return true
	})
	for _, o := range offs {
		was := lib[o]
		for _, b := range []byte{0, 0xff, was ^ 0x80} {
			lib[o] = b
			walk(lib)
		}
		lib[o] = was
		walk(lib[:o])
	}
}

// TestWalkHeadersTables: walkHeaders reads every table of an archive whole
// (archive.IsTable, the rule ReadsNoObject passes them by), BSD's
// __.SYMDEF too, which it took for a member and walked as a host object
// (its first 64 bytes); and a member after it is walked as one.
func TestWalkHeadersTables(t *testing.T) {
	hdr := func(name string, size int) string {
		return fmt.Sprintf("%-16s%-12s%-6s%-6s%-8s%-10d`\n", name, "0", "0", "0", "644", size)
	}
	for _, name := range []string{"/", "//", "__.SYMDEF", "__.SYMDEF SORTED"} {
		table := strings.Repeat("t", 200)
		data := []byte(archive.Magic + hdr(name, len(table)) + table + hdr("a.o/", 100) + strings.Repeat("m", 100))
		start := uint64(len(archive.Magic) + archive.HeaderSize)
		var filled [][2]uint64
		walkHeaders(data, func(off, n uint64) bool {
			if off > uint64(len(data)) || n > uint64(len(data))-off {
				return false
			}
			filled = append(filled, [2]uint64{off, n})
			return true
		})
		if !slices.Contains(filled, [2]uint64{start, uint64(len(table))}) {
			t.Errorf("%q: walkHeaders filled %v, not the table [%d, +%d)", name, filled, start, len(table))
		}
		member := start + uint64(len(table)) + archive.HeaderSize
		if !slices.Contains(filled, [2]uint64{member, 64}) {
			t.Errorf("%q: walkHeaders filled %v, not the member's ELF header at %d", name, filled, member)
		}
	}
}
