// The search below follows lz4hc.c of the LZ4 library 1.9.4
// (LZ4HC_compress_hashChain, LZ4HC_InsertAndGetWiderMatch), Copyright (c)
// 2011-2020 Yann Collet, BSD 2-Clause License: see LICENSE.lz4 beside this
// file.

package fatbin

import "encoding/binary"

// compressLZ4HC compresses src as one LZ4 block the way fatbinary does:
// LZ4 1.9's high-compression encoder at level 1 (the hash-chain search
// with two attempts per position, a fresh context, no dictionary), which
// liblz4 1.9.4's LZ4_compress_HC(src, dst, n, LZ4_compressBound(n), 1)
// reproduces byte for byte on fatbinary's payloads (11.8, 12.4 and 12.5).
// The encoder is deterministic, so the same search gives the same block.
func compressLZ4HC(src []byte) []byte {
	const (
		mfLimit      = 12 // the last match starts at least 12 bytes before the end
		lastLiterals = 5  // the last 5 bytes are literals
		maxAttempts  = 2  // level 1
	)
	n := len(src)
	out := make([]byte, 0, n+n/255+16)
	if n < mfLimit+1 {
		return appendLastLiterals(out, src)
	}
	m := newHCMatcher(src)
	ip, anchor := 0, 0
	mflimit := n - mfLimit
	matchlimit := n - lastLiterals
	encode := func(ml, ref int) {
		out = appendSequence(out, src[anchor:ip], ip-ref, ml)
		ip += ml
		anchor = ip
	}
	for ip <= mflimit {
		ml, ref, _ := m.widerMatch(ip, ip, matchlimit, minMatch-1, maxAttempts)
		if ml < minMatch {
			ip++
			continue
		}
		start0, ref0, ml0 := ip, ref, ml
		var ml2, ref2, start2, ml3, ref3, start3 int
	search2:
		if ip+ml <= mflimit {
			ml2, ref2, start2 = m.widerMatch(ip+ml-2, ip, matchlimit, ml, maxAttempts)
		} else {
			ml2 = ml
		}
		if ml2 == ml { // no better match: encode the first one
			encode(ml, ref)
			continue
		}
		if start0 < ip && start2 < ip+ml0 { // squeeze the first match between the original and the second
			ip, ref, ml = start0, ref0, ml0
		}
		if start2-ip < 3 { // the first match is too short: drop it
			ml, ip, ref = ml2, start2, ref2
			goto search2
		}
	search3:
		if start2-ip < optimalML {
			_, start2, ref2, ml2 = trimOverlap(ip, ml, start2, ref2, ml2)
		}
		if start2+ml2 <= mflimit {
			ml3, ref3, start3 = m.widerMatch(start2+ml2-3, start2, matchlimit, ml2, maxAttempts)
		} else {
			ml3 = ml2
		}
		if ml3 == ml2 { // no better match: encode the first and the second
			if start2 < ip+ml {
				ml = start2 - ip
			}
			encode(ml, ref)
			ip = start2
			encode(ml2, ref2)
			continue
		}
		if start3 < ip+ml+3 { // no room for the second match: drop it
			if start3 >= ip+ml { // the first can be written: the third becomes the first
				if start2 < ip+ml {
					c := ip + ml - start2
					start2 += c
					ref2 += c
					ml2 -= c
					if ml2 < minMatch {
						start2, ref2, ml2 = start3, ref3, ml3
					}
				}
				encode(ml, ref)
				ip, ref, ml = start3, ref3, ml3
				start0, ref0, ml0 = start2, ref2, ml2
				goto search2
			}
			start2, ref2, ml2 = start3, ref3, ml3
			goto search3
		}
		// Three ascending matches: write the first.
		if start2 < ip+ml {
			if start2-ip < optimalML {
				ml, start2, ref2, ml2 = trimOverlap(ip, ml, start2, ref2, ml2)
			} else {
				ml = start2 - ip
			}
		}
		encode(ml, ref)
		ip, ref, ml = start2, ref2, ml2
		start2, ref2, ml2 = start3, ref3, ml3
		goto search3
	}
	return appendLastLiterals(out, src[anchor:])
}

// The shortest match LZ4 encodes, and the length over which lz4hc.c trims
// a match that the next one overlaps ((ML_MASK-1)+MINMATCH).
const (
	minMatch  = 4
	optimalML = 18
)

// trimOverlap settles the overlap of a match at ip (ml bytes) with the next
// one at start2 (ref2, ml2 bytes) that starts less than optimalML after it,
// as lz4hc.c does in both places it meets one: the first keeps at most
// optimalML bytes, and the second at least minMatch; the second then
// starts where the first ends. It returns the first's length and the
// second match.
func trimOverlap(ip, ml, start2, ref2, ml2 int) (int, int, int, int) {
	ml = min(ml, optimalML)
	if ip+ml > start2+ml2-minMatch {
		ml = start2 - ip + ml2 - minMatch
	}
	if c := ml - (start2 - ip); c > 0 {
		start2 += c
		ref2 += c
		ml2 -= c
	}
	return ml, start2, ref2, ml2
}

// hcMatcher is the search state of LZ4's HC encoder: a hash table of the
// last position of each 4-byte hash and a chain of 16-bit distances to the
// previous position with the same hash. Positions are offset by 64 KiB, as
// in a fresh LZ4 context, so that index 0 means "none".
type hcMatcher struct {
	src          []byte
	hash         []uint32 // 1<<15 entries
	chain        []uint16 // 1<<16 entries, indexed by position mod 64 KiB
	nextToUpdate uint32
}

const (
	hcBase        = 1 << 16 // the index of src[0]
	hcDistanceMax = 65535
)

func newHCMatcher(src []byte) *hcMatcher {
	return &hcMatcher{src: src, hash: make([]uint32, 1<<15), chain: make([]uint16, 1<<16), nextToUpdate: hcBase}
}

func (m *hcMatcher) hashAt(pos int) uint32 {
	return binary.LittleEndian.Uint32(m.src[pos:]) * 2654435761 >> (32 - 15)
}

// insert adds every position before target to the hash chains.
func (m *hcMatcher) insert(target uint32) {
	for idx := m.nextToUpdate; idx < target; idx++ {
		h := m.hashAt(int(idx - hcBase))
		delta := idx - m.hash[h]
		if delta > hcDistanceMax {
			delta = hcDistanceMax
		}
		m.chain[uint16(idx)] = uint16(delta)
		m.hash[h] = idx
	}
	m.nextToUpdate = target
}

// widerMatch is LZ4HC_InsertAndGetWiderMatch without dictionaries, pattern
// analysis or chain swaps: the longest match (longer than longest) for the
// bytes at ip, extended backwards down to iLow, searching attempts
// candidates. It returns the length, the match position and the start.
func (m *hcMatcher) widerMatch(ip, iLow, iHigh, longest, attempts int) (ml, ref, start int) {
	src := m.src
	ipIndex := uint32(ip) + hcBase
	lowest := uint32(hcBase)
	if ipIndex >= hcBase+hcDistanceMax+1 {
		lowest = ipIndex - hcDistanceMax
	}
	lookBack := ip - iLow
	pattern := binary.LittleEndian.Uint32(src[ip:])
	m.insert(ipIndex)
	ref, start = -1, ip
	matchIndex := m.hash[m.hashAt(ip)]
	for matchIndex >= lowest && attempts > 0 {
		attempts--
		mp := int(matchIndex - hcBase)
		if binary.LittleEndian.Uint16(src[iLow+longest-1:]) == binary.LittleEndian.Uint16(src[mp-lookBack+longest-1:]) &&
			binary.LittleEndian.Uint32(src[mp:]) == pattern {
			back := 0
			if lookBack != 0 {
				lim := max(iLow-ip, -mp)
				for back > lim && src[ip+back-1] == src[mp+back-1] {
					back--
				}
			}
			l := minMatchCount(src, ip+4, mp+4, iHigh) + 4 - back
			if l > longest {
				longest = l
				ref, start = mp+back, ip+back
			}
		}
		matchIndex -= uint32(m.chain[uint16(matchIndex)])
	}
	return longest, ref, start
}

// minMatchCount counts the bytes from i on that equal those from j on,
// stopping at limit (LZ4_count).
func minMatchCount(src []byte, i, j, limit int) int {
	n := 0
	for i+n < limit && src[i+n] == src[j+n] {
		n++
	}
	return n
}

// appendSequence writes one LZ4 sequence: the literals, the match offset
// and the match length.
func appendSequence(out, lit []byte, offset, ml int) []byte {
	tok := len(out)
	out = append(out, 0)
	if l := len(lit); l >= 15 {
		out[tok] = 15 << 4
		for l -= 15; l >= 255; l -= 255 {
			out = append(out, 255)
		}
		out = append(out, byte(l))
	} else {
		out[tok] = byte(l << 4)
	}
	out = append(out, lit...)
	out = append(out, byte(offset), byte(offset>>8))
	if l := ml - 4; l >= 15 {
		out[tok] += 15
		l -= 15
		for ; l >= 510; l -= 510 {
			out = append(out, 255, 255)
		}
		if l >= 255 {
			l -= 255
			out = append(out, 255)
		}
		out = append(out, byte(l))
	} else {
		out[tok] += byte(l)
	}
	return out
}

// appendLastLiterals writes the final sequence, literals only.
func appendLastLiterals(out, lit []byte) []byte {
	if l := len(lit); l >= 15 {
		out = append(out, 15<<4)
		for l -= 15; l >= 255; l -= 255 {
			out = append(out, 255)
		}
		out = append(out, byte(l))
	} else {
		out = append(out, byte(l<<4))
	}
	return append(out, lit...)
}
