package linker

import (
	"bytes"
	"cmp"
	"iter"
	"slices"
	"strings"
	"unsafe"

	"github.com/cudalink/cudalink/linker/cubin"
)

// compactStrings rewrites .strtab as nvlink 12.x writes it
// (toolkit.compactStrings). nvlink 11.8 writes every name it ever created, in
// creation order (registerNames replays that order), removed sections and
// symbols included. nvlink 12.x keeps only the names the output uses, in
// three groups, each in that same creation order:
//
//  1. the prototype strings of the inputs' .nv.callgraph and .nv.prototype;
//  2. the section names (every name .shstrtab holds) and the names of the
//     symbols before the first global of .symtab (locals, and the weak
//     symbols nvlink sorts among them);
//  3. the names of the other symbols, and of the driver's unified tables
//     (__UFT, __UDT, ...) the inputs reference, which 12.x resolves
//     without writing a symbol for them.
//
// A name a duplicate function created again, or an -ewp image's local
// variable named as a global created earlier (nameRegistry.ewpAgain), is
// written where it was created again rather than first.
//
// It runs once the symbol table, .nv.callgraph and .nv.prototype are built
// and before any symbol is encoded, and moves the prototype offsets those
// two sections hold to the new table.
func compactStrings(ctx *linkContext) {
	old := &ctx.strtab
	// Each name's group (0: not written), kept in old's slots.
	group := newNameMarks(old)
	// Group 1: the prototype strings of every input, those of removed
	// functions included.
	for _, file := range ctx.files {
		for _, list := range [][][2]uint32{file.addrTaken, file.indirect} {
			for _, e := range list {
				if p := file.protoStrings[e[1]]; p != "" {
					group.set(p, 1)
				}
			}
		}
		for _, p := range file.protoList {
			if p.sig != "" {
				group.set(p.sig, 1)
			}
		}
	}
	var protoWords []([]byte) // offsets to move, in the metadata sections' data
	var noProto [][]byte      // address-taken functions a record gives no prototype
	forProtoWords(ctx, func(w []byte, listed bool) {
		switch off := le.Uint32(w); {
		case off != 0 && len(old.at(off)) > 0:
			group.set(string(old.at(off)), 1)
			protoWords = append(protoWords, w)
		case listed:
			// (A function known by a descriptor alone keeps offset 0.)
			noProto = append(noProto, w)
		}
	})
	set := func(name string, g uint8) {
		if name != "" && group.get(name) == 0 {
			group.set(name, g)
		}
	}
	// Group 2: section names and the names of the local part of .symtab.
	movedSh, again := movedNames(ctx)
	if len(ctx.names.ewpAgain) > 0 {
		again = append(again, ctx.names.ewpAgain...)
		slices.SortStableFunc(again, func(a, b movedName) int { return cmp.Compare(a.at, b.at) })
	}
	compactSectionNames(ctx, movedSh)
	for s := range tableStrings(ctx.names.shstrtab.buf) {
		set(s, 2)
	}
	keptPlaceholder := false
	for i, e := range ctx.symtab.entries {
		if e.sym != nil && e.sym.isPlaceholder() {
			keptPlaceholder = true
		}
		if e.sym == nil || e.sec != nil || e.sym.isPlaceholder() {
			continue
		}
		if i < ctx.firstGlobal {
			set(e.sym.name, 2)
		} else {
			set(e.sym.name, 3)
		}
	}
	for _, sym := range ctx.unifiedTables {
		set(sym.name, 3)
	}
	var fresh stringTable
	fresh.reserve(len(old.buf))
	fresh.rehash(old.n) // slots for every name at once, not doubled again and again
	// An address-taken function a kept record lists without a prototype
	// (a kernel device code launches, libcudadevrt's kernels) gets an
	// empty string of its own, among the prototype strings where nvlink
	// made it (at the first such record, names.go), else first. One that
	// only a function descriptor names keeps offset 0.
	emptyAt := uint32(1)
	if ctx.names.protoEmptyAt != 0 {
		emptyAt = ctx.names.protoEmptyAt
	}
	protoEmpty := func(off uint32) {
		if len(noProto) > 0 && fresh.empty == 0 && off >= emptyAt {
			fresh.empty = uint32(len(fresh.buf))
			fresh.buf = append(fresh.buf, 0)
		}
	}
	moved := map[uint32]uint32{}
	// Each string's group, looked up once for the three passes (0: not
	// written).
	var groups []int8
	for s := range tableStrings(old.buf) {
		groups = append(groups, int8(group.get(s)))
	}
	for g := 1; g <= 3; g++ {
		off := uint32(1)
		pending := again
		i := -1
		for s := range tableStrings(old.buf) {
			i++
			if g == 1 {
				protoEmpty(off)
			}
			for len(pending) > 0 && pending[0].at <= off {
				if int(group.get(pending[0].name)) == g {
					fresh.add(pending[0].name)
				}
				pending = pending[1:]
			}
			if isMoved(again, s) {
				off += uint32(len(s)) + 1
				continue
			}
			switch {
			case s == "" && g == 2 && keptPlaceholder && off == old.empty && fresh.empty == 0:
				// The placeholders' empty name (addPlaceholder), a
				// local name of its own where it was created.
				fresh.empty = uint32(len(fresh.buf))
				fresh.buf = append(fresh.buf, 0)
			case int(groups[i]) == g:
				fresh.add(s)
			}
			off += uint32(len(s)) + 1
		}
		for _, m := range pending {
			if int(group.get(m.name)) == g {
				fresh.add(m.name)
			}
		}
		if g == 1 {
			protoEmpty(off)
		}
	}
	for _, w := range noProto {
		le.PutUint32(w, fresh.empty)
	}
	for _, w := range protoWords {
		off := le.Uint32(w)
		n, ok := moved[off]
		if !ok {
			n = fresh.add(string(old.at(off)))
			moved[off] = n
		}
		le.PutUint32(w, n)
	}
	ctx.strtab = fresh
}

// movedName is a name nvlink 12.x writes elsewhere than where it was
// first created: before the string that was created at offset at.
type movedName struct {
	name string
	at   uint32
}

// movedNames returns the names nvlink 12.x writes where a kept duplicate
// function created them again (nameRegistry.again) because the function
// that created them first is removed: a local __cuda_sm20_* helper of
// the file -kernels-used keeps, after another file's removed copy; or a
// kept weak function whose sections come after those of a removed local
// function of its name in one file, the weak symbol first (a cudalink -r
// output holding both; nameRegistry.dupFirst). For .shstrtab and for
// .strtab, in creation order.
func movedNames(ctx *linkContext) (sh, str []movedName) {
	r := &ctx.names
	if len(r.again) == 0 {
		return nil, nil
	}
	bySuffix := map[string]*function{}
	for fn := range r.dupFuncs {
		bySuffix[r.funcKey(fn, "")] = fn
	}
	seenSh, seenStr := map[string]bool{}, map[string]bool{}
	for _, a := range r.again {
		if a.first != "" {
			// The owner's section made the name again after a removed
			// duplicate's: nvlink 12.x writes it there too.
			dup := bySuffix[a.first[len(a.name):]]
			if dup == nil || ctx.isLive(dup) {
				continue
			}
			if owner := ctx.funcOf(r.textOwner[dup.text.sec.Name]); owner == nil || !ctx.isLive(owner) {
				continue
			}
			if !seenStr[a.name] {
				seenStr[a.name] = true
				str = append(str, movedName{a.name, a.strAt})
			}
			if !seenSh[a.name] {
				seenSh[a.name] = true
				sh = append(sh, movedName{a.name, a.shAt})
			}
			continue
		}
		fn := a.fn
		if a.key != "" {
			fn = bySuffix[a.key[len(a.name):]]
		}
		if fn == nil || !ctx.isLive(fn) {
			continue
		}
		if first, ok := r.dupFirst[a.name]; ok && a.key != "" && first != a.key {
			// Another duplicate created the name first (the owner
			// has no such section: a local helper's .rel.text.<f>
			// where the weak copies have no relocations): the name
			// moves when that duplicate is removed, whatever the
			// owner is (12.4: f2's dead local
			// __cuda_sm3x_div_rn_noftz_f32_slowpath, then f1's kept
			// one, both named as f4's kept -G weak copy).
			if creator := bySuffix[first[len(a.name):]]; creator == nil || ctx.isLive(creator) {
				continue
			}
		} else if owner := ctx.funcOf(r.textOwner[fn.text.sec.Name]); owner == nil || ctx.isLive(owner) {
			continue
		}
		if !seenStr[a.name] {
			seenStr[a.name] = true
			str = append(str, movedName{a.name, a.strAt})
		}
		if a.key != "" && !seenSh[a.name] {
			seenSh[a.name] = true
			sh = append(sh, movedName{a.name, a.shAt})
		}
	}
	return sh, str
}

// isMoved says whether name is one of moves.
func isMoved(moves []movedName, name string) bool {
	for _, m := range moves {
		if m.name == name {
			return true
		}
	}
	return false
}

// compactSectionNames drops from .shstrtab the names of the sections
// dead-code elimination removed (a dead function's code, metadata, banks
// and their relocation sections), keeping the creation order of the
// others. Sections nvlink made but writes empty or not at all keep their
// names, as in 11.8. moved are the section names nvlink writes where a
// kept duplicate function created them again (movedNames).
func compactSectionNames(ctx *linkContext, moved []movedName) {
	old := &ctx.names.shstrtab
	// The names of the sections written (live), of those whose names are
	// not (drop: asked only of the names old holds), and of the kept
	// functions' sections (kept, see below), kept in old's slots.
	const live, drop, kept = 1, 2, 4
	names := newNameMarks(old)
	isLive := func(name string) bool { return names.has(name, live) }
	for _, osec := range ctx.outSections {
		names.mark(osec.name, live)
	}
	// nvlink's scratch sections (names.go) never survive, nor does the
	// module bank 2 of orphan constants once they are in the kernels', nor
	// the module bank 0 made with the texture and surface slots (12.4 and
	// 12.5 linking an 11.8 object's texture references).
	for _, name := range []string{"TEMP_MERGED_CONSTANTS", "TEMP_OCG_CONSTANTS", ".nv.constant2", ".nv.constant0"} {
		if !isLive(name) {
			names.markHeld(name, drop)
		}
	}
	// Nor does a rebuilt bank 3 left with no variable (bank3Dropped).
	if ctx.bank3 != nil && ctx.bank3.dropped {
		names.markHeld(ctx.bank3.osec.name, drop)
	}
	// The kernel banks made for a function's emptied constants, left
	// empty, and the emptied constants' own name, are not written.
	for osec := range ctx.bank2.emptied {
		if !isLive(osec.name) {
			names.markHeld(osec.name, drop)
		}
	}
	// The names of a kept function's sections stay, whatever a removed
	// function of the same name (a static function, or a __cuda_sm20_*
	// helper ptxas makes local, in another file) drops: nvlink names a
	// kept helper's .rel.text.<f> though every relocation in it is
	// resolved (12.4 -kernels-used dropping the other file's copy). Made
	// when the first removed function is met: a link that removes none
	// need not name every kept section. keptName says whether name is
	// one of those sections' or of their relocation sections'.
	keptMarked := false
	keptName := func(name string) bool {
		if !keptMarked {
			keptMarked = true
			for _, fn := range ctx.funcs {
				if fn.text != nil {
					names.mark(fn.text.sec.Name, kept)
				}
				for _, isec := range fn.sections {
					names.mark(isec.sec.Name, kept)
				}
			}
			markKeptRelocNames(ctx, func(name string) { names.mark(name, kept) })
		}
		return names.has(name, kept)
	}
	for _, fn := range ctx.allFuncs {
		if name := ".nv.constant2." + fn.sym.name; (ctx.bank2.emptiedFrom.has(fn) || ctx.bank2.lostEmptied.has(fn)) && !isLive(name) {
			names.markHeld(name, drop)
		}
		if ctx.isLive(fn) {
			// A function's bank 2 folded into its kernels' is removed.
			for _, isec := range fn.sections {
				if name := isec.sec.Name; strings.HasPrefix(name, ".nv.constant2.") && !isLive(name) {
					names.markHeld(name, drop)
				}
			}
			continue
		}
		for _, isec := range append([]*inputSection{fn.text}, fn.sections...) {
			if isec == nil {
				continue
			}
			if strings.HasPrefix(isec.sec.Name, ".nv.shared.") {
				continue // a removed kernel's shared section keeps its name
			}
			for _, name := range []string{isec.sec.Name, ".rel" + isec.sec.Name, ".rela" + isec.sec.Name} {
				if !isLive(name) && !keptName(name) {
					names.markHeld(name, drop)
				}
			}
		}
	}
	dropped := func(name string) bool { return names.has(name, drop) }
	var fresh stringTable
	fresh.reserve(len(old.buf))
	fresh.rehash(old.n) // slots for every name at once, not doubled again and again
	pending := moved
	off := uint32(1)
	for s := range tableStrings(old.buf) {
		for len(pending) > 0 && pending[0].at <= off {
			if !dropped(pending[0].name) {
				fresh.add(pending[0].name)
			}
			pending = pending[1:]
		}
		if !dropped(s) && !isMoved(moved, s) {
			fresh.add(s)
		}
		off += uint32(len(s)) + 1
	}
	for _, m := range pending {
		if !dropped(m.name) {
			fresh.add(m.name)
		}
	}
	for _, osec := range ctx.outSections {
		fresh.add(osec.name) // any the registry did not foresee, as write does
	}
	*old = fresh
}

// markKeptRelocNames calls mark with the names of the relocation sections
// of the kept functions' sections (or of a weak copy a later one replaced,
// whose sections were the function's when nvlink met them), and with the
// .rel twin of each .rela one (see hasZeroAddend): nvlink 12.x keeps those
// names though a removed function's sections of the same names drop
// theirs, but not the name of a removed local helper's .rel.text when the
// kept weak helper of its name has no relocations (an -O0 copy beside an
// optimized file's local __cuda_sm20_rcp_rn_f32_slowpath).
func markKeptRelocNames(ctx *linkContext, mark func(string)) {
	for _, file := range ctx.files {
		for _, isec := range file.sections {
			s := isec.sec
			if s.Type != cubin.SHT_REL && s.Type != cubin.SHT_RELA {
				continue
			}
			target := file.sectionOf(s.Info)
			if target == nil {
				continue
			}
			fn := target.fn
			if fn == nil {
				fn = ctx.names.replaced[target]
			}
			if fn == nil || !ctx.isLive(fn) {
				continue
			}
			mark(s.Name)
			if rest, ok := strings.CutPrefix(s.Name, ".rela"); ok {
				mark(".rel" + rest)
			}
		}
	}
}

// forProtoWords calls f with every word of .nv.callgraph and .nv.prototype
// that holds a .strtab offset: the second word of the entries of call graph
// groups -2 (address-taken functions) and -3 (indirect call sites), and of
// every .nv.prototype entry. listed says the word is an address-taken
// function's that a kept record lists: not one known by a function
// descriptor alone (function.descOnly: no file's record kept, the one
// record in a file whose weak copy nvlink skipped).
func forProtoWords(ctx *linkContext, f func(w []byte, listed bool)) {
	if cg := ctx.outByName.get(".nv.callgraph"); cg != nil {
		var group uint32
		data := cg.ownBytes()
		for off := 0; off+8 <= len(data); off += 8 {
			a, b := le.Uint32(data[off:]), le.Uint32(data[off+4:])
			if a == 0 && b >= cgRefs {
				group = b
				continue
			}
			switch group {
			case cgAddrTaken:
				descOnly := false
				if int(a) < len(ctx.symtab.entries) && ctx.symtab.entries[a].sym != nil {
					if fn := ctx.funcOf(ctx.symtab.entries[a].sym); fn != nil {
						descOnly = fn.descOnly
					}
				}
				f(data[off+4:off+8], !descOnly)
			case cgIndirect:
				f(data[off+4:off+8], false)
			}
		}
	}
	if p := ctx.outByName.get(".nv.prototype"); p != nil && p.typ == cubin.SHT_CUDA_PROTOTYPE {
		data := p.ownBytes()
		for off := 0; off+8 <= len(data); off += 8 {
			f(data[off+4:off+8], false)
		}
	}
}

// tableStrings yields the NUL-terminated strings of a string table after
// the leading NUL, in order. Each shares buf's memory
// (a table's strings are read, and those kept copied, once a link is
// done making names): buf must not change while one is in use.
func tableStrings(buf []byte) iter.Seq[string] {
	return func(yield func(string) bool) {
		start := 1
		for start < len(buf) {
			n := bytes.IndexByte(buf[start:], 0)
			if n < 0 {
				return
			}
			s := ""
			if n > 0 {
				s = unsafe.String(&buf[start], n)
			}
			if !yield(s) {
				return
			}
			start += n + 1
		}
	}
}
