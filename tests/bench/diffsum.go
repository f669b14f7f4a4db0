package main

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// summariseDiff groups the differences between two normalized cubins (see
// tests/normalize) by top-level line: each section, symbol or program
// header with its detail lines is one block, named by its first two
// fields; blocks whose names differ only in numbers are counted together.
// It returns one line per group, "12 × section .text._ZNblend_Nfi: differ".
func summariseDiff(want, got string) []string {
	wb, gb := blocks(want), blocks(got)
	type group struct {
		differ, onlyWant, onlyGot int
	}
	groups := map[string]*group{}
	g := func(key string) *group {
		k := digits.ReplaceAllString(key, "N")
		if groups[k] == nil {
			groups[k] = &group{}
		}
		return groups[k]
	}
	for k, w := range wb {
		if gv, ok := gb[k]; !ok {
			g(k).onlyWant++
		} else if gv != w {
			g(k).differ++
		}
	}
	for k := range gb {
		if _, ok := wb[k]; !ok {
			g(k).onlyGot++
		}
	}
	var out []string
	for k, v := range groups {
		if v.differ+v.onlyWant+v.onlyGot == 0 {
			continue
		}
		var parts []string
		if v.differ > 0 {
			parts = append(parts, fmt.Sprintf("%d differ", v.differ))
		}
		if v.onlyWant > 0 {
			parts = append(parts, fmt.Sprintf("%d only in nvlink's", v.onlyWant))
		}
		if v.onlyGot > 0 {
			parts = append(parts, fmt.Sprintf("%d only in cudalink's", v.onlyGot))
		}
		out = append(out, fmt.Sprintf("%s: %s", k, strings.Join(parts, ", ")))
	}
	sort.Strings(out)
	return out
}

var digits = regexp.MustCompile(`[0-9]+`)

// blocks splits a normalized text into its top-level lines with their
// detail lines, keyed by the first two fields of the top-level line.
func blocks(text string) map[string]string {
	m := map[string]string{}
	var key string
	var b strings.Builder
	flush := func() {
		if key != "" {
			m[key] += b.String() // a repeated key (an unnamed symbol) appends
		}
		b.Reset()
	}
	for _, line := range strings.Split(text, "\n") {
		if line == "" {
			continue
		}
		if !strings.HasPrefix(line, " ") {
			flush()
			f := strings.Fields(line)
			key = f[0]
			if len(f) > 1 {
				key += " " + f[1]
			}
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	flush()
	return m
}

// clipLines cuts every line of s at n characters.
func clipLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if len(l) > n {
			lines[i] = l[:n] + fmt.Sprintf(" ... (%d more characters)", len(l)-n)
		}
	}
	return strings.Join(lines, "\n")
}
