package linker

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/cudalink/cudalink/linker/cubin"
)

// A patch on a borrowed section goes to the section's copy, never to the
// input's bytes it shares: read and the written section show the value,
// the input keeps its own.
func TestBorrowedSectionPatchLeavesInput(t *testing.T) {
	input := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	orig := bytes.Clone(input)
	osec := &outputSection{Name: ".text.f", Type: cubin.SHT_PROGBITS, Size: uint64(len(input))}
	osec.borrow(input)

	osec.patch(4, cubin.R_CUDA_32, 0xdeadbeef, 0)
	if !bytes.Equal(input, orig) {
		t.Fatalf("patch wrote the input: % x, want % x", input, orig)
	}
	var out bytes.Buffer
	n, _ := osec.writeBytes(nil, nil, &out, nil)
	want := bytes.Clone(orig)
	le.PutUint32(want[4:], 0xdeadbeef)
	if n != uint64(len(want)) || !bytes.Equal(out.Bytes(), want) {
		t.Errorf("writeBytes wrote % x (%d), want % x", out.Bytes(), n, want)
	}
	if got := le.Uint32(osec.read(4)); got != 0xdeadbeef {
		t.Errorf("read(4) = %#x, want the patched 0xdeadbeef", got)
	}
	if !bytes.Equal(input, orig) {
		t.Fatalf("writeBytes or read wrote the input: % x, want % x", input, orig)
	}

	// Writing other bytes (a pass growing the section) takes a copy too.
	osec.grow(4)
	osec.ownBytes()[0] = 0xff
	if !bytes.Equal(input, orig) {
		t.Fatalf("grow or ownBytes wrote the input: % x, want % x", input, orig)
	}
	if osec.Size != uint64(len(orig))+4 || osec.byteLen() != osec.Size {
		t.Errorf("after grow(4): size %d, %d bytes; want %d", osec.Size, osec.byteLen(), len(orig)+4)
	}
}

// mapCache is an ObjectCache as the worker keeps one: every link after the
// first gets the same parsed objects, which share the files' bytes.
type mapCache struct {
	mu   sync.Mutex
	objs map[string][]*Object
}

func (c *mapCache) Objects(path string, load func() ([]*Object, error)) ([]*Object, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if objs, ok := c.objs[path]; ok {
		return objs, nil
	}
	objs, err := load()
	if err == nil {
		c.objs[path] = objs
	}
	return objs, err
}

// Two links through one cache (the worker's case) give nvlink's output
// both times, and the cached inputs' bytes stay those of the files,
// although the first link relocated sections that borrowed them.
func TestCachedInputsIntactAcrossLinks(t *testing.T) {
	dir := filepath.Join("..", "tests", "corpus", "cases", "many-files-24")
	ins, sm := benchInputs(t)
	want, err := os.ReadFile(filepath.Join(dir, "expected.cubin"))
	if err != nil {
		t.Fatal(err)
	}
	cache := &mapCache{objs: map[string][]*Object{}}
	patched := 0
	for i := range 2 {
		ctx := newContext(&Config{Arch: sm, Inputs: ins, Cache: cache, Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}})
		if err := link(ctx); err != nil {
			t.Fatalf("link %d: %v", i+1, err)
		}
		if !bytes.Equal(ctx.output, want) {
			t.Fatalf("link %d: output is not nvlink's expected.cubin", i+1)
		}
		for _, osec := range ctx.OutSections {
			if osec.borrowed && len(osec.patches()) > 0 {
				patched++
			}
		}
		ctx.maps.unmapAll()
	}
	if patched == 0 {
		t.Fatal("no borrowed section was patched: the test does not exercise what it checks")
	}
	for path, objs := range cache.objs {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := parseObject(path, data)
		if err != nil {
			t.Fatal(err)
		}
		for _, obj := range objs {
			for j, s := range obj.ELF.Sections {
				if !bytes.Equal(s.Data, fresh.ELF.Sections[j].Data) {
					t.Errorf("%s: section %s of the cached input changed", path, s.Name)
				}
			}
		}
	}
}
