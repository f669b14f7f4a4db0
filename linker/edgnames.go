package linker

import (
	"strconv"
	"strings"

	"github.com/ianlancetaylor/demangle"
)

// edgName spells a function's name the way nvlink 11.8's demangler (the
// EDG one cu++filt also uses) writes it in --dump-callgraph: "int *" with
// a space, template arguments as "(int)3", a template function's
// parameter types as "T1", "T2" rather than what they stand for, internal
// linkage namespaces (_INTERNAL_<hash>) left out, "<unnamed>" for anonymous
// namespaces, and constructor and destructor variants marked
// ("[subobject]", "[deleting]"). A ptxas clone ("f$3") is shown as f, and a
// file-static function of nvcc's ("__nv_static_<n>_<n chars>_<name>") by
// its name. A name that does not demangle is shown as it is.
func edgName(mangled string) string {
	base, _, _ := strings.Cut(mangled, "$")
	if rest, ok := strings.CutPrefix(base, "__nv_static_"); ok {
		digits := 0
		for digits < len(rest) && rest[digits] >= '0' && rest[digits] <= '9' {
			digits++
		}
		n, err := strconv.Atoi(rest[:digits])
		if skip := digits + 1 + n + 1; err == nil && skip < len(rest) && strings.HasPrefix(rest[skip:], "_Z") {
			base = rest[skip:]
		}
	}
	ast, err := demangle.ToAST(base, demangle.NoClones)
	if err != nil {
		return base
	}
	s, ok := edgTop(ast, base)
	if !ok {
		return base
	}
	return s + cdtorVariant(base, ast)
}

// edgTop renders a whole symbol: a function with its parameters, or a
// plain name.
func edgTop(a demangle.AST, mangled string) (string, bool) {
	p := edgPrinter{ok: true, mangled: mangled}
	var s string
	if t, ok := a.(*demangle.Typed); ok {
		s = p.function(t)
	} else {
		s = p.name(a)
	}
	return s, p.ok
}

type edgPrinter struct {
	ok bool // false once a node the printer does not know was met
	// params are the template arguments of the function being printed.
	// The demangler replaces a template parameter (T_) by the very node of
	// its argument, so a type that is one of these nodes was written as a
	// template parameter, which EDG prints as T1, T2, ...
	params []demangle.AST
	// mangled is the name being printed, for refs.
	mangled string
}

// refs returns what EDG writes after a template parameter whose argument
// is itself a reference: the demangler collapses "T_&&" with T = int& to
// int&, the very node of the argument, so the mangling says whether the
// parameter was written T&& ("OT_") or T& ("RT_").
func (p *edgPrinter) refs(i int) string {
	code := "T_"
	if i > 0 {
		code = "T" + strconv.Itoa(i-1) + "_"
	}
	switch {
	case strings.Contains(p.mangled, "O"+code):
		return " &&"
	case strings.Contains(p.mangled, "R"+code):
		return " &"
	}
	return ""
}

// paramName is how EDG writes template parameter i (from 0).
func (p *edgPrinter) paramName(i int) string {
	name := "T" + strconv.Itoa(i+1)
	switch p.params[i].(type) {
	case *demangle.ReferenceType, *demangle.RvalueReferenceType:
		name += p.refs(i)
	}
	return name
}

// function renders name(params) with the return type in front when the
// mangling has one (template functions) and method qualifiers after.
func (p *edgPrinter) function(t *demangle.Typed) string {
	var quals string
	ft, isFunc := t.Type.(*demangle.FunctionType)
	if m, ok := t.Type.(*demangle.MethodWithQualifiers); ok {
		ft, isFunc = m.Method.(*demangle.FunctionType)
		if m.Qualifiers != nil {
			quals = " " + p.qualifiers(m.Qualifiers)
		}
		if m.RefQualifier != "" {
			quals += " " + m.RefQualifier
		}
	}
	if !isFunc {
		p.ok = false
		return ""
	}
	name := p.name(t.Name) // before params is set: the arguments are printed as such
	outer := p.params
	p.params = templateArgsOf(t.Name)
	defer func() { p.params = outer }()
	s := name + "(" + p.paramList(ft.Args) + ")" + quals
	if ft.Return != nil {
		s = p.typ(ft.Return, "") + " " + s
	}
	return s
}

// templateArgsOf returns the template arguments of a function's name.
func templateArgsOf(a demangle.AST) []demangle.AST {
	for {
		switch n := a.(type) {
		case *demangle.Qualified:
			a = n.Name
		case *demangle.Template:
			return n.Args
		default:
			return nil
		}
	}
}

// paramList renders a parameter list; a lone void is an empty list.
func (p *edgPrinter) paramList(args []demangle.AST) string {
	if len(args) == 1 {
		if b, ok := args[0].(*demangle.BuiltinType); ok && b.Name == "void" {
			return ""
		}
	}
	var list []string
	for _, a := range args {
		list = append(list, p.typ(a, ""))
	}
	return strings.Join(list, ", ")
}

// name renders a (possibly qualified, possibly template) name.
func (p *edgPrinter) name(a demangle.AST) string {
	switch a := a.(type) {
	case *demangle.Name:
		if a.Name == "(anonymous namespace)" {
			return "<unnamed>"
		}
		return a.Name
	case *demangle.Qualified:
		if n, ok := a.Scope.(*demangle.Name); ok && strings.HasPrefix(n.Name, "_INTERNAL_") {
			return p.name(a.Name)
		}
		if t, ok := a.Scope.(*demangle.Typed); ok && a.LocalName {
			return p.function(t) + "::" + p.name(a.Name)
		}
		return p.name(a.Scope) + "::" + p.name(a.Name)
	case *demangle.Template:
		return p.name(a.Name) + "<" + p.templateArgs(a.Args) + ">"
	case *demangle.Constructor:
		return p.className(a.Name)
	case *demangle.Destructor:
		return "~" + p.className(a.Name)
	case *demangle.Operator:
		return "operator " + a.Name
	case *demangle.Cast:
		return "operator " + p.typ(a.To, "")
	}
	return p.typ(a, "")
}

// className is the name a constructor or destructor carries: the class's
// own name without template arguments.
func (p *edgPrinter) className(a demangle.AST) string {
	if t, ok := a.(*demangle.Template); ok {
		return p.name(t.Name)
	}
	return p.name(a)
}

func (p *edgPrinter) templateArgs(args []demangle.AST) string {
	var list []string
	for _, a := range args {
		if pack, ok := a.(*demangle.ArgumentPack); ok {
			for _, e := range pack.Args {
				list = append(list, p.templateArg(e))
			}
			continue
		}
		list = append(list, p.templateArg(a))
	}
	return strings.Join(list, ", ")
}

func (p *edgPrinter) templateArg(a demangle.AST) string {
	for i, arg := range p.params {
		if arg == a {
			return "T" + strconv.Itoa(i+1)
		}
	}
	if l, ok := a.(*demangle.Literal); ok {
		v := l.Val
		if l.Neg {
			v = "-" + v
		}
		return "(" + p.typ(l.Type, "") + ")" + v
	}
	return p.typ(a, "")
}

func (p *edgPrinter) qualifiers(a demangle.AST) string {
	q, ok := a.(*demangle.Qualifiers)
	if !ok {
		p.ok = false
		return ""
	}
	var list []string
	for _, e := range q.Qualifiers {
		qual, ok := e.(*demangle.Qualifier)
		if !ok || len(qual.Exprs) > 0 {
			p.ok = false
			return ""
		}
		list = append(list, qual.Name)
	}
	return strings.Join(list, " ")
}

// typ renders a type around the declarator inner ("*", "(*)", "[3]"...),
// C style: pointers and references go to the right of what they point to,
// function and array types wrap the declarator.
func (p *edgPrinter) typ(a demangle.AST, inner string) string {
	for i, arg := range p.params {
		if arg == a {
			return join(p.paramName(i), inner)
		}
	}
	switch a := a.(type) {
	case *demangle.PointerType:
		return p.wrap(a.Base, "*", inner)
	case *demangle.ReferenceType:
		return p.wrap(a.Base, "&", inner)
	case *demangle.RvalueReferenceType:
		return p.wrap(a.Base, "&&", inner)
	case *demangle.TypeWithQualifiers:
		quals := p.qualifiers(a.Qualifiers)
		switch a.Base.(type) {
		case *demangle.PointerType, *demangle.ReferenceType, *demangle.RvalueReferenceType:
			// char *const: the qualifier follows the pointer.
			return p.typ(a.Base, quals+" "+inner)
		}
		return quals + " " + p.typ(a.Base, inner)
	case *demangle.ArrayType:
		return p.typ(a.Element, inner+"["+p.typ(a.Dimension, "")+"]")
	case *demangle.FunctionType:
		ret := "void"
		if a.Return != nil {
			ret = p.typ(a.Return, "")
		}
		return join(ret, inner) + "(" + p.paramList(a.Args) + ")"
	case *demangle.TemplateParam:
		return join("T"+strconv.Itoa(a.Index+1), inner)
	case *demangle.ExprList:
		// A pack expansion (T_...) the demangler expanded in place.
		for i, arg := range p.params {
			if pack, ok := arg.(*demangle.ArgumentPack); ok && samePack(pack.Args, a.Exprs) {
				return join("T"+strconv.Itoa(i+1)+"...", inner)
			}
		}
	case *demangle.PackExpansion:
		return join(p.typ(a.Base, "")+"...", inner)
	case *demangle.Closure:
		// A lambda's closure type, numbered from 1 in its scope.
		return join("[lambda("+p.paramList(a.Types)+") (instance "+strconv.Itoa(a.Num+1)+")]", inner)
	case *demangle.BuiltinType:
		return join(a.Name, inner)
	case *demangle.Name, *demangle.Qualified, *demangle.Template:
		return join(p.name(a), inner)
	}
	p.ok = false
	return ""
}

func samePack(a, b []demangle.AST) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// wrap applies a pointer or reference declarator op to base; a function or
// array base takes it in parentheses: void (*)(int), int (&)[3].
func (p *edgPrinter) wrap(base demangle.AST, op, inner string) string {
	switch base.(type) {
	case *demangle.FunctionType, *demangle.ArrayType:
		return p.typ(base, "("+op+inner+")")
	}
	return p.typ(base, op+inner)
}

// join puts a declarator after a type: "int *", "int **", "int *(*)()".
func join(left, inner string) string {
	if inner == "" {
		return left
	}
	if strings.HasSuffix(left, "*") || strings.HasSuffix(left, "&") || strings.HasSuffix(left, " ") {
		return left + inner
	}
	return left + " " + inner
}

// lastCdtorCode returns the constructor or destructor variant in a mangled
// name: the last C<digit>/D<digit> (digit 0 to 5) before the end of a
// nested name (E) or a template (I), such as "C2" or "D0"; "" if there is
// none. (Matches of [CD][0-5][EI] cannot overlap, so the last one is the
// last position where the pattern holds. A hand-written scan: a regexp
// compiled at start-up cost every link its compile and the regexp
// packages' pages.)
func lastCdtorCode(mangled string) string {
	for i := len(mangled) - 3; i >= 0; i-- {
		c, d, e := mangled[i], mangled[i+1], mangled[i+2]
		if (c == 'C' || c == 'D') && d >= '0' && d <= '5' && (e == 'E' || e == 'I') {
			return mangled[i : i+2]
		}
	}
	return ""
}

// cdtorVariant returns the suffix EDG writes after a constructor or
// destructor that is not the complete-object one.
func cdtorVariant(mangled string, a demangle.AST) string {
	t, ok := a.(*demangle.Typed)
	if !ok {
		return ""
	}
	last := t.Name
	for done := false; !done; {
		switch n := last.(type) {
		case *demangle.Qualified:
			last = n.Name
		case *demangle.Template:
			last = n.Name
		default:
			done = true
		}
	}
	switch last.(type) {
	case *demangle.Constructor, *demangle.Destructor:
	default:
		return ""
	}
	switch lastCdtorCode(mangled) {
	case "C2", "D2":
		return " [subobject]"
	case "D0":
		return " [deleting]"
	}
	return ""
}
