package linker

import (
	"bytes"
	"fmt"

	"github.com/cudalink/cudalink/linker/cubin"
)

// Bank-2 constants not tied to a function.
//
// ptxas ties every .nv.constant2.<f> section (a function's jump tables and
// wide immediates, named by .const_opt. symbols) to its function through
// sh_info. nvlink 11.8 takes the data of such a section symbol by symbol
// (not as one block), each symbol's bytes at the symbol's own st_value in
// the function's bank. A bank-2 section whose sh_info is 0 (no tool writes
// one; an edited cubin can hold one) belongs to no function: nvlink then
// puts each of its symbols' bytes, still at st_value, into a module-wide
// ".nv.constant2" section shared by every input, so the symbols of two
// such sections land on the same offsets. Overlapping data must be
// identical ("Internal error: overlapping non-identical data" otherwise,
// and "overlapping data spans too much" for a symbol that starts inside
// another and runs past its end). nvlink never writes that module bank:
// relocations against its symbols get their st_value, no kernel's bank 2
// holds the bytes, and only the name ".nv.constant2" stays in the string
// tables.

// isOrphanConstant2 says whether s is a bank-2 section tied to no
// function.
func isOrphanConstant2(s *cubin.Section) bool {
	return isConstant2(s) && s.Info == 0
}

// orphanKey is the output name nvlink gives the module-wide bank 2 those
// sections' data goes to.
const orphanKey = ".nv.constant2"

// constNode is one contribution to the module-wide bank 2: a symbol's
// bytes at its offset. data runs from the symbol's start to the end of its
// section, as nvlink's comparisons may read past the symbol.
type constNode struct {
	off, size uint64
	data      []byte
	file      *inputFile
	isec      *inputSection
	name      string
}

// placeOrphanConstants replays nvlink's placement of the symbols of
// orphan bank-2 sections, in command-line order and each file's symbol
// order, and reports the first overlap nvlink refuses; nvlink's error is
// fatal, so the link stops there.
func placeOrphanConstants(ctx *linkContext) {
	var nodes []*constNode
	for _, file := range ctx.Files {
		for j := 1; j < len(file.ELF.Symbols); j++ {
			esym := &file.ELF.Symbols[j]
			switch esym.Type() {
			case cubin.STT_SECTION, cubin.STT_FUNC, cubin.STT_FILE:
				continue
			}
			isec := file.sectionOf(uint32(esym.Shndx))
			if isec == nil || !isOrphanConstant2(isec.Sec) {
				continue
			}
			data := isec.Sec.Data
			if esym.Value > uint64(len(data)) || esym.Size > uint64(len(data))-esym.Value {
				ctx.report(&linkError{File: file.Name, Section: isec.Name(), Symbol: esym.Name,
					Msg: fmt.Sprintf("symbol at 0x%x, 0x%x bytes, runs past the end of its section (0x%x bytes)", esym.Value, esym.Size, len(data))})
				return
			}
			n := &constNode{off: esym.Value, size: esym.Size, data: data[esym.Value:], file: file, isec: isec, name: esym.Name}
			var err *linkError
			if nodes, err = addConstNode(nodes, n); err != nil {
				ctx.report(err)
				return
			}
		}
	}
}

// addConstNode adds n to nodes (sorted by offset) as nvlink's section-data
// merge does, returning its error for a refused overlap:
//   - n starts inside an earlier node: it must end within it, with the
//     same bytes there; it is then dropped;
//   - n starts where a node starts: the shorter one's bytes must be the
//     longer one's start; a longer n replaces the node and must also
//     cover the next node to its end, if it reaches it;
//   - n starts before a node and ends where it ends: the node's bytes must
//     be n's end; n replaces it;
//
// in every other case n is inserted without a check (nvlink checks no
// more), and so is a node with no bytes.
func addConstNode(nodes []*constNode, n *constNode) ([]*constNode, *linkError) {
	end := n.off + n.size
	i := 0
	for ; i < len(nodes); i++ {
		m := nodes[i]
		if m.off >= n.off {
			break
		}
		if m.off+m.size <= n.off {
			continue
		}
		// n starts inside m.
		if n.size == 0 {
			return insertNode(nodes, i, n), nil // before m, as nvlink does
		}
		if end > m.off+m.size {
			return nodes, spansTooMuch(n, m)
		}
		if !bytes.Equal(n.data[:n.size], clip(m.data[n.off-m.off:], n.size)) {
			return nodes, nonIdentical(n, m)
		}
		return nodes, nil
	}
	if i == len(nodes) || nodes[i].size == 0 || n.size == 0 {
		return insertNode(nodes, i, n), nil
	}
	m := nodes[i]
	switch {
	case m.off == n.off && n.size <= m.size:
		if !bytes.Equal(n.data[:n.size], m.data[:n.size]) {
			return nodes, nonIdentical(n, m)
		}
		return nodes, nil
	case m.off == n.off:
		if !bytes.Equal(n.data[:m.size], m.data[:m.size]) {
			return nodes, nonIdentical(n, m)
		}
		nodes[i] = n
		if i+1 < len(nodes) && nodes[i+1].off < end {
			next := nodes[i+1]
			if next.off+next.size != end {
				return nodes, spansTooMuch(n, next)
			}
			// nvlink compares n.size-next.size bytes from next's start.
			k := n.size - next.size
			if !bytes.Equal(clip(n.data[next.off-n.off:], k), clip(next.data, k)) {
				return nodes, nonIdentical(n, next)
			}
			nodes = append(nodes[:i+1], nodes[i+2:]...)
		}
		return nodes, nil
	case m.size < n.size && end == m.off+m.size:
		if !bytes.Equal(n.data[n.size-m.size:n.size], m.data[:m.size]) {
			return nodes, nonIdentical(n, m)
		}
		nodes[i] = n
		return nodes, nil
	}
	return insertNode(nodes, i, n), nil
}

func insertNode(nodes []*constNode, i int, n *constNode) []*constNode {
	nodes = append(nodes, nil)
	copy(nodes[i+1:], nodes[i:])
	nodes[i] = n
	return nodes
}

// clip returns b's first k bytes, or all of b if it is shorter (then it
// differs from any k-byte slice).
func clip(b []byte, k uint64) []byte {
	if uint64(len(b)) < k {
		return b
	}
	return b[:k]
}

func nonIdentical(n, m *constNode) *linkError {
	return &linkError{File: n.file.Name, Section: n.isec.Name(),
		Msg: "overlapping non-identical data in bank 2 outside any function: " + n.name,
		Refs: []string{fmt.Sprintf("bytes 0x%x-0x%x differ from those of %s, placed there by %s:(%s)",
			max(n.off, m.off), min(n.off+n.size, m.off+m.size), m.name, m.file.Name, m.isec.Name())}}
}

func spansTooMuch(n, m *constNode) *linkError {
	return &linkError{File: n.file.Name, Section: n.isec.Name(),
		Msg: "overlapping data spans too much in bank 2 outside any function: " + n.name,
		Refs: []string{fmt.Sprintf("bytes 0x%x-0x%x cross a boundary of %s (0x%x-0x%x), placed there by %s:(%s)",
			n.off, n.off+n.size, m.name, m.off, m.off+m.size, m.file.Name, m.isec.Name())}}
}
