package difftest

import (
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
)

// validatedFile lists nvlink's outputs (expected.cubin) that cuobjdump -elf
// and nvdisasm accepted (a ValidatedList, named by case). A cudalink output
// byte-identical to a listed one needs no second reading by the same
// programs. That reading took most of TestCorpus's time (nvdisasm: 0.1 to
// 1.4 s a file, about 1,500 outputs). Outputs that are not nvlink's bytes,
// and those of a case recorded again since, are read as before.
const validatedFile = "testdata/validated.txt"

var updateValidated = flag.Bool("update-validated", false,
	"read every output with cuobjdump and nvdisasm (none taken from "+validatedFile+
		"), and add those byte-identical to nvlink's to "+validatedFile)

// validatedHeader heads validatedFile.
const validatedHeader = `# nvlink's outputs (expected.cubin of the corpus) that cuobjdump -elf and
# nvdisasm accepted, by CUDA release, with the SHA-256 of the validators that
# read them. TestCorpus does not have the same programs read a cudalink output
# byte-identical to a listed one again; TestValidatedList reads a sample of the
# list again in every full run. Written by a run that reads every output:
#   go test ./tests/difftest/ -run 'TestCorpus$' -update-validated -timeout 60m
`

// validatedPath is validatedFile from the package's directory, where the
// test starts (links change the working directory).
var validatedPath, _ = filepath.Abs(validatedFile)

var validatedOnce = sync.OnceValues(func() (*ValidatedList, error) { return ReadValidatedList(validatedPath) })

// id is the identity of the validators in a ValidatedList.
func (v *validators) id() (string, error) { return ProgramsID(v.cuobjdump, v.nvdisasm) }

// listedValid says whether the output at path, byte-identical to nvlink's
// (identical), is one validatedFile lists as accepted by these very
// validators, so that they need not read it again. Never with
// -update-validated.
func listedValid(t *testing.T, tools *validators, toolkit, path string, identical bool) bool {
	t.Helper()
	if tools == nil || path == "" || !identical || *updateValidated {
		return false
	}
	l, id, data := validatedEntry(t, tools, path)
	return l.Listed(toolkit, id, data)
}

// validatedEntry is what listedValid and recordValidated look up or add:
// the list, the validators' identity and the bytes of the output at path.
func validatedEntry(t *testing.T, tools *validators, path string) (l *ValidatedList, id string, data []byte) {
	t.Helper()
	l, err := validatedOnce()
	if err != nil {
		t.Fatal(err)
	}
	if id, err = tools.id(); err != nil {
		t.Fatal(err)
	}
	if data, err = os.ReadFile(path); err != nil {
		t.Fatal(err)
	}
	return l, id, data
}

// recordValidated notes, under -update-validated, that the validators
// accepted the output at path of case name, which is nvlink's
// (expected.cubin) byte for byte; TestMain writes the list (writeValidated).
func recordValidated(t *testing.T, tools *validators, toolkit, name, path string) {
	t.Helper()
	if !*updateValidated || tools == nil || path == "" {
		return
	}
	l, id, data := validatedEntry(t, tools, path)
	l.Record(toolkit, id, name, data)
}

// writeValidated rewrites validatedFile after a run with
// -update-validated: the outputs accepted in this run, and those listed
// before for toolkits whose validators are the same programs, less any
// whose case's expected.cubin has other bytes now.
func writeValidated() error {
	l, err := validatedOnce()
	if err != nil {
		return err
	}
	current := map[string]map[string]string{}
	for _, tk := range l.Toolkits() {
		if current[tk], err = expectedSums(tk); err != nil {
			return err
		}
	}
	l.Keep(func(tk, name, sum string) bool { return current[tk][name] == sum })
	return l.Write(validatedPath, validatedHeader)
}

// toolkitCases are the cases of a toolkit.
func toolkitCases(toolkit string) ([]*Case, error) {
	if toolkit == DefaultToolkit {
		return LoadCases(corpusDir)
	}
	return LoadToolkitCases(corpusDir, toolkit)
}

// expectedSums is the SHA-256 of every expected.cubin of a toolkit's
// cases, by case name.
func expectedSums(toolkit string) (map[string]string, error) {
	cases, err := toolkitCases(toolkit)
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
		sums[c.Name] = hexSum(data)
	}
	return sums, nil
}

// validatedSample is how many listed outputs of each toolkit
// TestValidatedList has the validators read again.
const validatedSample = 8

// TestValidatedList holds validatedFile to what it claims: it counts the
// listed outputs that are the expected.cubin of the case they name (the
// others are stale, and used for nothing), and the validators it names,
// when they are the installed ones, must accept a random sample of those
// again (the seed is logged). Skipped with -short, as the validators are.
func TestValidatedList(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP: -short: cuobjdump/nvdisasm checks skipped")
	}
	l, err := ReadValidatedList(validatedPath)
	if err != nil {
		t.Fatal(err)
	}
	seed := rand.Uint64()
	t.Logf("sample seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	for _, tk := range l.Toolkits() {
		t.Run("cuda-"+tk, func(t *testing.T) {
			cases, err := toolkitCases(tk)
			if err != nil {
				t.Fatal(err)
			}
			current, err := expectedSums(tk)
			if err != nil {
				t.Fatal(err)
			}
			dirs := map[string]string{}
			for _, c := range cases {
				dirs[c.Name] = c.Dir
			}
			entries := l.Entries(tk)
			var live []string
			for name, sum := range entries {
				if current[name] == sum {
					live = append(live, name)
				}
			}
			sort.Strings(live)
			t.Logf("CUDA %s: %d outputs listed, %d of them a case's expected.cubin now", tk, len(entries), len(live))
			tools := toolkitTools(tk)
			if tools == nil {
				t.Skipf("SKIP: CUDA %s's cuobjdump/nvdisasm not installed", tk)
			}
			id, err := tools.id()
			if err != nil {
				t.Fatal(err)
			}
			if id != l.Tools(tk) {
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
