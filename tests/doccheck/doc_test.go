// Package doccheck checks that the Go code documents itself: every package
// has a package comment and every exported name a doc comment.
package doccheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// packages returns every directory of the module that holds Go files (not
// testdata, not other modules), relative to the module root.
func packages(t *testing.T, root string) []string {
	var dirs []string
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "bazel-")) {
				return filepath.SkipDir
			}
			if path != root && fileExists(filepath.Join(path, "go.mod")) {
				return filepath.SkipDir // another module (tools)
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") && !seen[filepath.Dir(path)] {
			seen[filepath.Dir(path)] = true
			dirs = append(dirs, filepath.Dir(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(dirs)
	return dirs
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// undocumented lists the exported top-level names of a package (and the
// exported methods of its types) that have no doc comment. A name in a
// parenthesized const, var or type group is documented by the group's
// comment or its own.
func undocumented(fset *token.FileSet, files []*ast.File) []string {
	var missing []string
	report := func(pos token.Pos, what string) {
		p := fset.Position(pos)
		missing = append(missing, fmt.Sprintf("%s:%d: %s", filepath.Base(p.Filename), p.Line, what))
	}
	for _, f := range files {
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() || d.Doc != nil {
					continue
				}
				if d.Recv != nil && !exportedRecv(d.Recv) {
					continue
				}
				report(d.Pos(), "func "+d.Name.Name)
			case *ast.GenDecl:
				if d.Tok == token.IMPORT {
					continue
				}
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() && d.Doc == nil && s.Doc == nil && s.Comment == nil {
							report(s.Pos(), "type "+s.Name.Name)
						}
						if s.Name.IsExported() {
							for _, name := range undocumentedFields(fset, s) {
								report(name.Pos(), "field "+s.Name.Name+"."+name.Name)
							}
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() && d.Doc == nil && s.Doc == nil && s.Comment == nil {
								report(n.Pos(), d.Tok.String()+" "+n.Name)
							}
						}
					}
				}
			}
		}
	}
	return missing
}

// undocumentedFields lists the exported fields of an exported struct type,
// and the methods of an exported interface, that have no comment. A
// comment above a field also documents the fields right below it (no blank
// line between): "// Name and Size are ..." over two lines of fields; a
// line comment documents its own line only.
func undocumentedFields(fset *token.FileSet, s *ast.TypeSpec) []*ast.Ident {
	var list *ast.FieldList
	switch t := s.Type.(type) {
	case *ast.StructType:
		list = t.Fields
	case *ast.InterfaceType:
		list = t.Methods
	}
	if list == nil {
		return nil
	}
	var missing []*ast.Ident
	shared, prevEnd := false, -1
	for _, f := range list.List {
		line := fset.Position(f.Pos()).Line
		if f.Doc != nil {
			line = fset.Position(f.Doc.Pos()).Line
		}
		// A field right below one documented from above shares its
		// comment; a line comment is its field's only.
		shared = f.Doc != nil || shared && line == prevEnd+1
		prevEnd = fset.Position(f.End()).Line
		if f.Comment != nil {
			prevEnd = fset.Position(f.Comment.End()).Line
		}
		if shared || f.Comment != nil {
			continue
		}
		for _, name := range f.Names {
			if name.IsExported() {
				missing = append(missing, name)
			}
		}
	}
	return missing
}

func exportedRecv(recv *ast.FieldList) bool {
	if len(recv.List) == 0 {
		return false
	}
	typ := recv.List[0].Type
	for {
		switch t := typ.(type) {
		case *ast.StarExpr:
			typ = t.X
		case *ast.IndexExpr:
			typ = t.X
		case *ast.IndexListExpr:
			typ = t.X
		case *ast.Ident:
			return t.IsExported()
		default:
			return false
		}
	}
}

// TestDocComments: every package has a package comment, and every exported
// name a doc comment.
func TestDocComments(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	total, checked := 0, 0
	dirs := packages(t, root)
	for _, dir := range dirs {
		fset := token.NewFileSet()
		names, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, dir)
		pkgs := map[string][]*ast.File{} // package name -> its files
		var tests []*ast.File
		for _, name := range names {
			f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case strings.HasSuffix(name, "_test.go"):
				tests = append(tests, f)
			case !ast.IsGenerated(f): // protoc's output documents what it documents
				pkgs[f.Name.Name] = append(pkgs[f.Name.Name], f)
			}
		}
		if len(pkgs) == 0 && len(tests) > 0 {
			// A package of tests alone (tests/difftest, ...) says what
			// it tests in a package comment of one of its test files;
			// its exported names, if any, are its tests'.
			checked++
			if !slices.ContainsFunc(tests, func(f *ast.File) bool { return f.Doc != nil }) {
				t.Errorf("%s: package %s (tests only) has no package comment", rel, tests[0].Name.Name)
			}
			continue
		}
		for pkg, files := range pkgs {
			checked++
			if !slices.ContainsFunc(files, func(f *ast.File) bool { return f.Doc != nil }) {
				t.Errorf("%s: package %s has no package comment", rel, pkg)
			}
			missing := undocumented(fset, files)
			sort.Strings(missing)
			for _, m := range missing {
				t.Errorf("%s/%s has no doc comment", rel, m)
			}
			total += len(missing)
		}
	}
	if total > 0 {
		t.Logf("%d exported names without a doc comment", total)
	}
	// A broken walk would check nothing: it must reach the linker's
	// packages, the commands' and the packages of tests alone.
	for _, want := range []string{"linker", "linker/cubin", "linker/cmd/cudalink", "tests/difftest", "tests/doccheck"} {
		if !slices.Contains(dirs, filepath.Join(root, want)) {
			t.Errorf("the walk misses the package in %s", want)
		}
	}
	t.Logf("%d packages checked", checked)
}

// TestUndocumentedFinds checks the checker on a file with every kind of
// name, documented and not.
func TestUndocumentedFinds(t *testing.T) {
	const src = `package p

// Doc is documented.
func Doc() {}
func Bare() {}
func (T) Method() {}
func (t *u) hidden() {}
func (u) Exported() {}

// T is documented.
type T int
type U struct{}

// Grouped names share their group's comment.
const (
	A = 1
	B = 2
)

const (
	C = 3 // C has a line comment.
	D = 4
)

var V, w int

// S is documented; so are its fields but F, H and Y.
type S struct {
	// A and B share this comment.
	A int
	B int

	F int
	G int // G has a line comment, which is G's only.
	H int
	i int
	X int // X has a line comment.

	Y int
}

// I is documented; M is not.
type I interface {
	// L is.
	L()

	M()
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	got := undocumented(fset, []*ast.File{f})
	want := []string{"p.go:5: func Bare", "p.go:6: func Method", "p.go:12: type U", "p.go:22: const D", "p.go:25: var V",
		"p.go:33: field S.F", "p.go:35: field S.H", "p.go:39: field S.Y", "p.go:47: field I.M"}
	if !slices.Equal(got, want) {
		t.Errorf("undocumented = %q, want %q", got, want)
	}
}

// capitalisedFields lists the fields of unexported struct types that are
// capitalised: in the linker's packages a field is named as its type is,
// lower-case on an unexported type (as its methods are, linker/doc.go),
// but for a field that encoding/json or another package reads by
// reflection, which has a struct tag, and embedded fields, which are named
// by their type. Types declared inside functions count too.
func capitalisedFields(fset *token.FileSet, files []*ast.File) []string {
	var found []string
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			s, ok := n.(*ast.TypeSpec)
			if !ok || s.Name.IsExported() {
				return true
			}
			st, ok := s.Type.(*ast.StructType)
			if !ok {
				return true
			}
			for _, field := range st.Fields.List {
				if field.Tag != nil {
					continue
				}
				for _, name := range field.Names {
					if name.IsExported() {
						p := fset.Position(name.Pos())
						found = append(found, fmt.Sprintf("%s:%d: field %s.%s", filepath.Base(p.Filename), p.Line, s.Name.Name, name.Name))
					}
				}
			}
			return true
		})
	}
	return found
}

// TestFieldCase: the fields of the linker's unexported types are
// lower-case (see capitalisedFields).
func TestFieldCase(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, dir := range packages(t, root) {
		rel, _ := filepath.Rel(root, dir)
		if rel != "linker" && !strings.HasPrefix(rel, "linker"+string(filepath.Separator)) {
			continue
		}
		names, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		var files []*ast.File
		for _, name := range names {
			f, err := parser.ParseFile(fset, name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			if !ast.IsGenerated(f) {
				files = append(files, f)
			}
		}
		checked++
		for _, m := range capitalisedFields(fset, files) {
			t.Errorf("%s/%s is capitalised on an unexported type", rel, m)
		}
	}
	if checked < 10 {
		t.Errorf("checked %d packages under linker/, want the linker's dozen or more", checked)
	}
}

// TestCapitalisedFieldsFinds checks the field-case checker on a file of
// its own.
func TestCapitalisedFieldsFinds(t *testing.T) {
	const src = `package p

type t struct {
	ok   int
	Bad  int
	JSON int ` + "`json:\"json\"`" + `
	*Embedded
}

// E is exported: its fields may be.
type E struct{ Field int }

func f() {
	type local struct{ Inner, fine int }
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := capitalisedFields(fset, []*ast.File{f})
	want := []string{"p.go:5: field t.Bad", "p.go:14: field local.Inner"}
	if !slices.Equal(got, want) {
		t.Errorf("capitalisedFields = %q, want %q", got, want)
	}
}
