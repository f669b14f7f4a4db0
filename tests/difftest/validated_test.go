package difftest

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
)

// validatedFile lists nvlink's outputs (expected.cubin) that cuobjdump -elf
// and nvdisasm accepted, by toolkit, with the validators that read them. A
// cudalink output byte-identical to a listed one needs no second reading by
// the same programs: what they make of a file depends only on its bytes.
// That is what took most of TestCorpus's time (nvdisasm: 0.1 to 1.4 s a
// file, about 1,500 outputs). Outputs that are not nvlink's bytes, and
// those of a case recorded again since, are read as before.
const validatedFile = "testdata/validated.txt"

var updateValidated = flag.Bool("update-validated", false,
	"read every output with cuobjdump and nvdisasm (none taken from "+validatedFile+
		"), and add those byte-identical to nvlink's to "+validatedFile)

// validatedList is validatedFile read: the validators of each toolkit
// (their programs' SHA-256), and the outputs they accepted.
type validatedList struct {
	tools   map[string]string            // toolkit: "cuobjdump=<sha256> nvdisasm=<sha256>"
	outputs map[string]map[string]string // toolkit: SHA-256 of expected.cubin: case name
}

var validatedOnce = sync.OnceValues(func() (*validatedList, error) { return readValidated(validatedFile) })

// readValidated parses the list: comments (#), then `tools <toolkit>
// cuobjdump=<sha256> nvdisasm=<sha256>` and `<toolkit> <sha256> <case>`
// lines. A missing file is an empty list.
func readValidated(path string) (*validatedList, error) {
	l := &validatedList{tools: map[string]string{}, outputs: map[string]map[string]string{}}
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
		case len(fields) == 4 && fields[0] == "tools":
			l.tools[fields[1]] = fields[2] + " " + fields[3]
		case len(fields) == 3 && len(fields[1]) == 64:
			if l.tools[fields[0]] == "" {
				return nil, fmt.Errorf("%s:%d: an output of CUDA %s before its tools line", path, n, fields[0])
			}
			if l.outputs[fields[0]] == nil {
				l.outputs[fields[0]] = map[string]string{}
			}
			l.outputs[fields[0]][fields[1]] = fields[2]
		default:
			return nil, fmt.Errorf("%s:%d: not a tools line or `<toolkit> <sha256> <case>`: %q", path, n, line)
		}
	}
	return l, sc.Err()
}

// toolIDs caches validators.id by the programs' paths.
var toolIDs sync.Map

// id is the identity of the validators: the SHA-256 of each program.
func (v *validators) id() (string, error) {
	key := v.cuobjdump + "\x00" + v.nvdisasm
	if id, ok := toolIDs.Load(key); ok {
		return id.(string), nil
	}
	var parts []string
	for _, p := range []struct{ name, path string }{{"cuobjdump", v.cuobjdump}, {"nvdisasm", v.nvdisasm}} {
		data, err := os.ReadFile(p.path)
		if err != nil {
			return "", err
		}
		parts = append(parts, fmt.Sprintf("%s=%x", p.name, sha256.Sum256(data)))
	}
	id := strings.Join(parts, " ")
	toolIDs.Store(key, id)
	return id, nil
}

// listedValid says whether the output at path, byte-identical to nvlink's
// (identical), is one validatedFile lists as accepted by these very
// validators, so that they need not read it again. Never with
// -update-validated.
func listedValid(t *testing.T, tools *validators, toolkit, path string, identical bool) bool {
	t.Helper()
	if tools == nil || path == "" || !identical || *updateValidated {
		return false
	}
	l, err := validatedOnce()
	if err != nil {
		t.Fatal(err)
	}
	id, err := tools.id()
	if err != nil {
		t.Fatal(err)
	}
	if l.tools[toolkit] != id {
		return false
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	_, ok := l.outputs[toolkit][hex.EncodeToString(sum[:])]
	return ok
}

// newlyValidated are the outputs byte-identical to nvlink's that the
// validators accepted in a run with -update-validated, written to
// validatedFile when the run ends (writeValidated).
var newlyValidated struct {
	sync.Mutex
	tools   map[string]string
	outputs map[string]map[string]string
}

// recordValidated notes, under -update-validated, that the validators
// accepted the output at path of case name, which is nvlink's
// (expected.cubin) byte for byte.
func recordValidated(t *testing.T, tools *validators, toolkit, name, path string) {
	t.Helper()
	if !*updateValidated || tools == nil || path == "" {
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	id, err := tools.id()
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	nv := &newlyValidated
	nv.Lock()
	defer nv.Unlock()
	if nv.tools == nil {
		nv.tools, nv.outputs = map[string]string{}, map[string]map[string]string{}
	}
	nv.tools[toolkit] = id
	if nv.outputs[toolkit] == nil {
		nv.outputs[toolkit] = map[string]string{}
	}
	nv.outputs[toolkit][hex.EncodeToString(sum[:])] = name
}

// writeValidated rewrites validatedFile after a run with
// -update-validated: the outputs accepted in this run, and those listed
// before for toolkits whose validators are the same programs, less any
// whose case's expected.cubin has other bytes now.
func writeValidated() error {
	nv := &newlyValidated
	old, err := readValidated(validatedFile)
	if err != nil {
		return err
	}
	for tk, id := range nv.tools {
		if old.tools[tk] != id {
			old.tools[tk] = id
			old.outputs[tk] = nil
		}
		if old.outputs[tk] == nil {
			old.outputs[tk] = map[string]string{}
		}
		for sum, name := range nv.outputs[tk] {
			old.outputs[tk][sum] = name
		}
	}
	var b strings.Builder
	b.WriteString(`# nvlink's outputs (expected.cubin of the corpus) that cuobjdump -elf and
# nvdisasm accepted, by CUDA release, with the SHA-256 of the validators that
# read them. TestCorpus does not have the same programs read a cudalink output
# byte-identical to a listed one again; TestValidatedList reads a sample of the
# list again in every full run. Written by a run that reads every output:
#   go test ./tests/difftest/ -run 'TestCorpus$' -update-validated -timeout 60m
`)
	for _, tk := range slices.Sorted(maps.Keys(old.tools)) {
		fmt.Fprintf(&b, "tools %s %s\n", tk, old.tools[tk])
		current, err := expectedSums(tk)
		if err != nil {
			return err
		}
		var lines []string
		for sum, name := range old.outputs[tk] {
			if current[name] == sum {
				lines = append(lines, fmt.Sprintf("%s %s %s\n", tk, sum, name))
			}
		}
		sort.Strings(lines)
		b.WriteString(strings.Join(lines, ""))
	}
	return os.WriteFile(validatedFile, []byte(b.String()), 0o644)
}

// expectedSums is the SHA-256 of every expected.cubin of a toolkit's
// cases, by case name.
func expectedSums(toolkit string) (map[string]string, error) {
	var cases []*Case
	var err error
	if toolkit == DefaultToolkit {
		cases, err = LoadCases(corpusDir)
	} else {
		cases, err = LoadToolkitCases(corpusDir, toolkit)
	}
	if err != nil {
		return nil, err
	}
	sums := map[string]string{}
	for _, c := range cases {
		data, err := os.ReadFile(filepath.Join(c.Dir, "expected.cubin"))
		if os.IsNotExist(err) {
			continue
		} else if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(data)
		sums[c.Name] = hex.EncodeToString(sum[:])
	}
	return sums, nil
}

// validatedSample is how many listed outputs of each toolkit
// TestValidatedList has the validators read again.
const validatedSample = 8

// TestValidatedList holds validatedFile to what it claims: every listed
// output is the expected.cubin of the case it names (as it is now, or the
// entry is stale and counted), and the validators it names, when they are
// the installed ones, accept a random sample of them again (the seed is
// logged). Skipped with -short, as the validators are.
func TestValidatedList(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP: -short: cuobjdump/nvdisasm checks skipped")
	}
	l, err := readValidated(validatedFile)
	if err != nil {
		t.Fatal(err)
	}
	seed := rand.Uint64()
	t.Logf("sample seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	for _, tk := range slices.Sorted(maps.Keys(l.tools)) {
		t.Run("cuda-"+tk, func(t *testing.T) {
			current, err := expectedSums(tk)
			if err != nil {
				t.Fatal(err)
			}
			dirs := map[string]string{}
			cases, err := LoadCases(corpusDir)
			if tk != DefaultToolkit {
				cases, err = LoadToolkitCases(corpusDir, tk)
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range cases {
				dirs[c.Name] = c.Dir
			}
			var live []string
			for sum, name := range l.outputs[tk] {
				if current[name] == sum {
					live = append(live, name)
				}
			}
			sort.Strings(live)
			t.Logf("CUDA %s: %d outputs listed, %d of them a case's expected.cubin now", tk, len(l.outputs[tk]), len(live))
			tools := toolkitTools(tk)
			if tools == nil {
				t.Skipf("SKIP: CUDA %s's cuobjdump/nvdisasm not installed", tk)
			}
			id, err := tools.id()
			if err != nil {
				t.Fatal(err)
			}
			if id != l.tools[tk] {
				t.Skipf("SKIP: CUDA %s's installed cuobjdump/nvdisasm are not the listed ones (TestCorpus reads every output with them)", tk)
			}
			rng.Shuffle(len(live), func(i, j int) { live[i], live[j] = live[j], live[i] })
			for _, name := range live[:min(validatedSample, len(live))] {
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					checkTools(t, tools, filepath.Join(dirs[name], "expected.cubin"), "nvlink's output, which "+validatedFile+" lists as read by these programs")
				})
			}
		})
	}
}
