package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// include reads an options file (-optf) and parses its arguments in place.
// A relative name is relative to the working directory, also inside another
// options file. Each file is parsed as a list of its own: an option at its
// end does not take its value from what follows -optf.
func (p *parser) include(name string) error {
	if p.depth >= maxOptionsFileDepth {
		return fmt.Errorf("too many nested options files: cannot open '%s' (the limit is %d)", name, maxOptionsFileDepth)
	}
	data, err := os.ReadFile(name)
	if err != nil {
		if info, serr := os.Stat(name); serr == nil && info.IsDir() {
			data = nil // nvlink reads a directory as an empty file
		} else {
			var perr *fs.PathError
			if errors.As(err, &perr) {
				err = perr.Err
			}
			return fmt.Errorf("cannot open options file '%s': %v", name, err)
		}
	}
	args, err := splitOptionsFile(data)
	if err != nil {
		return fmt.Errorf("options file '%s': %v", name, err)
	}
	p.depth++
	defer func() { p.depth-- }()
	return p.parseArgs(args)
}

// splitOptionsFile splits the text of an options file into arguments the
// way nvlink 11.8 does, which takes two passes:
//
//  1. The text ends at its first NUL byte. Arguments are separated by
//     space, tab, newline and carriage return (not by \f or \v). A
//     backslash makes the next byte literal (an escaped separator or quote
//     does not split or open a quote) and is itself dropped. A double quote
//     opens or closes a quoted stretch, in which separators are literal;
//     the quote stays in the argument. Single quotes are ordinary bytes.
//     An unclosed quote, or a backslash at the end, is an error.
//  2. Each argument then loses every double quote that does not directly
//     follow a backslash.
//
// So `"a b"c` is `a bc`, `x\"y` is `xy` (the escaped quote survives pass 1
// and goes in pass 2), `a\\\"b` is `a\"b`, `""` is an empty argument, and
// `'a b'` is the two arguments `'a` and `b'`. There are no comments.
func splitOptionsFile(data []byte) ([]string, error) {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		data = data[:i]
	}
	var (
		args   []string
		tok    []byte
		inTok  bool
		quoted bool
	)
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '\\':
			if i+1 == len(data) {
				return nil, errors.New("stray '\\' at the end")
			}
			i++
			tok, inTok = append(tok, data[i]), true
		case c == '"':
			quoted = !quoted
			tok, inTok = append(tok, c), true
		case !quoted && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			if inTok {
				args = append(args, dropQuotes(tok))
				tok, inTok = tok[:0], false
			}
		default:
			tok, inTok = append(tok, c), true
		}
	}
	if quoted {
		return nil, errors.New("stray '\"': a quote is not closed")
	}
	if inTok {
		args = append(args, dropQuotes(tok))
	}
	return args, nil
}

// dropQuotes is pass 2 of splitOptionsFile.
func dropQuotes(tok []byte) string {
	out := make([]byte, 0, len(tok))
	for i, c := range tok {
		if c == '"' && (i == 0 || tok[i-1] != '\\') {
			continue
		}
		out = append(out, c)
	}
	return string(out)
}
