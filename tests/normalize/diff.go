package normalize

import (
	"fmt"
	"sort"
	"strings"
)

const (
	diffContext  = 3  // lines of context around a change
	diffMaxLines = 40 // differing lines shown before the output is cut
)

// Diff returns a short human-readable description of how two normalized
// texts differ, "" if they are equal: a unified diff ("-" want, "+" got) of
// the first ~40 differing lines with 3 lines of context. Each hunk header
// names the top-level line (section, symbol, ...) the hunk falls under.
func Diff(want, got string) string {
	if want == got {
		return ""
	}
	a, b := splitLines(want), splitLines(got)
	ops := diffLines(a, b)

	total := 0
	for _, o := range ops {
		if o.kind != ' ' {
			total++
		}
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- want\n+++ got\n")
	shown := 0
	for i := 0; i < len(ops) && shown < diffMaxLines; {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		// A hunk: from diffContext lines before the change up to the point
		// where more than 2*diffContext unchanged lines follow.
		start := max(i-diffContext, 0)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*diffContext {
				end = min(end+diffContext, len(ops))
				break
			}
			end = run
		}
		// Cut the hunk once diffMaxLines differing lines have been shown.
		cut := end
		n := shown
		for j := start; j < end; j++ {
			if ops[j].kind != ' ' {
				if n == diffMaxLines {
					cut = j
					break
				}
				n++
			}
		}
		aStart, bStart := ops[start].ai, ops[start].bi
		var aLen, bLen int
		for j := start; j < cut; j++ {
			if ops[j].kind != '+' {
				aLen++
			}
			if ops[j].kind != '-' {
				bLen++
			}
		}
		fmt.Fprintf(&sb, "@@ -%d,%d +%d,%d @@%s\n", aStart+1, aLen, bStart+1, bLen, hunkContext(a, b, ops[i]))
		for j := start; j < cut; j++ {
			sb.WriteByte(ops[j].kind)
			sb.WriteString(ops[j].line)
			sb.WriteByte('\n')
		}
		shown = n
		i = cut
	}
	if shown < total {
		fmt.Fprintf(&sb, "... %d more differing lines not shown (%d in all)\n", total-shown, total)
	}
	return sb.String()
}

// hunkContext returns the nearest top-level (unindented) line before the
// hunk's first changed line o (it may be one of the hunk's context lines).
func hunkContext(a, b []string, o op) string {
	lines, i := a, o.ai
	if o.kind == '+' {
		lines, i = b, o.bi
	}
	for i--; i >= 0; i-- {
		if i < len(lines) && lines[i] != "" && lines[i][0] != ' ' {
			return " " + lines[i]
		}
	}
	return ""
}

func splitLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// op is one line of an edit script: ' ' common, '-' only in a, '+' only in
// b; ai/bi are the line's index in a and b (for '+' ai is the index of the
// next a line, for '-' bi is the index of the next b line).
type op struct {
	kind   byte
	line   string
	ai, bi int
}

// diffLines computes an edit script from a to b. It is an anchored
// ("patience") diff: lines that occur exactly once in each side anchor the
// alignment, the longest increasing sequence of anchors is kept, and the
// gaps between anchors are diffed recursively (with a quadratic LCS for
// small anchorless gaps). Normalized texts consist mostly of unique lines,
// so this is fast and gives readable output even for large files.
func diffLines(a, b []string) []op {
	var ops []op
	var rec func(a0, a1, b0, b1 int)
	emit := func(kind byte, ai, bi int) {
		line := ""
		if kind == '+' {
			line = b[bi]
		} else {
			line = a[ai]
		}
		ops = append(ops, op{kind, line, ai, bi})
	}
	rec = func(a0, a1, b0, b1 int) {
		// Common prefix and suffix.
		for a0 < a1 && b0 < b1 && a[a0] == b[b0] {
			emit(' ', a0, b0)
			a0++
			b0++
		}
		var suffix int
		for a0 < a1-suffix && b0 < b1-suffix && a[a1-1-suffix] == b[b1-1-suffix] {
			suffix++
		}
		a1s, b1s := a1-suffix, b1-suffix
		defer func() {
			for k := 0; k < suffix; k++ {
				emit(' ', a1s+k, b1s+k)
			}
		}()
		a1, b1 = a1s, b1s
		if a0 == a1 || b0 == b1 {
			for ; a0 < a1; a0++ {
				emit('-', a0, b0)
			}
			for ; b0 < b1; b0++ {
				emit('+', a0, b0)
			}
			return
		}
		anchors := uniqueAnchors(a, b, a0, a1, b0, b1)
		if len(anchors) == 0 {
			lcsDiff(a, b, a0, a1, b0, b1, emit)
			return
		}
		for _, p := range anchors {
			rec(a0, p[0], b0, p[1])
			emit(' ', p[0], p[1])
			a0, b0 = p[0]+1, p[1]+1
		}
		rec(a0, a1, b0, b1)
	}
	rec(0, len(a), 0, len(b))
	return ops
}

// uniqueAnchors returns index pairs (i, j) with a[i] == b[j] where the line
// occurs exactly once in a[a0:a1] and once in b[b0:b1], reduced to a longest
// chain increasing in both i and j.
func uniqueAnchors(a, b []string, a0, a1, b0, b1 int) [][2]int {
	type cnt struct{ na, nb, ia, ib int }
	m := map[string]*cnt{}
	for i := a0; i < a1; i++ {
		c := m[a[i]]
		if c == nil {
			c = &cnt{}
			m[a[i]] = c
		}
		c.na++
		c.ia = i
	}
	for j := b0; j < b1; j++ {
		if c := m[b[j]]; c != nil {
			c.nb++
			c.ib = j
		}
	}
	var pairs [][2]int
	for i := a0; i < a1; i++ {
		if c := m[a[i]]; c.na == 1 && c.nb == 1 {
			pairs = append(pairs, [2]int{i, c.ib})
		}
	}
	if len(pairs) == 0 {
		return nil
	}
	// Longest increasing subsequence of the b indices (patience sorting).
	tails := []int{}                // tails[k] = index into pairs of the smallest tail of a chain of length k+1
	prev := make([]int, len(pairs)) // predecessor in the chain
	for k, p := range pairs {
		n := sort.Search(len(tails), func(t int) bool { return pairs[tails[t]][1] >= p[1] })
		if n > 0 {
			prev[k] = tails[n-1]
		} else {
			prev[k] = -1
		}
		if n == len(tails) {
			tails = append(tails, k)
		} else {
			tails[n] = k
		}
	}
	chain := make([][2]int, len(tails))
	for k, t := len(tails)-1, tails[len(tails)-1]; k >= 0; k, t = k-1, prev[t] {
		chain[k] = pairs[t]
	}
	return chain
}

// lcsDiff diffs a[a0:a1] against b[b0:b1] with a quadratic LCS when that is
// cheap, else reports the whole range as replaced.
func lcsDiff(a, b []string, a0, a1, b0, b1 int, emit func(kind byte, ai, bi int)) {
	n, m := a1-a0, b1-b0
	if n*m > 4_000_000 {
		for i := a0; i < a1; i++ {
			emit('-', i, b0)
		}
		for j := b0; j < b1; j++ {
			emit('+', a1, j)
		}
		return
	}
	// l[i][j] = LCS length of a[a0+i:a1] and b[b0+j:b1].
	l := make([]int32, (n+1)*(m+1))
	at := func(i, j int) *int32 { return &l[i*(m+1)+j] }
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[a0+i] == b[b0+j] {
				*at(i, j) = *at(i+1, j+1) + 1
			} else {
				*at(i, j) = max(*at(i+1, j), *at(i, j+1))
			}
		}
	}
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case a[a0+i] == b[b0+j]:
			emit(' ', a0+i, b0+j)
			i++
			j++
		case *at(i+1, j) >= *at(i, j+1):
			emit('-', a0+i, b0+j)
			i++
		default:
			emit('+', a0+i, b0+j)
			j++
		}
	}
	for ; i < n; i++ {
		emit('-', a0+i, b0+j)
	}
	for ; j < m; j++ {
		emit('+', a0+i, b0+j)
	}
}
