#!/usr/bin/env bash
# Runs the test suite and prints a line per stage with its time, then one
# summary line.
#
#   bash scripts/test.sh           everything: lint, setup (scripts/setup.sh,
#                                  needs root the first time), every Go test
#                                  (differential tests against nvlink, Bazel,
#                                  worker, robustness), every fuzz target
#   bash scripts/test.sh --quick   lint and `go test -short` (no setup, no
#                                  fuzzing; the toolkit and Bazel checks run
#                                  only if already installed): a few minutes
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

# stage NAME CMD...: runs one stage, then prints its outcome and time.
stage() {
  local name=$1 t0=$SECONDS
  shift
  echo "== $name"
  if "$@"; then
    echo "== $name: ok ($((SECONDS - t0)) s)"
  else
    echo "== $name: FAILED ($((SECONDS - t0)) s)"
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

# go test, verbose into a log; the terminal gets each package's result and
# each failing test as they come.
run_go_tests() {
  local short=()
  [ "$quick" -eq 1 ] && short=(-short)
  # A package's whole run may take longer than go test's default 10
  # minutes on a busy 2-core machine (the differential tests).
  go test -count=1 -timeout 40m "${short[@]}" -v ./... >"$logs/go-test.log" 2>&1 &
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
stage "staticcheck" check_staticcheck
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
