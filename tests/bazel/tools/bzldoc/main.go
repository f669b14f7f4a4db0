// Command bzldoc writes docs/rules.md, the reference of the public Bazel
// API of cudalink, from the doc strings of rules/defs.bzl and the files it
// loads: every rule with its attributes, every macro with its arguments,
// every provider with its fields. It stands in for stardoc, which cannot
// run offline here (no stardoc module or renderer in Debian); Bazel 7's own
// extractor (starlark_doc_extract, tests/bazel/doc) cross-checks it.
//
//	go run ./bzldoc -root ../../.. -o ../../../docs/rules.md      # write
//	go run ./bzldoc -root ../../.. -check ../../../docs/rules.md  # compare
//	go run ./bzldoc -root ../../.. -extracted defs.textproto     # cross-check
//
// It reads the files with buildtools' Starlark parser and evaluates only
// what doc strings are made of: string literals joined with +.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/bazelbuild/buildtools/build"
)

// symbol is one public name of defs.bzl and what it documents.
type symbol struct {
	name   string // the public name
	kind   string // "rule", "macro" or "provider"
	doc    string
	fields []field // attributes, arguments or provider fields
	rule   *symbol // for a macro wrapping a rule of the same file: that rule
}

// field is an attribute of a rule, an argument of a macro or a field of a
// provider.
type field struct {
	name, typ, dflt, doc string
	mandatory            bool
}

// module is a parsed .bzl file: its top-level definitions by name.
type module struct {
	path  string
	file  *build.File
	calls map[string]*build.CallExpr // name = rule(...) / provider(...)
	defs  map[string]*build.DefStmt
	loads map[string][2]string // local name -> (label, name there)
}

func main() {
	root := flag.String("root", ".", "the repository root (holding rules/defs.bzl)")
	out := flag.String("o", "", "write the reference to this file")
	check := flag.String("check", "", "fail unless this file is what -o would write")
	extracted := flag.String("extracted", "", "a starlark_doc_extract textproto of rules/defs.bzl: fail unless the reference names every rule, attribute, macro, argument, provider and field it lists")
	flag.Parse()
	syms, err := load(*root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bzldoc:", err)
		os.Exit(1)
	}
	doc := render(syms)
	switch {
	case *out != "":
		err = os.WriteFile(*out, []byte(doc), 0o644)
	case *check != "":
		var old []byte
		old, err = os.ReadFile(*check)
		if err == nil && string(old) != doc {
			err = fmt.Errorf("%s is out of date: run (cd tests/bazel/tools && go run ./bzldoc -root ../../.. -o ../../../docs/rules.md)", *check)
		}
	case *extracted != "":
		err = crossCheck(syms, *extracted)
	default:
		os.Stdout.WriteString(doc)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bzldoc:", err)
		os.Exit(1)
	}
}

// parse reads one .bzl file of the repository.
func parse(root, rel string) (*module, error) {
	data, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		return nil, err
	}
	f, err := build.ParseBzl(rel, data)
	if err != nil {
		return nil, err
	}
	m := &module{path: rel, file: f, calls: map[string]*build.CallExpr{}, defs: map[string]*build.DefStmt{}, loads: map[string][2]string{}}
	for _, stmt := range f.Stmt {
		switch s := stmt.(type) {
		case *build.LoadStmt:
			for i := range s.To {
				m.loads[s.To[i].Name] = [2]string{s.Module.Value, s.From[i].Name}
			}
		case *build.AssignExpr:
			if id, ok := s.LHS.(*build.Ident); ok {
				if call, ok := s.RHS.(*build.CallExpr); ok {
					m.calls[id.Name] = call
				}
			}
		case *build.DefStmt:
			m.defs[s.Name] = s
		}
	}
	return m, nil
}

// resolve turns a load label of rules/ into a repository path.
func resolve(from, label string) (string, error) {
	switch {
	case strings.HasPrefix(label, "//"):
		pkg, name, _ := strings.Cut(label[2:], ":")
		return filepath.Join(pkg, name), nil
	case strings.HasPrefix(label, ":"):
		return filepath.Join(filepath.Dir(from), label[1:]), nil
	}
	return "", fmt.Errorf("%s: cannot follow load of %s", from, label)
}

// load returns the public symbols of rules/defs.bzl, in its order.
func load(root string) ([]*symbol, error) {
	defs, err := parse(root, "rules/defs.bzl")
	if err != nil {
		return nil, err
	}
	mods := map[string]*module{}
	var syms []*symbol
	for _, stmt := range defs.file.Stmt {
		a, ok := stmt.(*build.AssignExpr)
		if !ok {
			continue
		}
		pub, ok1 := a.LHS.(*build.Ident)
		priv, ok2 := a.RHS.(*build.Ident)
		if !ok1 || !ok2 {
			continue
		}
		ld, ok := defs.loads[priv.Name]
		if !ok {
			return nil, fmt.Errorf("rules/defs.bzl: %s is not loaded", priv.Name)
		}
		path, err := resolve(defs.path, ld[0])
		if err != nil {
			return nil, err
		}
		m := mods[path]
		if m == nil {
			if m, err = parse(root, path); err != nil {
				return nil, err
			}
			mods[path] = m
		}
		sym, err := describe(m, ld[1])
		if err != nil {
			return nil, err
		}
		sym.name = pub.Name
		syms = append(syms, sym)
	}
	return syms, nil
}

// describe documents the definition name of m.
func describe(m *module, name string) (*symbol, error) {
	if def, ok := m.defs[name]; ok {
		sym := macro(def)
		// A macro that calls a rule of its file documents that rule's
		// attributes too (cuda_device_link around cuda_device_link_rule).
		build.Walk(def, func(x build.Expr, _ []build.Expr) {
			if call, ok := x.(*build.CallExpr); ok {
				if id, ok := call.X.(*build.Ident); ok && sym.rule == nil {
					if rc, ok := m.calls[id.Name]; ok && callee(rc) == "rule" {
						sym.rule = rule(id.Name, rc)
					}
				}
			}
		})
		return sym, nil
	}
	call, ok := m.calls[name]
	if !ok {
		return nil, fmt.Errorf("%s: no definition of %s", m.path, name)
	}
	switch callee(call) {
	case "rule":
		return rule(name, call), nil
	case "provider":
		return provider(call), nil
	}
	return nil, fmt.Errorf("%s: %s is neither a rule, a provider nor a function", m.path, name)
}

func callee(call *build.CallExpr) string {
	if id, ok := call.X.(*build.Ident); ok {
		return id.Name
	}
	return ""
}

// kwarg returns the keyword argument name of call.
func kwarg(call *build.CallExpr, name string) build.Expr {
	for _, arg := range call.List {
		if a, ok := arg.(*build.AssignExpr); ok {
			if id, ok := a.LHS.(*build.Ident); ok && id.Name == name {
				return a.RHS
			}
		}
	}
	return nil
}

// str evaluates a doc string: literals joined with +.
func str(x build.Expr) string {
	switch e := x.(type) {
	case *build.StringExpr:
		return e.Value
	case *build.BinaryExpr:
		if e.Op == "+" {
			return str(e.X) + str(e.Y)
		}
	}
	return ""
}

// source prints an expression as Starlark (for defaults).
func source(x build.Expr) string {
	return strings.TrimSpace(build.FormatString(x))
}

var attrTypes = map[string]string{
	"bool": "bool", "int": "int", "string": "string", "label": "label",
	"label_list": "list of labels", "string_list": "list of strings", "string_dict": "dict of string to string",
	"int_list": "list of ints", "output": "output", "output_list": "list of outputs",
}

var attrDefaults = map[string]string{
	"bool": "False", "int": "0", "string": `""`, "label": "None", "label_list": "[]",
	"string_list": "[]", "string_dict": "{}", "int_list": "[]",
}

func rule(name string, call *build.CallExpr) *symbol {
	sym := &symbol{name: name, kind: "rule", doc: str(kwarg(call, "doc"))}
	sym.fields = append(sym.fields, field{name: "name", typ: "name", mandatory: true, doc: "A unique name for this target."})
	if kwarg(call, "build_setting") != nil {
		sym.fields = append(sym.fields, field{name: "build_setting_default", typ: "string", mandatory: true,
			doc: "The flag's value when the command line does not set it."})
	}
	attrs, _ := kwarg(call, "attrs").(*build.DictExpr)
	if attrs == nil {
		return sym
	}
	for _, kv := range attrs.List {
		key := str(kv.Key)
		ac, ok := kv.Value.(*build.CallExpr)
		if strings.HasPrefix(key, "_") || !ok {
			continue
		}
		dot, _ := ac.X.(*build.DotExpr)
		typ := ""
		if dot != nil {
			typ = dot.Name
		}
		f := field{name: key, typ: attrTypes[typ], doc: str(kwarg(ac, "doc")), dflt: attrDefaults[typ]}
		if f.typ == "" {
			f.typ = typ
		}
		if d := kwarg(ac, "default"); d != nil {
			f.dflt = source(d)
		}
		if m, ok := kwarg(ac, "mandatory").(*build.Ident); ok && m.Name == "True" {
			f.mandatory = true
		}
		if v, ok := kwarg(ac, "values").(*build.ListExpr); ok {
			var vals []string
			for _, x := range v.List {
				vals = append(vals, source(x))
			}
			f.typ += " (one of " + strings.Join(vals, ", ") + ")"
		}
		sym.fields = append(sym.fields, f)
	}
	sort.Slice(sym.fields[1:], func(i, j int) bool { return sym.fields[1+i].name < sym.fields[1+j].name })
	return sym
}

func provider(call *build.CallExpr) *symbol {
	sym := &symbol{kind: "provider", doc: str(kwarg(call, "doc"))}
	if fields, ok := kwarg(call, "fields").(*build.DictExpr); ok {
		for _, kv := range fields.List {
			sym.fields = append(sym.fields, field{name: str(kv.Key), doc: str(kv.Value)})
		}
	}
	sort.Slice(sym.fields, func(i, j int) bool { return sym.fields[i].name < sym.fields[j].name })
	return sym
}

var argLine = regexp.MustCompile(`^  ([*]{0,2}[A-Za-z_][A-Za-z0-9_]*): ?(.*)$`)

// macro documents a function from its docstring (Google style: a summary,
// a description, then an Args: section).
func macro(def *build.DefStmt) *symbol {
	sym := &symbol{kind: "macro"}
	doc := ""
	if len(def.Body) > 0 {
		if s, ok := def.Body[0].(*build.StringExpr); ok {
			doc = s.Value
		}
	}
	defaults := map[string]string{}
	for _, p := range def.Params {
		if a, ok := p.(*build.AssignExpr); ok {
			if id, ok := a.LHS.(*build.Ident); ok {
				defaults[id.Name] = source(a.RHS)
			}
		}
	}
	lines := strings.Split(dedent(doc), "\n")
	var body []string
	inArgs := false
	for _, line := range lines {
		switch {
		case strings.TrimSpace(line) == "Args:":
			inArgs = true
		case inArgs && argLine.MatchString(line):
			m := argLine.FindStringSubmatch(line)
			f := field{name: m[1], doc: m[2]}
			if d, ok := defaults[m[1]]; ok {
				f.dflt = d
			} else if !strings.HasPrefix(m[1], "*") {
				f.mandatory = true
			}
			sym.fields = append(sym.fields, f)
		case inArgs && strings.HasPrefix(line, "    ") && len(sym.fields) > 0:
			last := &sym.fields[len(sym.fields)-1]
			last.doc = strings.TrimSpace(last.doc + " " + strings.TrimSpace(line))
		case inArgs && strings.TrimSpace(line) == "":
		default:
			inArgs = false
			body = append(body, line)
		}
	}
	sym.doc = strings.TrimSpace(strings.Join(body, "\n"))
	return sym
}

// dedent removes the indentation of a docstring's lines after the first.
func dedent(doc string) string {
	lines := strings.Split(doc, "\n")
	indent := -1
	for _, l := range lines[1:] {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " "))
		if indent < 0 || n < indent {
			indent = n
		}
	}
	for i := 1; i < len(lines); i++ {
		if len(lines[i]) >= indent && indent > 0 {
			lines[i] = lines[i][indent:]
		} else {
			lines[i] = strings.TrimLeft(lines[i], " ")
		}
	}
	return strings.Join(lines, "\n")
}

// text escapes what Markdown would read as HTML (<name>).
func text(s string) string {
	return strings.NewReplacer("<", "&lt;", ">", "&gt;").Replace(s)
}

// cell makes text fit a Markdown table cell.
func cell(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.ReplaceAll(text(s), "|", `\|`)
}

func render(syms []*symbol) string {
	var b bytes.Buffer
	b.WriteString("<!-- Generated from the doc strings of rules/defs.bzl and the files it loads by\n" +
		"     tests/bazel/tools/bzldoc; do not edit. tests/bazel/run.sh fails when it is out of date. -->\n\n")
	b.WriteString("# Bazel rules reference\n\n")
	b.WriteString("Everything here is loaded from `@cudalink//rules:defs.bzl`; [bazel.md](bazel.md) shows how the\n" +
		"pieces fit together. Generated from the rules' doc strings (stardoc cannot run offline here;\n" +
		"Bazel 7's `starlark_doc_extract` cross-checks the names).\n")
	for _, kind := range []struct{ kind, title string }{{"macro", "Macros"}, {"rule", "Rules"}, {"provider", "Providers"}} {
		var list []*symbol
		for _, s := range syms {
			if s.kind == kind.kind {
				list = append(list, s)
			}
		}
		if len(list) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n## %s\n", kind.title)
		for _, s := range list {
			fmt.Fprintf(&b, "\n### %s\n\n", s.name)
			switch s.kind {
			case "macro":
				var args []string
				for _, f := range s.fields {
					args = append(args, f.name)
				}
				fmt.Fprintf(&b, "```starlark\n%s(%s)\n```\n\n", s.name, strings.Join(args, ", "))
			case "rule":
				var args []string
				for _, f := range s.fields {
					args = append(args, f.name)
				}
				fmt.Fprintf(&b, "```starlark\n%s(%s)\n```\n\n", s.name, strings.Join(args, ", "))
			}
			b.WriteString(text(strings.TrimSpace(s.doc)) + "\n")
			switch s.kind {
			case "macro":
				b.WriteString("\n| argument | default | meaning |\n|---|---|---|\n")
				for _, f := range s.fields {
					fmt.Fprintf(&b, "| `%s` | %s | %s |\n", f.name, dflt(f), cell(f.doc))
				}
				if s.rule != nil {
					fmt.Fprintf(&b, "\nThe attributes of the rule it makes, `%s`:\n", s.rule.name)
					attrTable(&b, s.rule)
				}
			case "rule":
				attrTable(&b, s)
			case "provider":
				b.WriteString("\n| field | meaning |\n|---|---|\n")
				for _, f := range s.fields {
					fmt.Fprintf(&b, "| `%s` | %s |\n", f.name, cell(f.doc))
				}
			}
		}
	}
	return b.String()
}

func dflt(f field) string {
	switch {
	case f.mandatory:
		return "required"
	case f.dflt == "":
		return ""
	}
	return "`" + f.dflt + "`"
}

func attrTable(b *bytes.Buffer, s *symbol) {
	b.WriteString("\n| attribute | type | default | meaning |\n|---|---|---|---|\n")
	for _, f := range s.fields {
		fmt.Fprintf(b, "| `%s` | %s | %s | %s |\n", f.name, cell(f.typ), dflt(f), cell(f.doc))
	}
}

var (
	protoName  = regexp.MustCompile(`^\s*(rule_name|function_name|provider_name|name):\s*"([^"]*)"`)
	protoBlock = regexp.MustCompile(`^( *)([a-z_]+)\s*\{`)
)

// The blocks of a symbol in a ModuleInfo whose name fields name what the
// reference must list (not origin_key, which names the symbol again).
var protoMembers = map[string]bool{"attribute": true, "parameter": true, "field_info": true}

// crossCheck reads a starlark_doc_extract textproto (Bazel 7) of
// rules/defs.bzl: every symbol and every attribute, parameter and field it
// names must be in the reference.
func crossCheck(syms []*symbol, path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	have := map[string]map[string]bool{}
	for _, s := range syms {
		names := map[string]bool{}
		for _, f := range s.fields {
			names[strings.TrimLeft(f.name, "*")] = true
		}
		if s.rule != nil {
			for _, f := range s.rule.fields {
				names[f.name] = true
			}
		}
		have[s.name] = names
	}
	var missing []string
	current, member, seen := "", "", 0
	for _, line := range strings.Split(string(data), "\n") {
		if b := protoBlock.FindStringSubmatch(line); b != nil {
			switch len(b[1]) {
			case 0: // rule_info, func_info, provider_info, ...
				current = ""
			case 2: // attribute, parameter, field_info, origin_key, ...
				member = b[2]
			}
			continue
		}
		m := protoName.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		indent := len(line) - len(strings.TrimLeft(line, " "))
		switch {
		case indent == 2 && m[1] != "name":
			current = m[2]
			seen++
			if have[current] == nil {
				missing = append(missing, current)
			}
		case indent == 4 && m[1] == "name" && current != "" && protoMembers[member]:
			if names := have[current]; names != nil && !names[m[2]] {
				missing = append(missing, current+"."+m[2])
			}
		}
	}
	if seen == 0 {
		return fmt.Errorf("%s lists no symbol: not a starlark_doc_extract textproto?", path)
	}
	if len(missing) > 0 {
		return fmt.Errorf("the reference leaves out what Bazel extracts: %s", strings.Join(missing, ", "))
	}
	fmt.Printf("bzldoc: the reference names all %d symbols Bazel extracts, with their attributes, parameters and fields\n", seen)
	return nil
}
