package difftest

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
)

// ValidatedList is a committed list of files that a toolkit's readers
// (cuobjdump, nvdisasm) accepted, by the SHA-256 of their bytes, with the
// SHA-256 of the reader programs: what such a program makes of a file
// depends only on the file's bytes, so a test need not have the same
// programs read the same bytes again. The file holds comments (#),
// `tools <toolkit> <identity>` lines (ProgramsID) and `<toolkit> <sha256>
// <name>` lines, each after its toolkit's tools line. Methods are safe for
// concurrent use.
type ValidatedList struct {
	mu     sync.Mutex
	tools  map[string]string            // toolkit: the readers' identity
	byName map[string]map[string]string // toolkit: name: SHA-256
}

// ReadValidatedList reads a list; a missing file is an empty list.
func ReadValidatedList(path string) (*ValidatedList, error) {
	l := &ValidatedList{tools: map[string]string{}, byName: map[string]map[string]string{}}
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return l, nil
	} else if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		switch {
		case len(fields) >= 3 && fields[0] == "tools":
			l.tools[fields[1]] = strings.Join(fields[2:], " ")
		case len(fields) == 3 && len(fields[1]) == 2*sha256.Size:
			if l.tools[fields[0]] == "" {
				return nil, fmt.Errorf("%s:%d: an entry of CUDA %s before its tools line", path, n, fields[0])
			}
			if l.byName[fields[0]] == nil {
				l.byName[fields[0]] = map[string]string{}
			}
			l.byName[fields[0]][fields[2]] = fields[1]
		default:
			return nil, fmt.Errorf("%s:%d: not `tools <toolkit> <identity>` or `<toolkit> <sha256> <name>`: %q", path, n, line)
		}
	}
	return l, sc.Err()
}

// Toolkits are the toolkits the list has a tools line for, sorted.
func (l *ValidatedList) Toolkits() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Sorted(maps.Keys(l.tools))
}

// Tools is the identity of the readers that read a toolkit's entries.
func (l *ValidatedList) Tools(toolkit string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.tools[toolkit]
}

// Entries are a toolkit's entries: the SHA-256 of each file by its name.
func (l *ValidatedList) Entries(toolkit string) map[string]string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return maps.Clone(l.byName[toolkit])
}

// Listed says whether the readers tools (ProgramsID) accepted data for
// toolkit: the list's readers for it are those, and an entry has those
// bytes.
func (l *ValidatedList) Listed(toolkit, tools string, data []byte) bool {
	sum := hexSum(data)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.tools[toolkit] != tools {
		return false
	}
	for _, s := range l.byName[toolkit] {
		if s == sum {
			return true
		}
	}
	return false
}

// Record adds, or replaces, the entry name: the readers tools accepted
// data. Readers other than the list's for toolkit replace them and drop
// their entries.
func (l *ValidatedList) Record(toolkit, tools, name string, data []byte) {
	sum := hexSum(data)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.tools[toolkit] != tools {
		l.tools[toolkit] = tools
		l.byName[toolkit] = nil
	}
	if l.byName[toolkit] == nil {
		l.byName[toolkit] = map[string]string{}
	}
	l.byName[toolkit][name] = sum
}

// Keep drops the entries for which keep is false.
func (l *ValidatedList) Keep(keep func(toolkit, name, sum string) bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for tk, m := range l.byName {
		maps.DeleteFunc(m, func(name, sum string) bool { return !keep(tk, name, sum) })
	}
}

// Write writes the list to path, after header (comment lines, each
// starting with "# "), the entries of each toolkit sorted by SHA-256.
func (l *ValidatedList) Write(path, header string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	var b strings.Builder
	b.WriteString(header)
	for _, tk := range slices.Sorted(maps.Keys(l.tools)) {
		fmt.Fprintf(&b, "tools %s %s\n", tk, l.tools[tk])
		var lines []string
		for name, sum := range l.byName[tk] {
			lines = append(lines, fmt.Sprintf("%s %s %s\n", tk, sum, name))
		}
		sort.Strings(lines)
		b.WriteString(strings.Join(lines, ""))
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// programIDs caches ProgramsID by the programs' paths.
var programIDs sync.Map

// ProgramsID is the identity of reader programs for a ValidatedList:
// `<name>=<SHA-256 of the program>` for each, by the base name of its
// path.
func ProgramsID(paths ...string) (string, error) {
	key := strings.Join(paths, "\x00")
	if id, ok := programIDs.Load(key); ok {
		return id.(string), nil
	}
	var parts []string
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return "", err
		}
		parts = append(parts, filepath.Base(p)+"="+hexSum(data))
	}
	id := strings.Join(parts, " ")
	programIDs.Store(key, id)
	return id, nil
}

func hexSum(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
