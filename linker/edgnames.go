package linker

import (
	"slices"
	"strconv"
	"strings"
)

// edgName spells a function's name the way nvlink's demangler (the EDG
// one cu++filt also uses) writes it in --dump-callgraph. It is its own
// Itanium demangler because EDG prints what the mangling says, not what it
// stands for: a template parameter is T1, T2, ... (T_ is T1, T0_ T2) even
// where two parameters have the same argument, a type that depends on one
// keeps it (enable_if<..., T1>::type), expressions in template arguments
// are printed without spaces or parentheses
// (is_convertible<T1, long long>::value&&(bool)0||!x<T1>::value), and a
// substitution of a name prefix used as a type takes its declarator
// without a space (A<int>::f(const A<int>&), where f(const A<int> &) has
// one). Besides: "int *" with a space, literals as "(int)3", internal
// linkage namespaces (_INTERNAL_<hash>) left out, "<unnamed>" for
// anonymous namespaces, lambdas as "[lambda(int) (instance 2)]", and
// constructor and destructor variants marked ("[subobject]",
// "[deleting]"). A ptxas clone ("f$3") is shown as f, and a file-static
// function of nvcc's ("__nv_static_<n>_<n chars>_<name>") by its name. A
// name that does not demangle is shown as it is.
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
	s, ok := edgDemangle(base)
	if !ok {
		return base
	}
	return s
}

// edgDemangle demangles a whole _Z name; false if it is not one this
// demangler reads to the end.
func edgDemangle(mangled string) (string, bool) {
	s, _, ok := edgDemangleAfter(mangled, nil)
	return s, ok
}

// edgDemangleAfter demangles mangled with the substitution candidates of
// an earlier name (EDG demangles the parts of an -ewp copy's
// $kernel$function with one table: the function's S2_ may be the
// kernel's third candidate) and returns the table after it.
func edgDemangleAfter(mangled string, before *edgParser) (s string, after *edgParser, ok bool) {
	rest, found := strings.CutPrefix(mangled, "_Z")
	if !found || rest == "" {
		return "", nil, false
	}
	p := &edgParser{s: rest}
	if before != nil {
		p.subs = slices.Clone(before.subs)
		p.prefix = slices.Clone(before.prefix)
	}
	defer func() {
		// The parser stops by panicking with edgFail on malformed input;
		// any other panic is a defect and goes on.
		if r := recover(); r != nil {
			if _, isFail := r.(edgFail); !isFail {
				panic(r)
			}
			s, after, ok = "", nil, false
		}
	}()
	e := p.encoding(true)
	if p.pos != len(p.s) {
		return "", nil, false
	}
	return p.printTop(e), p, true
}

// edgFail is the parser's panic value for a malformed name.
type edgFail struct{}

// Nodes of a demangled name.
type (
	dnode interface{}
	// dName is an identifier, operator or constructor name.
	dName struct {
		s string
		// ctor and dtor mark a constructor or destructor; variant is its
		// EDG suffix (" [subobject]", " [deleting]").
		ctor, dtor bool
		variant    string
	}
	dQual struct{ scope, name dnode } // scope::name
	dTmpl struct {
		name dnode
		args []dnode
	}
	dPackArgs struct{ args []dnode } // a template argument pack (J...E)
	dBuiltin  struct{ s string }
	dPtr      struct{ base dnode }
	dRef      struct{ base dnode }
	dRRef     struct{ base dnode }
	dCV       struct {
		base dnode
		q    string
	}
	dFunc struct {
		ret    dnode // nil: no return type in the mangling
		params []dnode
		quals  string // const, volatile of a member function
		ref    string // & or &&
	}
	dArray struct {
		dim  string
		elem dnode
	}
	dMemPtr struct{ cls, mem dnode }
	dParam  struct{ idx int } // T_ is 0
	dExpand struct{ base dnode }
	dExpr   struct{ s string } // an expression, already spelt
	// dSubPrefix is a substitution of a name prefix used as a type.
	dSubPrefix struct{ n dnode }
	dLocal     struct {
		enc  *dEncoding
		name dnode
		disc int // discriminator (instance disc+1), -1 for none
	}
	dClosure struct {
		params []dnode
		num    int
	}
	dUnnamed  struct{ num int }
	dEncoding struct {
		name dnode
		fn   *dFunc // nil for data
	}
)

type edgParser struct {
	s   string
	pos int
	// subs are the substitution candidates; prefix says which were
	// recorded as a name prefix rather than as a type.
	subs   []dnode
	prefix []bool
	depth  int // recursion depth, bounded
	// printed counts the nodes printed: substitutions make a DAG that a
	// crafted name can make print exponentially long, so it is bounded.
	printed int
}

// maxPrinted bounds the nodes one name prints (the longest real names,
// cub's and libcu++'s, print a few hundred).
const maxPrinted = 100000

func (p *edgParser) count() {
	p.printed++
	if p.printed > maxPrinted {
		p.fail()
	}
}

func (p *edgParser) fail() { panic(edgFail{}) }

func (p *edgParser) peek() byte {
	if p.pos < len(p.s) {
		return p.s[p.pos]
	}
	return 0
}

func (p *edgParser) peek2() string {
	if p.pos+2 <= len(p.s) {
		return p.s[p.pos : p.pos+2]
	}
	return ""
}

func (p *edgParser) eat(c byte) bool {
	if p.peek() == c {
		p.pos++
		return true
	}
	return false
}

func (p *edgParser) must(c byte) {
	if !p.eat(c) {
		p.fail()
	}
}

func (p *edgParser) addSub(n dnode, prefix bool) {
	p.subs = append(p.subs, n)
	p.prefix = append(p.prefix, prefix)
}

func (p *edgParser) number() int {
	start := p.pos
	for p.pos < len(p.s) && p.s[p.pos] >= '0' && p.s[p.pos] <= '9' {
		p.pos++
	}
	if start == p.pos {
		p.fail()
	}
	n, err := strconv.Atoi(p.s[start:p.pos])
	if err != nil {
		p.fail()
	}
	return n
}

// seqID reads a base-36 number ending in '_' (S_ and T_ indices); "_"
// alone is 0, "0_" 1, and so on.
func (p *edgParser) seqID() int {
	if p.eat('_') {
		return 0
	}
	n := 0
	for {
		c := p.peek()
		switch {
		case c >= '0' && c <= '9':
			n = n*36 + int(c-'0')
		case c >= 'A' && c <= 'Z':
			n = n*36 + int(c-'A') + 10
		case c == '_':
			p.pos++
			return n + 1
		default:
			p.fail()
		}
		if n > len(p.s)+len(p.subs) {
			p.fail()
		}
		p.pos++
	}
}

func (p *edgParser) enter() {
	p.depth++
	if p.depth > 200 {
		p.fail()
	}
}

func (p *edgParser) leave() { p.depth-- }

// encoding ::= name [bare-function-type] | special-name
func (p *edgParser) encoding(params bool) *dEncoding {
	p.enter()
	defer p.leave()
	if p.peek() == 'T' || p.peek() == 'G' {
		return p.special()
	}
	name, fq := p.name()
	e := &dEncoding{name: name}
	if !params || p.pos == len(p.s) || p.peek() == 'E' || p.peek() == '.' {
		return e
	}
	fn := &dFunc{quals: fq.quals, ref: fq.ref}
	if hasReturnType(name) {
		fn.ret = p.typ()
	}
	fn.params = p.paramTypes()
	e.fn = fn
	return e
}

// paramTypes reads bare-function-type: types up to the end, an E or a
// '.' suffix.
func (p *edgParser) paramTypes() []dnode {
	var list []dnode
	for p.pos < len(p.s) && p.peek() != 'E' && p.peek() != '.' {
		list = append(list, p.typ())
	}
	if len(list) == 0 {
		p.fail()
	}
	return list
}

// hasReturnType: a template function's mangling has its return type,
// unless it is a constructor, destructor or conversion operator.
func hasReturnType(n dnode) bool {
	switch n := n.(type) {
	case *dTmpl:
		last := n.name
		if q, ok := last.(*dQual); ok {
			last = q.name
		}
		switch x := last.(type) {
		case *dName:
			return !x.ctor && !x.dtor
		case *dConv:
			return false
		}
		return true
	case *dQual:
		return hasReturnType(n.name)
	case *dLocal:
		return hasReturnType(n.name)
	}
	return false
}

type funcQuals struct{ quals, ref string }

// name ::= nested-name | local-name | unscoped-name [template-args]
func (p *edgParser) name() (dnode, funcQuals) {
	p.enter()
	defer p.leave()
	switch p.peek() {
	case 'N':
		return p.nested()
	case 'Z':
		return p.local()
	}
	var n dnode
	if p.peek2() == "St" {
		p.pos += 2
		n = &dQual{scope: &dName{s: "std"}, name: p.unqualified(nil)}
	} else if p.peek() == 'S' {
		n = p.substitution(false)
		if p.peek() != 'I' {
			p.fail()
		}
		n = &dTmpl{name: n, args: p.templateArgs()}
		return n, funcQuals{}
	} else {
		n = p.unqualified(nil)
	}
	if p.peek() == 'I' {
		p.addSub(n, true)
		n = &dTmpl{name: n, args: p.templateArgs()}
	}
	return n, funcQuals{}
}

// nested ::= N [cv] [ref] prefix unqualified E
func (p *edgParser) nested() (dnode, funcQuals) {
	p.must('N')
	var fq funcQuals
	fq.quals = p.cvQuals()
	if p.eat('R') {
		fq.ref = "&"
	} else if p.eat('O') {
		fq.ref = "&&"
	}
	var cur dnode
	for !p.eat('E') {
		var next dnode
		switch c := p.peek(); {
		case c == 'S' && p.peek2() == "St":
			p.pos += 2
			next = &dQual{scope: &dName{s: "std"}, name: p.unqualified(nil)}
			if cur != nil {
				p.fail()
			}
			cur = next
			if p.peek() != 'E' {
				p.addSub(cur, true)
			}
			continue
		case c == 'S':
			if cur != nil {
				p.fail()
			}
			cur = p.substitution(false)
			continue
		case c == 'T':
			if cur != nil {
				p.fail()
			}
			cur = p.templateParam()
			p.addSub(cur, true)
			continue
		case c == 'I':
			if cur == nil {
				p.fail()
			}
			cur = &dTmpl{name: cur, args: p.templateArgs()}
			if p.peek() != 'E' {
				p.addSub(cur, true)
			}
			continue
		case c == 'M':
			p.pos++ // data-member-prefix of a closure's scope
			continue
		case c == 'D' && (p.peek2() == "Dt" || p.peek2() == "DT"):
			cur = p.typ()
			continue
		}
		next = p.unqualified(cur)
		if cur == nil {
			cur = next
		} else {
			cur = &dQual{scope: cur, name: next}
		}
		if p.peek() != 'E' {
			p.addSub(cur, true)
		}
	}
	if cur == nil {
		p.fail()
	}
	return cur, fq
}

// local ::= Z encoding E entity [discriminator] | Z encoding E s
func (p *edgParser) local() (dnode, funcQuals) {
	p.must('Z')
	enc := p.encoding(true)
	p.must('E')
	if p.eat('s') {
		p.discriminator()
		return &dLocal{enc: enc, name: &dName{s: "string literal"}, disc: -1}, funcQuals{}
	}
	if p.eat('d') {
		if p.peek() != '_' {
			p.number()
		}
		p.must('_')
	}
	n, fq := p.name()
	return &dLocal{enc: enc, name: n, disc: p.discriminator()}, fq
}

// discriminator ::= _ digit | __ number _
func (p *edgParser) discriminator() int {
	if p.peek() != '_' {
		return -1
	}
	p.pos++
	if p.eat('_') {
		n := p.number()
		p.must('_')
		return n
	}
	if c := p.peek(); c >= '0' && c <= '9' {
		p.pos++
		return int(c - '0')
	}
	p.fail()
	return -1
}

// unqualified reads a source name, operator, constructor or destructor,
// closure or unnamed type; scope is the name before it (for a
// constructor's spelling).
func (p *edgParser) unqualified(scope dnode) dnode {
	c := p.peek()
	switch {
	case c >= '0' && c <= '9':
		return p.sourceName()
	case c == 'C' && p.pos+1 < len(p.s) && (p.s[p.pos+1] >= '1' && p.s[p.pos+1] <= '5' || p.s[p.pos+1] == 'I'):
		p.pos++
		inheriting := p.eat('I')
		v := p.peek()
		p.pos++
		if inheriting {
			p.typ()
		}
		return &dName{s: ctorName(scope), ctor: true, variant: cdtorSuffix('C', v)}
	case c == 'D' && p.pos+1 < len(p.s) && p.s[p.pos+1] >= '0' && p.s[p.pos+1] <= '5':
		v := p.s[p.pos+1]
		p.pos += 2
		return &dName{s: "~" + ctorName(scope), dtor: true, variant: cdtorSuffix('D', v)}
	case c == 'U':
		return p.unnamed()
	case c == 'L':
		// internal linkage marker (_ZL): the name as such
		p.pos++
		n := p.sourceName()
		p.discriminator()
		return n
	case c >= 'a' && c <= 'z':
		return p.operatorName()
	}
	p.fail()
	return nil
}

func cdtorSuffix(kind, v byte) string {
	switch {
	case v == '2':
		return " [subobject]"
	case kind == 'D' && v == '0':
		return " [deleting]"
	}
	return ""
}

// ctorName is the class name a constructor or destructor carries: its
// scope's last name without template arguments.
func ctorName(scope dnode) string {
	for {
		switch n := scope.(type) {
		case *dQual:
			scope = n.name
		case *dTmpl:
			scope = n.name
		case *dSubPrefix:
			scope = n.n
		case *dName:
			return n.s
		default:
			return "?"
		}
	}
}

func (p *edgParser) sourceName() dnode {
	n := p.number()
	if n == 0 || p.pos+n > len(p.s) {
		p.fail()
	}
	s := p.s[p.pos : p.pos+n]
	p.pos += n
	if strings.HasPrefix(s, "_GLOBAL__N") {
		s = "<unnamed>"
	}
	return &dName{s: s}
}

// unnamed ::= Ut [number] _ | Ul lambda-sig E [number] _
func (p *edgParser) unnamed() dnode {
	p.must('U')
	switch {
	case p.eat('t'):
		return &dUnnamed{num: p.seqNum()}
	case p.eat('l'):
		var params []dnode
		for !p.eat('E') {
			params = append(params, p.typ())
		}
		return &dClosure{params: params, num: p.seqNum()}
	}
	p.fail()
	return nil
}

// seqNum reads [number] _ as 0 for "_", n+1 for "n_".
func (p *edgParser) seqNum() int {
	if p.eat('_') {
		return 0
	}
	n := p.number()
	p.must('_')
	return n + 1
}

// edgOperator is an operator's name as EDG spells it, with the number of
// operands it takes in an expression.
type edgOperator struct {
	code, name string
	arity      int
}

// edgOperators are the operators by their codes. (An array, not a map: a
// map would be built when the process starts, and most links demangle
// nothing.)
var edgOperators = [...]edgOperator{
	{"nw", "new ", 0}, {"na", "new[] ", 0}, {"dl", "delete ", 0}, {"da", "delete[] ", 0},
	{"ps", "+", 1}, {"ng", "-", 1}, {"ad", "&", 1}, {"de", "*", 1}, {"co", "~", 1}, {"pl", "+", 2},
	{"mi", "-", 2}, {"ml", "*", 2}, {"dv", "/", 2}, {"rm", "%", 2}, {"an", "&", 2}, {"or", "|", 2},
	{"eo", "^", 2}, {"aS", "=", 2}, {"pL", "+=", 2}, {"mI", "-=", 2}, {"mL", "*=", 2},
	{"dV", "/=", 2}, {"rM", "%=", 2}, {"aN", "&=", 2}, {"oR", "|=", 2}, {"eO", "^=", 2},
	{"ls", "<<", 2}, {"rs", ">>", 2}, {"lS", "<<=", 2}, {"rS", ">>=", 2}, {"eq", "==", 2},
	{"ne", "!=", 2}, {"lt", "<", 2}, {"gt", ">", 2}, {"le", "<=", 2}, {"ge", ">=", 2},
	{"ss", "<=>", 2}, {"nt", "!", 1}, {"aa", "&&", 2}, {"oo", "||", 2}, {"pp", "++", 1},
	{"mm", "--", 1}, {"cm", ",", 2}, {"pm", "->*", 2}, {"pt", "->", 2}, {"cl", "()", 0},
	{"ix", "[]", 2}, {"qu", "?", 3}, {"aw", "co_await", 1},
}

// edgOperatorFor returns the operator of a two-letter code.
func edgOperatorFor(code string) (edgOperator, bool) {
	for _, op := range edgOperators {
		if op.code == code {
			return op, true
		}
	}
	return edgOperator{}, false
}

func (p *edgParser) operatorName() dnode {
	code := p.peek2()
	if code == "cv" {
		p.pos += 2
		return &dConv{to: p.typ()}
	}
	if code == "li" {
		p.pos += 2
		return &dName{s: "operator \"\" " + p.sourceName().(*dName).s}
	}
	op, ok := edgOperatorFor(code)
	if !ok {
		p.fail()
	}
	p.pos += 2
	return &dName{s: "operator " + op.name}
}

// dConv is a conversion operator's name.
type dConv struct{ to dnode }

func (p *edgParser) cvQuals() string {
	var q []string
	if p.eat('r') {
		q = append(q, "restrict")
	}
	if p.eat('V') {
		q = append(q, "volatile")
	}
	if p.eat('K') {
		q = append([]string{"const"}, q...)
	}
	return strings.Join(q, " ")
}

// substitution reads S_, S<n>_ or a standard abbreviation; asType says
// it is used as a type (a prefix entry is then marked).
func (p *edgParser) substitution(asType bool) dnode {
	p.must('S')
	switch c := p.peek(); c {
	case 'a':
		p.pos++
		return &dQual{scope: &dName{s: "std"}, name: &dName{s: "allocator"}}
	case 'b':
		p.pos++
		return &dQual{scope: &dName{s: "std"}, name: &dName{s: "basic_string"}}
	case 's':
		p.pos++
		return &dName{s: "std::basic_string<char, std::char_traits<char>, std::allocator<char>>"}
	case 'i':
		p.pos++
		return &dName{s: "std::basic_istream<char, std::char_traits<char>>"}
	case 'o':
		p.pos++
		return &dName{s: "std::basic_ostream<char, std::char_traits<char>>"}
	case 'd':
		p.pos++
		return &dName{s: "std::basic_iostream<char, std::char_traits<char>>"}
	}
	id := p.seqID()
	if id >= len(p.subs) {
		p.fail()
	}
	n := p.subs[id]
	if asType && p.prefix[id] {
		return &dSubPrefix{n: n}
	}
	return n
}

func (p *edgParser) templateParam() dnode {
	p.must('T')
	if p.eat('L') {
		p.number()
		p.must('_')
	}
	// T_, T0_, T1_...: the number is decimal (not a base-36 seq-id):
	// nvlink prints T10_ as T12.
	if p.eat('_') {
		return &dParam{idx: 0}
	}
	n := p.number()
	p.must('_')
	return &dParam{idx: n + 1}
}

// templateArgs ::= I arg+ E
func (p *edgParser) templateArgs() []dnode {
	p.enter()
	defer p.leave()
	p.must('I')
	var args []dnode
	for !p.eat('E') {
		args = append(args, p.templateArg())
	}
	return args
}

func (p *edgParser) templateArg() dnode {
	switch p.peek() {
	case 'X':
		p.pos++
		e := p.expr()
		p.must('E')
		return &dExpr{s: e}
	case 'L':
		return &dExpr{s: p.literal()}
	case 'J':
		p.pos++
		var args []dnode
		for !p.eat('E') {
			args = append(args, p.templateArg())
		}
		return &dPackArgs{args: args}
	}
	return p.typ()
}

// literal ::= L type value E | L _Z encoding E
func (p *edgParser) literal() string {
	p.must('L')
	if p.peek2() == "_Z" || p.peek() == 'Z' {
		// an entity: its name, without parameters
		p.eat('_')
		p.pos++
		enc := p.encoding(true)
		p.must('E')
		return p.printName(enc.name)
	}
	t := p.typ()
	start := p.pos
	for p.pos < len(p.s) && p.s[p.pos] != 'E' {
		p.pos++
	}
	val := p.s[start:p.pos]
	p.must('E')
	if strings.HasPrefix(val, "n") {
		val = "-" + val[1:]
	}
	if val == "" {
		p.fail()
	}
	return "(" + p.printType(t, "") + ")" + val
}

// expr reads an expression and spells it as EDG does: operators between
// their operands without spaces or parentheses.
func (p *edgParser) expr() string {
	p.enter()
	defer p.leave()
	code := p.peek2()
	switch {
	case p.peek() == 'L':
		return p.literal()
	case p.peek() == 'T':
		return p.printType(p.templateParam(), "")
	case code == "fp":
		p.pos += 2
		p.cvQuals()
		if p.eat('_') {
			return "param#1"
		}
		n := p.number()
		p.must('_')
		return "param#" + strconv.Itoa(n+2)
	case code == "sr":
		p.pos += 2
		return p.unresolved()
	case code == "gs":
		// ::name, ::new, ::delete: the global scope
		p.pos += 2
		return "::" + p.expr()
	case code == "st":
		p.pos += 2
		return "sizeof(" + p.printType(p.typ(), "") + ")"
	case code == "sz":
		p.pos += 2
		return "sizeof(" + p.expr() + ")"
	case code == "at":
		p.pos += 2
		return "alignof(" + p.printType(p.typ(), "") + ")"
	case code == "az":
		p.pos += 2
		return "alignof(" + p.expr() + ")"
	case code == "cv":
		p.pos += 2
		t := p.printType(p.typ(), "")
		if p.eat('_') {
			var list []string
			for !p.eat('E') {
				list = append(list, p.expr())
			}
			return "(" + t + ")(" + strings.Join(list, ", ") + ")"
		}
		return "(" + t + ")" + p.expr()
	case code == "cl":
		p.pos += 2
		fn := p.expr()
		var list []string
		for !p.eat('E') {
			list = append(list, p.expr())
		}
		return fn + "(" + strings.Join(list, ", ") + ")"
	case code == "dt" || code == "pt":
		p.pos += 2
		a := p.expr()
		op := "."
		if code == "pt" {
			op = "->"
		}
		return a + op + p.unresolvedName()
	case code == "qu":
		p.pos += 2
		a, b, c := p.expr(), p.expr(), p.expr()
		return a + "?" + b + ":" + c
	case code == "ix":
		p.pos += 2
		a, b := p.expr(), p.expr()
		return a + "[" + b + "]"
	case code == "pp" || code == "mm":
		// Prefix with a '_' (pp_ x: ++x), postfix without (pp x: x++).
		p.pos += 2
		op := "++"
		if code == "mm" {
			op = "--"
		}
		if p.eat('_') {
			return op + p.expr()
		}
		return p.expr() + op
	case p.peek() >= '0' && p.peek() <= '9':
		return p.unresolvedName()
	}
	if op, ok := edgOperatorFor(code); ok && op.arity > 0 {
		p.pos += 2
		switch op.arity {
		case 1:
			return op.name + p.expr()
		case 2:
			a := p.expr()
			return a + op.name + p.expr()
		}
	}
	p.fail()
	return ""
}

// unresolved reads what follows "sr": an unresolved type and a name, or
// N type levels E name, or qualifier levels E name.
func (p *edgParser) unresolved() string {
	switch {
	case p.peek() == 'N':
		p.pos++
		var parts []string
		parts = append(parts, p.printType(p.unresolvedType(), ""))
		for !p.eat('E') {
			parts = append(parts, p.simpleID())
		}
		return strings.Join(parts, "::") + "::" + p.unresolvedName()
	case p.peek() == 'T' || p.peek() == 'D' || p.peek() == 'S':
		t := p.printType(p.unresolvedType(), "")
		return t + "::" + p.unresolvedName()
	}
	var parts []string
	for !p.eat('E') {
		parts = append(parts, p.simpleID())
	}
	if len(parts) == 0 {
		p.fail()
	}
	return strings.Join(parts, "::") + "::" + p.unresolvedName()
}

func (p *edgParser) unresolvedType() dnode {
	switch p.peek() {
	case 'T':
		n := p.templateParam()
		p.addSub(n, false)
		if p.peek() == 'I' {
			n = &dTmpl{name: n, args: p.templateArgs()}
			p.addSub(n, false)
		}
		return n
	case 'S':
		n := p.substitution(false)
		if p.peek() == 'I' {
			n = &dTmpl{name: n, args: p.templateArgs()}
			p.addSub(n, false)
		}
		return n
	}
	return p.typ()
}

// simpleID ::= source-name [template-args]
func (p *edgParser) simpleID() string {
	n := p.sourceName()
	if p.peek() == 'I' {
		t := &dTmpl{name: n, args: p.templateArgs()}
		return p.printName(t)
	}
	return p.printName(n)
}

// unresolvedName is a base-unresolved-name: a simple id, on/dn forms.
func (p *edgParser) unresolvedName() string {
	switch p.peek2() {
	case "on":
		p.pos += 2
		s := p.printName(p.operatorName())
		if p.peek() == 'I' {
			s += "<" + p.printArgs(p.templateArgs()) + ">"
		}
		return s
	case "dn":
		p.pos += 2
		if c := p.peek(); c >= '0' && c <= '9' {
			return "~" + p.simpleID()
		}
		return "~" + p.printType(p.typ(), "")
	}
	return p.simpleID()
}

// edgBuiltins are the builtin types' names by their codes (an array
// indexed by the code, made when the binary is built, unlike a map).
var edgBuiltins = [...]string{
	'v': "void", 'w': "wchar_t", 'b': "bool", 'c': "char", 'a': "signed char",
	'h': "unsigned char", 's': "short", 't': "unsigned short", 'i': "int",
	'j': "unsigned int", 'l': "long", 'm': "unsigned long", 'x': "long long",
	'y': "unsigned long long", 'n': "__int128", 'o': "unsigned __int128",
	'f': "float", 'd': "double", 'e': "long double", 'g': "__float128", 'z': "...",
}

// typ reads a type, recording the substitution candidates it makes.
func (p *edgParser) typ() dnode {
	p.enter()
	defer p.leave()
	c := p.peek()
	if int(c) < len(edgBuiltins) && edgBuiltins[c] != "" {
		b := edgBuiltins[c]
		p.pos++
		return &dBuiltin{s: b}
	}
	var t dnode
	switch c {
	case 'r', 'V', 'K':
		q := p.cvQuals()
		base := p.typ()
		if f, ok := base.(*dFunc); ok {
			t = &dFunc{ret: f.ret, params: f.params, quals: q, ref: f.ref}
		} else {
			t = &dCV{base: base, q: q}
		}
	case 'P':
		p.pos++
		t = &dPtr{base: p.typ()}
	case 'R':
		p.pos++
		t = &dRef{base: p.typ()}
	case 'O':
		p.pos++
		t = &dRRef{base: p.typ()}
	case 'F':
		p.pos++
		p.eat('Y')
		f := &dFunc{ret: p.typ()}
		for !p.eat('E') {
			if p.peek() == 'R' && p.pos+1 < len(p.s) && p.s[p.pos+1] == 'E' {
				p.pos++
				f.ref = "&"
				continue
			}
			if p.peek() == 'O' && p.pos+1 < len(p.s) && p.s[p.pos+1] == 'E' {
				p.pos++
				f.ref = "&&"
				continue
			}
			f.params = append(f.params, p.typ())
		}
		t = f
	case 'A':
		p.pos++
		var dim string
		if c := p.peek(); c >= '0' && c <= '9' {
			dim = strconv.Itoa(p.number())
		} else if c != '_' {
			dim = p.expr()
		}
		p.must('_')
		t = &dArray{dim: dim, elem: p.typ()}
	case 'M':
		p.pos++
		cls := p.typ()
		t = &dMemPtr{cls: cls, mem: p.typ()}
	case 'T':
		t = p.templateParam()
		if p.peek() == 'I' {
			p.addSub(t, false)
			t = &dTmpl{name: t, args: p.templateArgs()}
		}
	case 'S':
		if p.peek2() == "St" {
			n, _ := p.name()
			t = n
			break
		}
		n := p.substitution(true)
		if p.peek() != 'I' {
			return n
		}
		t = &dTmpl{name: n, args: p.templateArgs()}
	case 'D':
		switch p.peek2() {
		case "Dp":
			p.pos += 2
			t = &dExpand{base: p.typ()}
		case "Dn":
			p.pos += 2
			return &dBuiltin{s: "std::nullptr_t"}
		case "Ds":
			p.pos += 2
			return &dBuiltin{s: "char16_t"}
		case "Di":
			p.pos += 2
			return &dBuiltin{s: "char32_t"}
		case "Dt", "DT":
			// decltype of an id-expression or member access (Dt),
			// of another expression (DT): nvlink writes the second
			// in double parentheses.
			dt := p.peek2() == "DT"
			p.pos += 2
			e := p.expr()
			p.must('E')
			if dt {
				e = "(" + e + ")"
			}
			t = &dBuiltin{s: "decltype(" + e + ")"}
		default:
			p.fail()
		}
	case 'u':
		p.pos++
		return p.sourceName()
	case 'N', 'Z':
		n, _ := p.name()
		t = n
	default:
		if c >= '0' && c <= '9' || c == 'U' {
			n, _ := p.name()
			t = n
		} else {
			p.fail()
		}
	}
	p.addSub(t, false)
	return t
}

// printTop renders a whole encoding.
func (p *edgParser) printTop(e *dEncoding) string {
	return p.printEncoding(e)
}

func (p *edgParser) printEncoding(e *dEncoding) string {
	if e.fn == nil {
		return p.printName(e.name) + variantOf(e.name)
	}
	s := p.printName(e.name) + "(" + p.printParams(e.fn.params) + ")"
	if e.fn.quals != "" {
		s += " " + e.fn.quals
	}
	if e.fn.ref != "" {
		s += " " + e.fn.ref
	}
	if e.fn.ret != nil {
		s = p.printType(e.fn.ret, "") + " " + s
	}
	return s + variantOf(e.name)
}

// variantOf is the EDG suffix of a constructor or destructor name.
func variantOf(n dnode) string {
	for {
		switch x := n.(type) {
		case *dQual:
			n = x.name
		case *dTmpl:
			n = x.name
		case *dName:
			return x.variant
		default:
			return ""
		}
	}
}

func (p *edgParser) printParams(params []dnode) string {
	if len(params) == 1 {
		if b, ok := params[0].(*dBuiltin); ok && b.s == "void" {
			return ""
		}
	}
	list := make([]string, len(params))
	for i, t := range params {
		list[i] = p.printType(t, "")
	}
	return strings.Join(list, ", ")
}

func (p *edgParser) printArgs(args []dnode) string {
	list := make([]string, len(args))
	for i, a := range args {
		list[i] = p.printArg(a)
	}
	return strings.Join(list, ", ")
}

func (p *edgParser) printArg(a dnode) string {
	switch a := a.(type) {
	case *dExpr:
		return a.s
	case *dPackArgs:
		return p.printArgs(a.args)
	}
	return p.printType(a, "")
}

// printName renders a (possibly qualified, possibly template) name.
func (p *edgParser) printName(n dnode) string {
	p.count()
	switch n := n.(type) {
	case *dName:
		return n.s
	case *dQual:
		if s, ok := n.scope.(*dName); ok && strings.HasPrefix(s.s, "_INTERNAL_") {
			return p.printName(n.name)
		}
		return p.printName(n.scope) + "::" + p.printName(n.name)
	case *dTmpl:
		return p.printName(n.name) + "<" + p.printArgs(n.args) + ">"
	case *dLocal:
		s := p.printEncoding(n.enc) + "::" + p.printName(n.name)
		if n.disc >= 0 {
			s += " (instance " + strconv.Itoa(n.disc+2) + ")"
		}
		return s
	case *dConv:
		return "operator " + p.printType(n.to, "")
	case *dSubPrefix:
		return p.printName(n.n)
	case *dSpecialName:
		if n.enc == nil {
			return n.prefix + p.printType(n.name, "")
		}
		return n.prefix + p.printEncoding(n.enc)
	}
	return p.printType(n, "")
}

// printType renders a type around the declarator inner ("*", "(*)",
// "[3]"...), C style: pointers and references go to the right of what
// they point to, function and array types wrap the declarator.
func (p *edgParser) printType(t dnode, inner string) string {
	p.count()
	switch t := t.(type) {
	case *dPtr:
		return p.wrap(t.base, "*", inner)
	case *dRef:
		return p.wrap(t.base, "&", inner)
	case *dRRef:
		return p.wrap(t.base, "&&", inner)
	case *dCV:
		switch t.base.(type) {
		case *dPtr, *dRef, *dRRef, *dMemPtr:
			// char *const: the qualifier follows the pointer.
			return p.printType(t.base, t.q+" "+inner)
		}
		return t.q + " " + p.printType(t.base, inner)
	case *dArray:
		return p.printType(t.elem, inner+"["+t.dim+"]")
	case *dFunc:
		ret := "void"
		if t.ret != nil {
			ret = p.printType(t.ret, "")
		}
		s := join(ret, inner) + "(" + p.printParams(t.params) + ")"
		if t.quals != "" {
			s += " " + t.quals
		}
		if t.ref != "" {
			s += " " + t.ref
		}
		return s
	case *dMemPtr:
		decl := " :: " + p.printName(t.cls) + "::*" + inner
		if _, ok := t.mem.(*dFunc); ok {
			return p.printType(t.mem, "("+decl+")")
		}
		return join(p.printType(t.mem, ""), decl)
	case *dParam:
		return join("T"+strconv.Itoa(t.idx+1), inner)
	case *dExpand:
		return join(p.printType(t.base, "")+"...", inner)
	case *dClosure:
		return join("[lambda("+p.printParams(t.params)+") (instance "+strconv.Itoa(t.num+1)+")]", inner)
	case *dUnnamed:
		return join("[unnamed type (instance "+strconv.Itoa(t.num+1)+")]", inner)
	case *dBuiltin:
		return join(t.s, inner)
	case *dSubPrefix:
		return p.printName(t.n) + inner
	case *dTmpl:
		if _, ok := t.name.(*dSubPrefix); ok {
			return p.printName(t) + inner
		}
		return join(p.printName(t), inner)
	case *dName, *dQual, *dLocal, *dConv:
		return join(p.printName(t), inner)
	}
	p.fail()
	return ""
}

// wrap applies a pointer or reference declarator op to base; a function or
// array base takes it in parentheses: void (*)(int), int (&)[3].
func (p *edgParser) wrap(base dnode, op, inner string) string {
	switch base.(type) {
	case *dFunc, *dArray:
		return p.printType(base, "("+op+inner+")")
	}
	return p.printType(base, op+inner)
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

// special ::= TV/TT/TI/TS type | Th/Tv offset encoding | GV name
func (p *edgParser) special() *dEncoding {
	if prefix, ok := edgSpecial(p.peek2()); ok {
		p.pos += 2
		var n dnode
		if prefix == "Initialization guard variable for " {
			n, _ = p.name()
		} else {
			n = p.typ()
		}
		return &dEncoding{name: &dSpecialName{prefix: prefix, name: n}}
	}
	switch p.peek2() {
	case "Th":
		p.pos += 2
		off := p.callOffset()
		p.must('_')
		return &dEncoding{name: &dSpecialName{prefix: "Thunk for (offset " + off + ") ", enc: p.encoding(true)}}
	case "Tv":
		p.pos += 2
		off := p.callOffset()
		p.must('_')
		voff := p.callOffset()
		p.must('_')
		return &dEncoding{name: &dSpecialName{prefix: "Thunk for (offset " + off + ", virtual offset " + voff + ") ", enc: p.encoding(true)}}
	}
	p.fail()
	return nil
}

func (p *edgParser) callOffset() string {
	neg := p.eat('n')
	n := strconv.Itoa(p.number())
	if neg {
		return "-" + n
	}
	return n
}

// dSpecialName is a thunk (a prefix before the function it calls) or a
// virtual table, typeinfo or guard variable (a prefix before a name).
type dSpecialName struct {
	prefix string
	enc    *dEncoding
	name   dnode
}

// edgSpecial returns the words a special name's two-letter code stands
// for.
func edgSpecial(code string) (string, bool) {
	switch code {
	case "TV":
		return "Virtual function table for ", true
	case "TT":
		return "Virtual table table for ", true
	case "TI":
		return "Typeinfo for ", true
	case "TS":
		return "Typeinfo name for ", true
	case "GV":
		return "Initialization guard variable for ", true
	}
	return "", false
}
