package linker

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/ianlancetaylor/demangle"

	"github.com/cudalink/cudalink/linker/cubin"
)

// explainLink answers --why-live and writes the --map file. Dead-code
// elimination recorded, for every function, what it decided and why
// (deadCodeRecord.why), and for a function kept because a kept one calls it,
// that caller (deadCodeRecord.keptBy), so both fall out of the link's state.
func explainLink(ctx *linkContext) error {
	if len(ctx.config.WhyLive) > 0 && ctx.config.Stdout != nil {
		if ctx.config.archLabel != "" {
			fmt.Fprintf(ctx.config.Stdout, "cudalink: --why-live in the %s link:\n", ctx.config.archLabel)
		}
		targets := ctx.explainTargets()
		for _, query := range ctx.config.WhyLive {
			ctx.whyLive(ctx.config.Stdout, query, targets)
		}
	}
	if ctx.config.MapFile == "" {
		return nil
	}
	if ctx.config.mapOut != nil {
		ctx.writeMap(ctx.config.mapOut) // runArchs writes it with the others, Run prints --map=-
		return nil
	}
	var b bytes.Buffer
	ctx.writeMap(&b)
	if err := ctx.config.writeFileAtomic(ctx.config.MapFile, b.Bytes()); err != nil {
		ctx.report(&linkError{file: ctx.config.MapFile, msg: "cannot write link map: " + err.Error()})
		return ErrFailed
	}
	return nil
}

// An explainTarget is a function or variable --why-live can be asked
// about, with the spellings of its name a question may use.
type explainTarget struct {
	sym  *symbol
	fn   *function // nil for a variable
	file *inputFile
	// The spellings, from the most to the least precise: the mangled name
	// (a ptxas clone's "$N" taken off in base), the demangled name with
	// its parameters, as --dump-callgraph spells it, without parameters
	// ("transform<float>", "ns::f"), without template arguments either
	// ("transform"), and the last component of that ("f"). A name that
	// does not demangle (a C name, a variable at file scope) is its own
	// spelling at every level; nvcc's file-static names
	// ("__nv_static_<n>_<hash>_name") are also spelt without the prefix.
	mangled, base, full, edg, noParams, noTemplate, plain string
}

// explainTargets lists every function definition of the link, kept or
// removed, and every variable definition: the global ones and each file's
// static ones.
func (ctx *linkContext) explainTargets() []*explainTarget {
	var targets []*explainTarget
	for _, fn := range ctx.allFuncs {
		targets = append(targets, newExplainTarget(fn.sym, fn, fn.text.file))
	}
	isVariable := func(sym *symbol) bool {
		t := sym.typ()
		return sym.defined() && (t == cubin.STT_OBJECT || t == cubin.STT_CUDA_OBJECT) &&
			sym.name != "_param" && !strings.Contains(sym.name, ".const_opt.")
	}
	for _, sym := range ctx.symbols {
		if !sym.local && isVariable(sym) {
			targets = append(targets, newExplainTarget(sym, nil, sym.file))
		}
	}
	for _, file := range ctx.files {
		for _, sym := range file.syms {
			if sym != nil && sym.local && sym.file == file && isVariable(sym) {
				targets = append(targets, newExplainTarget(sym, nil, file))
			}
		}
	}
	return targets
}

func newExplainTarget(sym *symbol, fn *function, file *inputFile) *explainTarget {
	t := &explainTarget{sym: sym, fn: fn, file: file, mangled: sym.name}
	t.base, _, _ = strings.Cut(sym.name, "$")
	name := staticName(t.base)
	spell := func(opts ...demangle.Option) string {
		if d, err := demangle.ToString(name, opts...); err == nil {
			return d
		}
		return name
	}
	t.full = spell(demangle.NoClones)
	t.edg = edgName(t.base)
	t.noParams = spell(demangle.NoParams)
	t.noTemplate = spell(demangle.NoParams, demangle.NoTemplateParams)
	t.plain = t.noTemplate
	if i := strings.LastIndex(t.plain, "::"); i >= 0 {
		t.plain = t.plain[i+2:]
	}
	return t
}

// display is the target's name in messages: demangled, with the name as
// the symbol table spells it beside it.
func (t *explainTarget) display() string {
	if t.full != t.mangled {
		return t.full + " (" + t.mangled + ")"
	}
	return t.mangled
}

// staticName strips nvcc's prefix of a file-static name,
// "__nv_static_<n>_<n characters>_", leaving the name as written (or its
// mangled form).
func staticName(name string) string {
	rest, ok := strings.CutPrefix(name, "__nv_static_")
	if !ok {
		return name
	}
	digits := 0
	for digits < len(rest) && rest[digits] >= '0' && rest[digits] <= '9' {
		digits++
	}
	n, err := strconv.Atoi(rest[:digits])
	if skip := digits + 1 + n + 1; err == nil && skip < len(rest) {
		return rest[skip:]
	}
	return name
}

// squash drops the spaces of a demangled name, so that "int *, int" and
// "int*, int" compare equal.
func squash(s string) string { return strings.ReplaceAll(s, " ", "") }

// lookupTargets returns the targets a --why-live question names, at the
// most precise level any of them matches: the mangled name, then the
// mangled name of a function and its ptxas clones ("f$1"), then the
// demangled name with parameters (or --dump-callgraph's spelling of it),
// then without parameters, then the plain name.
func lookupTargets(query string, targets []*explainTarget) []*explainTarget {
	q := squash(query)
	levels := []func(t *explainTarget) bool{
		func(t *explainTarget) bool { return query == t.mangled },
		func(t *explainTarget) bool { return query == t.base },
		func(t *explainTarget) bool { return q == squash(t.full) || q == squash(t.edg) },
		func(t *explainTarget) bool { return q == squash(t.noParams) },
		func(t *explainTarget) bool { return query == t.noTemplate || query == t.plain },
	}
	for _, match := range levels {
		var found []*explainTarget
		for _, t := range targets {
			if match(t) {
				found = append(found, t)
			}
		}
		if len(found) > 0 {
			return found
		}
	}
	return nil
}

// maxSuggestions bounds the names one "did you mean" lists.
const maxSuggestions = 10

// suggest returns, for "did you mean", the names closest to a question
// that names nothing. A question with a parameter list whose name without
// it names functions ("bump(double*)" where bump(float*) and bump(int*)
// exist) gets those functions spelt in full. Otherwise the spellings
// nearest by edit distance, over every spelling of every target (plain,
// without parameters, demangled in full, as --dump-callgraph spells it,
// mangled, shown with its demangled name), with spaces left out and case
// counting as one edit at most.
func suggest(query string, targets []*explainTarget) []string {
	if name, ok := withoutParams(query); ok {
		var names []string
		for _, t := range lookupTargets(name, targets) {
			if !slices.Contains(names, t.full) {
				names = append(names, t.full)
			}
		}
		if len(names) > 0 {
			slices.Sort(names)
			return names
		}
	}
	q := squash(query)
	limit := max(2, len(q)/4)
	best := limit + 1
	var names []string
	for _, t := range targets {
		for _, s := range []string{t.plain, t.noParams, t.full, t.edg, t.mangled} {
			d := nameDistance(q, squash(s), best)
			if d > best {
				continue
			}
			if d < best {
				best, names = d, nil
			}
			if s == t.mangled && t.full != t.mangled {
				s += " (" + t.full + ")" // a mangled name, readable beside
			}
			if !slices.Contains(names, s) {
				names = append(names, s)
			}
		}
	}
	slices.Sort(names)
	return names
}

// nameDistance is EditDistance with case set aside: names that differ
// only in case are one edit apart.
func nameDistance(a, b string, bound int) int {
	la, lb := strings.ToLower(a), strings.ToLower(b)
	d := EditDistance(la, lb, bound)
	if d == 0 && a != b {
		d = 1
	}
	return d
}

// withoutParams cuts a question's parameter list, and a return type before
// its name ("float transform<float>(int)" gives "transform<float>"), and
// says whether it had a parameter list.
func withoutParams(query string) (string, bool) {
	depth, open := 0, -1
	for i, c := range query {
		switch c {
		case '<':
			depth++
		case '>':
			depth--
		case '(':
			if depth == 0 && open < 0 {
				open = i
			}
		}
	}
	if open <= 0 {
		return "", false
	}
	name := strings.TrimSpace(query[:open])
	depth = 0
	for i := len(name) - 1; i >= 0; i-- {
		switch name[i] {
		case '>':
			depth++
		case '<':
			depth--
		case ' ':
			if depth == 0 {
				return name[i+1:], true
			}
		}
	}
	return name, true
}

// EditDistance is the optimal string alignment distance between a and b
// (insertions, deletions, substitutions and swaps of two adjacent bytes,
// each one edit), or a value above bound once it is sure to pass it. The
// --why-live and the command line's "did you mean" both use it.
func EditDistance(a, b string, bound int) int {
	if d := len(a) - len(b); d > bound || -d > bound {
		return bound + 1
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			rowMin = min(rowMin, cur[j])
		}
		// A swap reaches back two rows, but never below the row
		// before's minimum (prev[j-1] <= prev2[j-2]+1): rows' minima
		// do not fall.
		if rowMin > bound {
			return bound + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// whyLive answers one --why-live question: for each function or variable
// the name stands for, whether the output keeps it and why.
func (ctx *linkContext) whyLive(w io.Writer, query string, targets []*explainTarget) {
	found := lookupTargets(query, targets)
	switch {
	case len(found) == 0:
		fmt.Fprintf(w, "cudalink: --why-live: no device function or variable %s in the inputs", query)
		switch names := suggest(query, targets); {
		case len(names) == 1:
			fmt.Fprintf(w, "; did you mean %s?\n", names[0])
		case len(names) > 1:
			fmt.Fprintln(w, "; did you mean one of these?")
			for _, name := range names[:min(len(names), maxSuggestions)] {
				fmt.Fprintf(w, ">>> %s\n", name)
			}
			if len(names) > maxSuggestions {
				fmt.Fprintf(w, ">>> and %d more\n", len(names)-maxSuggestions)
			}
		default:
			fmt.Fprintln(w)
		}
		return
	case len(found) > 1:
		fmt.Fprintf(w, "cudalink: --why-live: %s names %d symbols:\n", query, len(found))
		for _, t := range found {
			fmt.Fprintf(w, ">>> %s in %s\n", t.display(), t.file.Name)
		}
	}
	for _, t := range found {
		if t.fn != nil {
			ctx.explainFunction(w, t)
		} else {
			ctx.explainVariable(w, t)
		}
	}
}

// explainFunction says why a function is kept (the chain of calls back to
// the root that kept it) or what removed it.
func (ctx *linkContext) explainFunction(w io.Writer, t *explainTarget) {
	fn := t.fn
	head := fmt.Sprintf("cudalink: %s in %s", t.display(), t.file.Name)
	if !ctx.isLive(fn) {
		fmt.Fprintf(w, "%s is not kept: %s\n", head, ctx.removalReason(fn))
		if ctx.decisionOf(fn).why == removedUnreachable {
			var callers []string
			for _, f := range ctx.allFuncs {
				if slices.Contains(f.callees, fn) {
					callers = append(callers, demangled(f.sym.name))
				}
			}
			if len(callers) > 0 {
				fmt.Fprintf(w, ">>> only removed functions call it: %s\n", strings.Join(callers, ", "))
			}
		}
		return
	}
	fmt.Fprintf(w, "%s is kept:\n", head)
	for f := fn; f != nil; f = ctx.decisionOf(f).keptBy {
		name := demangled(f.sym.name)
		switch ctx.decisionOf(f).why {
		case keptCalled:
			fmt.Fprintf(w, ">>> %s is called by %s\n", name, demangled(ctx.decisionOf(f).keptBy.sym.name))
		case keptKernel:
			fmt.Fprintf(w, ">>> %s is a kernel (%s)%s\n", name, f.text.file.Name, ctx.kernelKeptBy(f))
		case keptAddrTaken:
			fmt.Fprintf(w, ">>> %s has its address taken (%s)\n", name, f.text.file.Name)
		case keptAll:
			opt := "-preserve-relocs"
			if ctx.config.Debug {
				opt = "-g"
			}
			fmt.Fprintf(w, ">>> %s is in a link with %s, which keeps every function (%s)\n", name, opt, f.text.file.Name)
			if ctx.decisionOf(f).pruned != 0 && ctx.demoted(f) {
				fmt.Fprintf(w, ">>> it stays as an ordinary function, not as a kernel, because %s\n", ctx.removalReason(f))
			}
		}
	}
}

// kernelKeptBy says what keeps a kernel when a rule could have removed
// it, as the end of "... is a kernel (file)".
func (ctx *linkContext) kernelKeptBy(fn *function) string {
	switch {
	case ctx.config.Debug:
		return ": -g keeps every kernel"
	case ctx.usedLists():
		for _, s := range ctx.config.KernelsUsed {
			if strings.Contains(fn.sym.name, s) {
				return fmt.Sprintf(": its name contains the -kernels-used string '%s'", s)
			}
		}
	case ctx.hostKernelRefs() != nil:
		return ": host code references it (host-reference pruning keeps it)"
	}
	return ""
}

// removalReason says why dead-code elimination removed a function (or,
// under -preserve-relocs, why it would have removed a kernel).
func (ctx *linkContext) removalReason(fn *function) string {
	switch pruned := ctx.decisionOf(fn).pruned; {
	case pruned == removedByKernelsUsed && len(ctx.config.KernelsUsed) == 0:
		return "it is a kernel, and -variables-used without -kernels-used keeps no kernel (as nvlink 11.8 does)"
	case pruned == removedByKernelsUsed:
		return "it is a kernel, removed by -kernels-used: its name contains none of " + quoteList(ctx.config.KernelsUsed)
	case pruned == removedByHostRefs:
		return "it is a kernel no host object references (host-reference pruning: nvlink keeps only the kernels the host code of the inputs launches; -ignore-host-info keeps them all)"
	}
	return "no kept function calls it and its address is not taken"
}

// quoteList spells -kernels-used's strings: 'a', 'b'.
func quoteList(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = "'" + s + "'"
	}
	return strings.Join(q, ", ")
}

// explainVariable says whether a variable is kept: nvlink 11.8 removes no
// __device__ or __constant__ variable; 12.x's rebuild of a bank 3 past 64
// KiB (rebuildConstantBank) leaves out the __constant__ ones nothing kept
// uses in a pruned link. It also says which kept functions refer to it by
// name.
func (ctx *linkContext) explainVariable(w io.Writer, t *explainTarget) {
	sym := t.sym
	head := fmt.Sprintf("cudalink: %s in %s", t.display(), t.file.Name)
	if sym.space() == cubin.STO_CUDA_SHARED || sym.section != nil && strings.HasPrefix(sym.section.sec.Name, ".nv.shared.") {
		fmt.Fprintf(w, "%s is a __shared__ variable: it is laid out in the shared memory of each kept kernel that reaches a function using it\n", head)
		return
	}
	rb := ctx.bank3
	rebuilt := rb != nil && sym.section != nil && sym.section.out == rb.osec
	switch {
	case rebuilt && (ctx.isDeleted(sym) || ctx.unusedConstant(sym)):
		fmt.Fprintf(w, "%s is not kept: bank 3 passed 64 KiB (0x%x bytes), and nvlink 12.x rebuilds it variable by variable with only what kept code and data use (no -variables-used string or host object's list names it)", head, rb.firstMerge)
		if ctx.unusedConstant(sym) {
			fmt.Fprint(w, "; -preserve-relocs keeps its symbol, at its old offset")
		}
		fmt.Fprintln(w)
		return
	case sym.section != nil && ctx.placed(sym).out == nil:
		fmt.Fprintf(w, "%s is not kept: its section %s is not in the output\n", head, sym.section.sec.Name)
		return
	case rebuilt:
		fmt.Fprintf(w, "%s is kept: bank 3 passed 64 KiB (0x%x bytes), and nvlink 12.x rebuilds it variable by variable with what kept code and data use, -variables-used and the host objects' lists name; it is at 0x%x\n", head, rb.firstMerge, ctx.placed(sym).value)
	default:
		fmt.Fprintf(w, "%s is kept: it is a variable, and nvlink 11.8 removes no variable (-variables-used only matters to link-time optimization)\n", head)
	}
	for _, fn := range ctx.funcs {
		for r := range fn.text.relocs() {
			if int(r.Sym) < len(fn.text.file.syms) && fn.text.file.syms[r.Sym] == sym {
				fmt.Fprintf(w, ">>> %s uses it\n", demangled(fn.sym.name))
				break
			}
		}
	}
}

// demangled returns a C++ name demangled; ptxas's clones keep their "$N"
// suffix as a note.
func demangled(name string) string {
	base, clone, _ := strings.Cut(name, "$")
	d, err := demangle.ToString(base, demangle.NoClones)
	if err != nil {
		return name
	}
	if clone != "" {
		d += " [clone $" + clone + "]"
	}
	return d
}

// demangledNote is " // <demangled>" for a name that demangles (or a
// section named after a function, ".text._Z3fooi", or a file-static name
// of nvcc's), the link map's way of showing the demangled name beside the
// mangled one; "" otherwise.
func demangledNote(name string) string {
	if i := strings.Index(name, "._Z"); i >= 0 && strings.HasPrefix(name, ".") {
		name = name[i+1:]
	}
	if d := demangled(staticName(name)); d != name {
		return " // " + d
	}
	return ""
}

// removedTag names, in the link map, what removed a function.
func (ctx *linkContext) removedTag(fn *function) string {
	switch why := ctx.decisionOf(fn).why; {
	case why == removedByKernelsUsed && len(ctx.config.KernelsUsed) == 0:
		return "variables-used"
	case why == removedByKernelsUsed:
		return "kernels-used"
	case why == removedByHostRefs:
		return "host-reference-pruning"
	}
	return "unreachable"
}

// writeMap writes the link map: output sections with their contributions,
// symbols, and removed functions.
func (ctx *linkContext) writeMap(out io.Writer) {
	w := bufio.NewWriter(out)
	defer w.Flush()
	fmt.Fprintf(w, "# cudalink link map: sm_%d, %d inputs, output %s\n", ctx.config.Arch, len(ctx.files), ctx.config.Output)
	fmt.Fprintf(w, "# A mangled name is followed by \"// \" and the name demangled, at the end of its line.\n")
	fmt.Fprintf(w, "\n## Sections\n# index name size align: contributions (input, input section, offset, size)\n")
	for _, osec := range ctx.outSections {
		fmt.Fprintf(w, "%d %s size=0x%x align=%d%s\n", osec.index, osec.name, osec.size, osec.addralign, demangledNote(osec.name))
		for _, isec := range osec.members {
			if isec.out != osec {
				continue
			}
			fmt.Fprintf(w, "    %s:(%s) +0x%x size=0x%x\n", isec.file.Name, isec.sec.Name, isec.outOff, isec.sec.Size)
		}
	}
	fmt.Fprintf(w, "\n## Symbols\n# index name binding section value size input\n")
	for i, e := range ctx.symtab.entries {
		sym := e.sym
		if sym == nil {
			continue // the null symbol or a section symbol
		}
		sec, from := "UND", ""
		at := ctx.placed(sym)
		if at.out != nil {
			sec = at.out.name
		}
		if sym.file != nil {
			from = sym.file.Name
		}
		bind := map[uint8]string{cubin.STB_LOCAL: "local", cubin.STB_GLOBAL: "global", cubin.STB_WEAK: "weak"}[sym.bind()]
		fmt.Fprintf(w, "%d %s %s %s 0x%x 0x%x %s%s\n", i, sym.name, bind, sec, at.value, sym.size, from, demangledNote(sym.name))
	}
	fmt.Fprintf(w, "\n## Removed functions\n# name input reason (kernels-used: a kernel -kernels-used does not name;\n"+
		"# variables-used: a kernel, with -variables-used and no -kernels-used; host-reference-pruning:\n"+
		"# a kernel no host object references; unreachable: no kept function calls it)\n")
	var removed []string
	for _, fn := range ctx.allFuncs {
		if !ctx.isLive(fn) {
			removed = append(removed, fmt.Sprintf("%s %s %s%s", fn.sym.name, fn.text.file.Name, ctx.removedTag(fn), demangledNote(fn.sym.name)))
		}
	}
	slices.Sort(removed)
	if len(removed) == 0 {
		removed = []string{"(none)"}
	}
	fmt.Fprintln(w, strings.Join(removed, "\n"))
}
