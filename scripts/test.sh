#!/usr/bin/env bash
# Runs the test suite and prints a line per stage with its time, then one
# summary line.
#
#   bash scripts/test.sh           everything: lint, setup (scripts/setup.sh,
#                                  needs root the first time), every Go test
#                                  (differential tests against nvlink, Bazel,
#                                  worker, robustness), every fuzz target
#   bash scripts/test.sh --quick   the pre-commit check, under 3 minutes on a
#                                  quiet 2-core machine: lint, the BUILD.bazel
#                                  check (check_build_files), then
#                                  `go test -short` of quick_packages below
#                                  (no setup, no fuzzing; see there)
#
# Lint needs no root and runs first. The stages go on after a failure so that
# one run shows every failure; the exit status is non-zero if any stage failed.
set -uo pipefail
cd "$(dirname "$0")/.."

quick=0
case "${1:-}" in
  --quick) quick=1 ;;
  "") ;;
  *) echo "usage: bash scripts/test.sh [--quick]" >&2; exit 2 ;;
esac

logs=$(mktemp -d "${TMPDIR:-/tmp}/cudalink-test.XXXXXX")
failures=0
failed_stages=()

# cpu_seconds: the CPU time (user and system) of this script and of the
# commands it has run and waited for so far, in whole seconds (Linux's
# /proc; 0 elsewhere).
cpu_seconds() {
  local tck
  tck=$(getconf CLK_TCK 2>/dev/null || echo 100)
  awk -v tck="$tck" '{ sub(/^.*\) /, ""); print int(($12 + $13 + $14 + $15) / tck) }' /proc/$$/stat 2>/dev/null || echo 0
}

# stage NAME CMD...: runs one stage, then prints its outcome, its time and
# the CPU time its commands took (on a busy machine the CPU time says more
# about the stage than the time).
stage() {
  local name=$1 t0=$SECONDS c0
  c0=$(cpu_seconds)
  shift
  echo "== $name"
  if "$@"; then
    echo "== $name: ok ($((SECONDS - t0)) s, CPU $(($(cpu_seconds) - c0)) s)"
  else
    echo "== $name: FAILED ($((SECONDS - t0)) s, CPU $(($(cpu_seconds) - c0)) s)"
    failures=$((failures + 1))
    failed_stages+=("$name")
  fi
}

check_gofmt() {
  local out
  out=$(gofmt -l $(git ls-files '*.go'))
  [ -z "$out" ] && return 0
  echo "gofmt would change:"
  echo "$out"
  return 1
}

# staticcheck is pinned in tools/go.mod, apart from the linker's dependencies.
check_staticcheck() {
  go tool -modfile=tools/go.mod staticcheck ./...
}

# check_build_files: gazelle would change no Go BUILD.bazel file. The full
# suite checks it in tests/bazel; --quick checks it here (2-3 s), so that a Go
# import added without its BUILD.bazel dependency fails the pre-commit check
# and not only CI (session 30: lto_test.go's //linker/nvvm).
check_build_files() {
  local root=$PWD
  (cd tests/bazel/tools && go tool gazelle update -mode=diff -repo_root="$root" "$root")
}

# What --quick tests, with -short: the linker's packages (unit tests, the
# worker's protocol and its links against the CLI's), the whole corpus
# against nvlink's outputs (normal form and bytes; -short leaves out the
# cuobjdump/nvdisasm validators and the -preserve-relocs rerun), --why-live
# and --map, the mutation sweep, and the documentation checks. The full
# suite adds, besides those checks at full length, partial-link round trips
# (tests/partial), nvcc -dlink drop-in (tests/dlink), the normalizer's own
# tests, 65,280 sections (tests/xindex), Bazel and the worker under Bazel,
# and the fuzz targets. Measured (CPU seconds of the test binaries, -short):
# the quick set about 25, tests/partial 56, tests/dlink 26 (nvcc),
# tests/normalize 13. The whole of --quick, with a warm build cache, took 50
# CPU seconds (38 user, 12 system; /usr/bin/time -v, 26 Nov 2026): about a
# minute on a quiet 2-core machine (1 min 57 s at a load of 12). From a
# cold build cache (GOCACHE an empty directory) it took 2 min 18 s, 157 CPU
# seconds (122 user, 34 system; 27 Nov 2026, at a load of 1 to 5): go vet
# 39 s (the compile), staticcheck 56 s (its analysis of the standard
# library), go test 43 s. Measured again at 10:10-10:30 UTC on 27 Nov 2026
# on a machine shared with other jobs: warm, 56 CPU seconds (42 user, 14
# system), 1 min 18 s at a load of 9 and 1 min 27 s at 13; cold, with
# staticcheck's own cache (~/.cache/staticcheck) empty too, 159 CPU
# seconds (130 user, 29 system), 4 min 7 s at a load of 6 to 10 (go vet
# 104 s, staticcheck 70 s, go test 73 s; 2 min 47 s and 150 CPU seconds
# with staticcheck's cache warm): the same CPU as the quiet run, so a
# quiet machine stays under 3 minutes and a loaded one does not. On a quiet
# machine again (12:19 UTC on 27 Nov 2026, load 1.7 to 2.6, an Intel Xeon
# with 2 CPUs; cudalink 74cb268): cold (GOCACHE and staticcheck's cache
# empty) 1 min 27 s, 154 CPU seconds (go vet 29 s, staticcheck 26 s, go
# test 32 s); warm 30 s, 44 CPU seconds. The full suite, from a clean
# clone with the setup already cached, took 9 min 25 s there.
quick_packages=(./linker/... ./tests/difftest/ ./tests/explain/ ./tests/robustness/ ./tests/doccheck/ ./tests/options/)

# cudalink is pure Go: the binary must build for other systems and
# machines too (build-tagged files: *_unix.go, *_linux.go, *_other.go).
# 21d188da broke the windows build unseen for a session. About 100 CPU
# seconds with an empty build cache, a second or two with a warm one. The
# libnvvm helpers (linker/nvvm/dl, purego's dlopen) are Unix only.
check_cross_builds() {
  local t
  for t in windows/amd64 darwin/arm64 linux/arm64; do
    GOOS=${t%/*} GOARCH=${t#*/} go build -o /dev/null ./linker/cmd/cudalink || return 1
  done
}

# go test, verbose into a log; the terminal gets each package's result and
# each failing test as they come.
run_go_tests() {
  local args=(./...)
  [ "$quick" -eq 1 ] && args=(-short "${quick_packages[@]}")
  # A package's whole run may take longer than go test's default 10
  # minutes on a busy 2-core machine (the differential tests).
  # The log exists before tail opens it: the background job's redirection
  # may run after tail starts, which then prints nothing at all.
  : >"$logs/go-test.log"
  # Three test binaries at a time, not GOMAXPROCS's two: the clean-clone
  # run of 64a753f9 (2 CPUs) used 1,264 CPU seconds in 834 s of go test,
  # 1.5 cores on average, because tests/bazel spends most of its ~4 min
  # waiting on Bazel's server while it holds one of the two slots, and
  # tests/partial (~7 min) could only start after it. The tests, the
  # CPU they use and the order of the output are unchanged. Since then
  # tests/difftest and tests/partial run their cuobjdump/nvdisasm and
  # nvlink processes in parallel subtests (their READMEs): alone on a
  # quiet machine 265 s and 181 s instead of ~740 s and ~450 s, and the
  # whole suite took 11 min 22 s on a quiet machine, its own parallel
  # tests keeping the load at 3 to 5 (29 Nov 2026); the clean-clone run
  # of 5e3e5d27 took 12 min 22 s. The corpus then grew, and the
  # clean-clone runs took 12 min 59 s and 14 min 17 s, tests/difftest 729 to
  # 771 s of it, nearly all nvdisasm: since, outputs whose bytes the same
  # nvdisasm has read before are not read again (the lists in
  # tests/difftest/testdata and tests/partial/testdata, READMEs there).
  # -timeout is a guard against a hung test, per package: tests/bazel on a
  # new machine builds rules_go for Bazel 4 and Bazel 7 from empty caches,
  # which took over 40 minutes (TestBazelRules 414 s, TestBazel7Rules
  # still running at 33 min) at a load of 15 to 20 on 29 Nov 2026; with
  # the caches kept, TestBazel7Rules took 653 s at the same load.
  go test -p 3 -count=1 -timeout 75m -v "${args[@]}" >>"$logs/go-test.log" 2>&1 &
  local pid=$!
  tail -n +1 -f --pid="$pid" "$logs/go-test.log" |
    grep --line-buffered -E '^(ok |FAIL|--- FAIL|panic:)|^    --- FAIL|corpus_test.go:[0-9]+: (CUDA [0-9.]+ )?(cases|byte-identical)|preserve_test.go:[0-9]+: ok cases'
  wait "$pid"
}

# Each fuzz target runs a fixed number of executions on top of its seed
# corpus (go test above ran the seeds); longer runs are for off CI:
#   go test -run XXX -fuzz FuzzLink -fuzztime 10m ./linker
# Every Fuzz function of the module is a target: "Name ./package".
fuzz_targets=()
while IFS=: read -r file name; do
  fuzz_targets+=("$name ./$(dirname "$file")")
done < <(git grep -o -E '^func Fuzz[A-Za-z0-9_]+' -- '*_test.go' | sed 's/func //' | sort)
fuzz_failed=0
run_fuzz() {
  local target
  for target in "${fuzz_targets[@]}"; do
    set -- $target
    if go test -run XXX -fuzz "^$1\$" -fuzztime 3000x "$2" >"$logs/fuzz.log" 2>&1; then
      echo "   $1 $2: $(tail -1 "$logs/fuzz.log")"
    else
      echo "   $1 $2: FAILED"
      cat "$logs/fuzz.log"
      fuzz_failed=$((fuzz_failed + 1))
    fi
  done
  [ "$fuzz_failed" -eq 0 ]
}

stage "gofmt" check_gofmt
stage "go vet" go vet ./...
stage "cudalink builds for windows/amd64, darwin/arm64, linux/arm64" check_cross_builds
stage "staticcheck" check_staticcheck
[ "$quick" -eq 1 ] && stage "BUILD.bazel files (gazelle)" check_build_files
[ "$quick" -eq 0 ] && stage "setup" bash scripts/setup.sh
stage "go test" run_go_tests
[ "$quick" -eq 0 ] && stage "fuzz (${#fuzz_targets[@]} targets, 3000 executions each)" run_fuzz

# The summary: what ran, and what failed.
log=$logs/go-test.log
count() { grep -cE "$1" "$log" 2>/dev/null || true; }
packages=$(count '^(ok |FAIL	|\? )')
passed=$(count '^ *--- PASS')
failed=$(count '^ *--- FAIL')
skipped=$(count '^ *--- SKIP')
# one "cases:" line per CUDA toolkit
corpus=$(grep -oE 'corpus_test.go:[0-9]+: (CUDA [0-9.]+ )?cases: [0-9]+' "$log" | grep -oE '[0-9]+$' | awk '{ n += $1 } END { print n + 0 }')
fuzz=0
[ "$quick" -eq 0 ] && fuzz=${#fuzz_targets[@]}
[ "${#failed_stages[@]}" -gt 0 ] && echo "failed stages: ${failed_stages[*]} (logs in $logs)"
echo "tests: $passed passed, $failed failed, $skipped skipped"
echo "summary: $packages packages, $((passed + failed + skipped)) tests, ${corpus:-0} corpus cases," \
  "$fuzz fuzz targets, $((failed + fuzz_failed)) failed tests, $failures failed stages," \
  "$((SECONDS / 60)) min $((SECONDS % 60)) s"
[ "$failures" -eq 0 ]
