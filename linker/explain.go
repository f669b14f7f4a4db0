package linker

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ianlancetaylor/demangle"

	"github.com/cudalink/cudalink/linker/cubin"
)

// explainLink answers --why-live and writes the --map file. Dead-code
// elimination recorded, for every function it kept, the caller it was
// reached through (Function.KeptBy), so both fall out of the link's state.
func explainLink(ctx *Context) error {
	for _, name := range ctx.Config.WhyLive {
		ctx.whyLive(name)
	}
	if ctx.Config.MapFile == "" {
		return nil
	}
	var b bytes.Buffer
	ctx.writeMap(&b)
	if err := writeFileAtomic(ctx.Config.MapFile, b.Bytes()); err != nil {
		ctx.report(&LinkError{File: ctx.Config.MapFile, Msg: "cannot write link map: " + err.Error()})
		return ErrFailed
	}
	return nil
}

// whyLive prints why the function called name (mangled, or demangled as
// written) is in the output: the chain of calls from the root that kept it.
func (ctx *Context) whyLive(name string) {
	w := ctx.Config.Stdout
	if w == nil {
		return
	}
	var fn *Function
	for _, f := range ctx.allFuncs {
		if f.Sym.Name == name || demangled(f.Sym.Name) == name || demangled(f.Sym.Name) == normalizeSpaces(name) {
			fn = f
			break
		}
	}
	switch {
	case fn == nil:
		fmt.Fprintf(w, "cudalink: --why-live: no device function %s in the inputs\n", name)
		return
	case !fn.Live:
		fmt.Fprintf(w, "cudalink: %s is not kept: no kernel reaches it\n", displayName(fn.Sym.Name))
		return
	}
	fmt.Fprintf(w, "cudalink: %s is kept:\n", displayName(fn.Sym.Name))
	for f := fn; f != nil; f = f.KeptBy {
		switch {
		case f.KeptBy != nil:
			fmt.Fprintf(w, ">>> %s is called by %s\n", demangled(f.Sym.Name), demangled(f.KeptBy.Sym.Name))
		case f.Sym.IsEntry():
			fmt.Fprintf(w, ">>> %s is a kernel (%s)\n", demangled(f.Sym.Name), f.Text.File.Name)
		default:
			fmt.Fprintf(w, ">>> %s has its address taken (%s)\n", demangled(f.Sym.Name), f.Text.File.Name)
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

// writeMap writes the link map: output sections with their contributions,
// symbols, and removed functions.
func (ctx *Context) writeMap(out io.Writer) {
	w := bufio.NewWriter(out)
	defer w.Flush()
	fmt.Fprintf(w, "# cudalink link map: sm_%d, %d inputs, output %s\n", ctx.Config.Arch, len(ctx.Files), ctx.Config.Output)
	fmt.Fprintf(w, "\n## Sections\n# index name size align: contributions (input, input section, offset, size)\n")
	for _, osec := range ctx.OutSections {
		fmt.Fprintf(w, "%d %s size=0x%x align=%d\n", osec.Index, osec.Name, osec.Size, osec.Addralign)
		for _, isec := range osec.Members {
			if isec.Out != osec {
				continue
			}
			fmt.Fprintf(w, "    %s:(%s) +0x%x size=0x%x\n", isec.File.Name, isec.Sec.Name, isec.OutOff, isec.Sec.Size)
		}
	}
	fmt.Fprintf(w, "\n## Symbols\n# index name binding section value size input\n")
	for i, e := range ctx.symtab {
		sym := e.sym
		if sym == nil {
			continue // the null symbol or a section symbol
		}
		sec, from := "UND", ""
		if sym.Section != nil && sym.Section.Out != nil {
			sec = sym.Section.Out.Name
		}
		if sym.File != nil {
			from = sym.File.Name
		}
		bind := map[uint8]string{cubin.STB_LOCAL: "local", cubin.STB_GLOBAL: "global", cubin.STB_WEAK: "weak"}[sym.Bind()]
		fmt.Fprintf(w, "%d %s %s %s 0x%x 0x%x %s\n", i, sym.Name, bind, sec, sym.Value, sym.Size, from)
	}
	fmt.Fprintf(w, "\n## Removed functions (unreachable from any kernel)\n")
	var removed []string
	for _, fn := range ctx.allFuncs {
		if !fn.Live {
			removed = append(removed, fmt.Sprintf("%s %s", fn.Sym.Name, fn.Text.File.Name))
		}
	}
	slices.Sort(removed)
	if len(removed) == 0 {
		removed = []string{"(none)"}
	}
	fmt.Fprintln(w, strings.Join(removed, "\n"))
}

// normalizeSpaces spells a demangled name the way the demangler does
// ("int*, int" rather than "int *,int").
func normalizeSpaces(name string) string {
	name = strings.ReplaceAll(name, " *", "*")
	name = strings.ReplaceAll(name, ", ", ",")
	return strings.ReplaceAll(name, ",", ", ")
}
