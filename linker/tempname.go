package linker

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
)

// claimTempName tries names in dir made of pattern with the last "*"
// replaced by a random number, as os.CreateTemp does, until claim makes
// one its own (claim's error is fs.ErrExist while the name is taken). It
// returns the name claim took, or the last one tried with claim's error.
// It serves createTemp, and publish's naming of an unnamed output.
func claimTempName(dir, pattern string, claim func(name string) error) (string, error) {
	prefix, suffix := pattern, ""
	if i := strings.LastIndexByte(pattern, '*'); i >= 0 {
		prefix, suffix = pattern[:i], pattern[i+1:]
	}
	for try := 0; ; try++ {
		name := inDir(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10)+suffix)
		err := claim(name)
		if err == nil || !errors.Is(err, fs.ErrExist) || try == 10000 {
			return name, err
		}
	}
}

// inDir is filepath.Join(dir, name) for the joins an output's temporary
// names make: dir is filepath.Dir's (clean) and name a file name (no
// separator, not "." or ".."), so the join needs no cleaning. Where the
// separator is '/', it is a concatenation, which keeps a one-shot link
// out of path/filepath's code: the 64 KiB window of the binary that holds
// filepath.Join is one a small link touches for nothing else, and the
// kernel maps all of it for that one call (docs/benchmarks.md, perf14).
func inDir(dir, name string) string {
	switch {
	case filepath.Separator != '/' || dir == "":
		return filepath.Join(dir, name)
	case dir == ".":
		return name
	case dir[len(dir)-1] == '/': // the root
		return dir + name
	}
	return dir + "/" + name
}
