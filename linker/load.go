package linker

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/cudalink/cudalink/linker/cubin"
)

// loadInputs reads and parses every input. Files are parsed in parallel;
// each goroutine fills only its own slot, so the result is in command-line
// order whatever the scheduling.
func loadInputs(ctx *Context) {
	cfg := ctx.Config
	paths := make([]string, len(cfg.Inputs))
	for i, in := range cfg.Inputs {
		if in.Library {
			p, err := findLibrary(in.Path, cfg.LibDirs)
			if err != nil {
				ctx.report(err)
				continue
			}
			paths[i] = p
		} else {
			paths[i] = in.Path
		}
	}
	if len(cfg.Inputs) == 0 {
		ctx.errorf("no input files")
		return
	}
	if ctx.failed() {
		return
	}

	slots := make([][]*InputFile, len(paths))
	errs := make([]error, len(paths))
	var g errgroup.Group
	g.SetLimit(cfg.Parallelism)
	for i, path := range paths {
		g.Go(func() error {
			slots[i], errs[i] = readInput(path)
			return nil
		})
	}
	g.Wait()
	for i := range paths {
		if errs[i] == errSkipped {
			ctx.warnf("ignoring input %s: it is not a cubin, host object or archive", paths[i])
			continue
		}
		if errs[i] != nil {
			ctx.report(errs[i])
			continue
		}
		for _, file := range slots[i] {
			file.Index = len(ctx.Files)
			ctx.Files = append(ctx.Files, file)
		}
	}
	if ctx.failed() {
		return
	}
	checkArchitectures(ctx)
}

// findLibrary looks for lib<name>.a in dirs, in order.
func findLibrary(name string, dirs []string) (string, error) {
	for _, dir := range dirs {
		p := filepath.Join(dir, "lib"+name+".a")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", &LinkError{Msg: fmt.Sprintf("cannot find library -l%s (searched lib%s.a in %d -L directories)", name, name, len(dirs))}
}

// readInput reads one file from disk and turns it into input files.
func readInput(path string) ([]*InputFile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &LinkError{File: path, Msg: "cannot open input file: no such file"}
		}
		return nil, &LinkError{File: path, Msg: "cannot read input file: " + err.Error()}
	}
	if !isELF(data) && !isArchive(data) {
		switch strings.ToLower(filepath.Ext(path)) {
		case ".cubin":
			// nvlink insists that a .cubin is ELF; parseCubin says why not.
		case ".ptx":
			return nil, &LinkError{File: path, Msg: "PTX inputs are not supported; compile them to a relocatable cubin with ptxas -c or nvcc -dc"}
		default:
			// nvlink skips inputs of other kinds without a word; cudalink
			// says so, and goes on as nvlink does.
			return nil, errSkipped
		}
	}
	file, err := parseCubin(path, data)
	if err != nil {
		return nil, err
	}
	return []*InputFile{file}, nil
}

// errSkipped marks an input that is neither ELF nor an archive and is not
// named .cubin: nvlink ignores such inputs, and so does cudalink, with a
// warning.
var errSkipped = errors.New("skipped")

func isELF(data []byte) bool     { return len(data) >= 4 && string(data[:4]) == "\x7fELF" }
func isArchive(data []byte) bool { return len(data) >= 8 && string(data[:8]) == "!<arch>\n" }

// parseCubin parses a relocatable cubin and decodes the per-file records
// the later passes need (relocations by section, call graph, prototypes,
// the global .nv.info).
func parseCubin(name string, data []byte) (*InputFile, error) {
	if len(data) >= 4 && string(data[:4]) == "\x7fELF" && len(data) >= 20 && !cubin.IsCubin(data) {
		return nil, &LinkError{File: name, Msg: "not a CUDA device object (ELF for another machine); host objects are not supported yet"}
	}
	if len(data) >= 8 && string(data[:8]) == "!<arch>\n" {
		return nil, &LinkError{File: name, Msg: "archives are not supported yet"}
	}
	ef, err := cubin.Parse(name, data)
	if err != nil {
		return nil, err
	}
	if ef.Header.Type != cubin.ET_REL {
		return nil, &LinkError{File: name, Msg: fmt.Sprintf("not a relocatable cubin (e_type %d); compile device code with nvcc -dc or -rdc=true", ef.Header.Type)}
	}
	file := &InputFile{Name: name, ELF: ef}
	file.Sections = make([]*InputSection, len(ef.Sections))
	for i, s := range ef.Sections {
		file.Sections[i] = &InputSection{File: file, Sec: s}
	}
	for _, rs := range ef.Relocs {
		isec := file.Sections[rs.Target]
		for _, r := range rs.Relocs {
			isec.Relocs = append(isec.Relocs, r)
			isec.Rela = append(isec.Rela, rs.Rela)
		}
	}
	if err := decodeCallgraph(file); err != nil {
		return nil, err
	}
	if err := decodeGlobalInfo(file); err != nil {
		return nil, err
	}
	return file, nil
}

// checkArchitectures checks every input against -arch: a cubin of the same
// SM major and an equal or lower minor is accepted, as nvlink does.
func checkArchitectures(ctx *Context) {
	target := ctx.Config.Arch
	ctx.virtualSM = 0
	for _, file := range ctx.Files {
		h := file.ELF.Header
		sm := h.SM()
		if sm/10 != target/10 || sm > target {
			ctx.report(&LinkError{File: file.Name,
				Msg: fmt.Sprintf("input is compiled for sm_%d, which does not match the target architecture sm_%d", sm, target)})
			continue
		}
		if v := h.VirtualSM(); ctx.virtualSM == 0 || v < ctx.virtualSM {
			ctx.virtualSM = v
		}
	}
}
