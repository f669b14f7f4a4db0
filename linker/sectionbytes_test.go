package linker

import (
	"bytes"
	"cmp"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
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
	osec := &outputSection{name: ".text.f", typ: cubin.SHT_PROGBITS, size: uint64(len(input))}
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
	if osec.size != uint64(len(orig))+4 || osec.byteLen() != osec.size {
		t.Errorf("after grow(4): size %d, %d bytes; want %d", osec.size, osec.byteLen(), len(orig)+4)
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
		for _, osec := range ctx.outSections {
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

// A composed section (members never copied together, patches pending)
// reads and writes the bytes that copying the members together and
// patching the copy in place gives: fields next to each other, fields
// patched twice, patches made out of offset order, and fields across the
// edges of the writer's windows and of members.
//
// Rounds from 20 on make the patches as relocation makes them, member
// after member, out of offset order within each member: reads then look
// only at the patches of the members around the field (memberPatchRange).
// From 40 on every field lies within a member, as relocation places them,
// and the patches split by member (memberPatches, for the composer) give
// the same bytes too.
func TestComposedSectionSameBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 60 {
		var members []*inputSection
		var size uint64
		for range 1 + rng.IntN(8) {
			n := uint64(1 + rng.IntN(3*gatheredWindow/2))
			data := make([]byte, n)
			for i := range data {
				data[i] = byte(rng.Uint32())
			}
			size = alignTo(size, 8)
			members = append(members, &inputSection{file: &inputFile{}, sec: &cubin.Section{Data: data, Size: n}, outOff: size})
			size += n
		}
		copied := &outputSection{name: ".debug_info", typ: cubin.SHT_PROGBITS, members: members}
		composed := &outputSection{name: ".debug_info", typ: cubin.SHT_PROGBITS, members: members}
		flat := make([]byte, size)
		for _, isec := range members {
			copy(flat[isec.outOff:], isec.sec.Data)
		}
		copied.setBytes(flat)
		if !composed.composable() {
			t.Fatal("members placed one after another are not composable")
		}
		composed.compose(size)

		// Fields near each other, some at the windows' and members' edges.
		var places []uint64
		for range 300 {
			places = append(places, uint64(rng.Int64N(int64(size-8))))
		}
		for w := uint64(gatheredWindow); w < size; w += gatheredWindow {
			places = append(places, w-4, w-8, w-1, w)
		}
		for _, isec := range members[1:] {
			places = append(places, isec.outOff-4, isec.outOff-2)
		}
		byMember, within := round >= 20, round >= 40
		if within {
			places = slices.DeleteFunc(places, func(p uint64) bool {
				m := composed.memberAt(p)
				return m < 0 || p+8 > members[m].outOff+uint64(len(members[m].sec.Data))
			})
		}
		if byMember {
			// In member order, shuffled within each member.
			slices.SortFunc(places, func(a, b uint64) int { return cmp.Compare(composed.memberAt(a), composed.memberAt(b)) })
			for lo := 0; lo < len(places); {
				hi := lo
				for hi < len(places) && composed.memberAt(places[hi]) == composed.memberAt(places[lo]) {
					hi++
				}
				rng.Shuffle(hi-lo, func(i, j int) { places[lo+i], places[lo+j] = places[lo+j], places[lo+i] })
				lo = hi
			}
		}
		for i, p := range places {
			if p+8 > size {
				continue
			}
			if i%3 == 0 && !byMember {
				p = places[max(i-1, 0)] + 4 // next to the field before
				if p+8 > size {
					continue
				}
			}
			typ := cubin.R_CUDA_64
			if i%2 == 0 {
				typ = cubin.R_CUDA_32
			}
			if got, want := le.Uint64(composed.read(p)), le.Uint64(copied.read(p)); got != want {
				t.Fatalf("round %d: read(%#x) = %#x, want %#x", round, p, got, want)
			}
			v := rng.Uint64()
			composed.patch(p, typ, v, 0)
			copied.patch(p, typ, v, 0)
		}
		if !composed.composed() {
			t.Fatal("reading and patching a composed section made it copy its members")
		}
		if x := composed.ext; byMember && (x.membersUnordered || !x.patchesUnsorted) {
			t.Fatalf("round %d: patches made member by member: membersUnordered %v, patchesUnsorted %v; want false, true", round, x.membersUnordered, x.patchesUnsorted)
		}
		var got, want bytes.Buffer
		if n, _ := composed.writeBytes(nil, nil, &got, nil); n != size {
			t.Fatalf("round %d: writeBytes wrote %d bytes, want %d", round, n, size)
		}
		copied.writeBytes(nil, nil, &want, nil)
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("round %d: the composed section's bytes differ from the copy's", round)
		}
		if within {
			split, ok := composed.memberPatches()
			if !ok {
				t.Fatalf("round %d: patches made member by member within the members do not split by member", round)
			}
			byInput := make([]byte, size)
			for j, isec := range members {
				b := slices.Clone(isec.sec.Data)
				applyPatches(b, isec.outOff, split[j])
				copy(byInput[isec.outOff:], b)
			}
			if !bytes.Equal(byInput, want.Bytes()) {
				t.Fatalf("round %d: the members patched one by one differ from the copy", round)
			}
		}
		if !bytes.Equal(composed.ownBytes(), want.Bytes()) {
			t.Fatalf("round %d: ownBytes of the composed section differs from the copy's", round)
		}
	}
}
