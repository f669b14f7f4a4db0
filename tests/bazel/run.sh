#!/usr/bin/env bash
# Runs every check of the Bazel rules and prints "N passed, N failed" last;
# exits non-zero if any check failed. See README.md in this directory.
#
#   lint        buildifier (pinned in tools/go.mod) on every Starlark file
#   build-files every Go package has a BUILD.bazel; MODULE.bazel and
#               rules/go_deps.bzl name every Go repository the BUILD files use
#   analysis    bazel test //analysis:all in a workspace outside the repo
#   e2e         bazel build of corpus links, byte-compared with the CLI's output
#   repro       a second copy at another path, another output_user_root, and
#               the sandboxed strategy: the same bytes
#   cache       with a shared --disk_cache the second copy's CudaDeviceLink
#               actions are all cache hits
#   aquery      no absolute path and no environment in the action
#
# Without bazel on PATH it prints SKIP and exits 0. Bazel servers get their
# own --output_user_root under a scratch directory and are shut down at the
# end; KEEP=1 keeps the scratch directory.
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
here=$root/tests/bazel
passed=0
failed=0

pass() {
  echo "PASS: $*"
  passed=$((passed + 1))
}
fail() {
  echo "FAIL: $*"
  failed=$((failed + 1))
}
section() {
  echo "== $* (at ${SECONDS}s)"
}
finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit
}

if ! command -v bazel >/dev/null 2>&1; then
  echo "SKIP: bazel is not installed; the Bazel rules were NOT tested (scripts/setup.sh installs Bazel 4.2.3)"
  finish
fi
if ! command -v go >/dev/null 2>&1; then
  fail "go is not on PATH"
  finish
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/cudalink-bazel.XXXXXX")
servers=()
cleanup() {
  local dir
  for dir in "${servers[@]}"; do
    (cd "$dir/ws" && bazel --output_user_root="$dir/root" --bazelrc=/dev/null shutdown >/dev/null 2>&1)
  done
  if [ "${KEEP:-0}" = 1 ]; then
    echo "kept $scratch"
  else
    chmod -R u+w "$scratch" 2>/dev/null
    rm -rf "$scratch"
  fi
}
trap cleanup EXIT

# --- lint ----------------------------------------------------------------
section "buildifier"
starlark=()
while IFS= read -r f; do starlark+=("$f"); done < <(
  cd "$root" && find . -mindepth 1 \( -name '.*' -o -name 'bazel-*' -o -name scratch \) -prune -o \
    -type f \( -name '*.bzl' -o -name 'BUILD.bazel' -o -name BUILD -o -name WORKSPACE -o -name MODULE.bazel \) \
    -print | sed "s|^\./|$root/|" | sort
)
if out=$(cd "$here/tools" && go tool buildifier -lint=warn -mode=check "${starlark[@]}" 2>&1); then
  pass "buildifier: ${#starlark[@]} Starlark files formatted, no lint warnings"
else
  echo "$out"
  fail "buildifier (run: cd tests/bazel/tools && go tool buildifier -lint=fix <files>)"
fi

# --- build files -------------------------------------------------------------
section "BUILD files"
if bash "$here/check_build_files.sh"; then
  pass "every Go package has a BUILD.bazel"
else
  fail "Go packages without BUILD.bazel"
fi
# Every external Go repository a BUILD file uses is declared for both
# bzlmod (use_repo in MODULE.bazel) and WORKSPACE (rules/go_deps.bzl).
repos=$(cd "$root" && grep -rhoE '"@[a-z0-9_]+//' --include=BUILD.bazel linker tests toolchain 2>/dev/null |
  sed -E 's/"@([a-z0-9_]+)\/\//\1/' | grep -vE '^(io_bazel_rules_go|bazel_gazelle|cudalink|bazel_tools)$' | sort -u)
undeclared=""
for repo in $repos; do
  grep -q "\"$repo\"" "$root/MODULE.bazel" || undeclared+=" $repo(MODULE.bazel)"
  grep -q "name = \"$repo\"" "$root/rules/go_deps.bzl" || undeclared+=" $repo(rules/go_deps.bzl)"
done
if [ -z "$undeclared" ]; then
  pass "Go repositories used by BUILD files are declared: $(echo $repos)"
else
  fail "Go repositories used but not declared:$undeclared (run tests/bazel/gazelle.sh; add use_repo entries)"
fi

# --- workspaces --------------------------------------------------------------
section "workspaces in $scratch"
bin=$scratch/bin
mkdir -p "$bin"
if ! (cd "$root" && go build -o "$bin/cudalink" ./linker/cmd/cudalink); then
  fail "go build ./linker/cmd/cudalink"
  finish
fi

# The rule passes every argument in an @file. Until cudalink reads @file
# arguments itself outside worker mode, the workspaces run paramshim (the
# same cli.Run behind an @file expansion) and the references come from the
# real command line.
linker=$bin/cudalink
probe=$scratch/probe
mkdir -p "$probe"
cases=$root/tests/corpus/cases
printf '%s\n' -arch=sm_80 -o "$probe/out.cubin" "$cases/two-file-cross-calls/a.cubin" \
  "$cases/two-file-cross-calls/b.cubin" >"$probe/link.params"
if ! (cd "$probe" && "$bin/cudalink" @link.params >/dev/null 2>&1) || [ ! -s "$probe/out.cubin" ]; then
  echo "NOTE: cudalink does not read @file arguments outside worker mode yet;"
  echo "NOTE: the workspaces run tests/bazel/testdata/paramshim instead (same cli.Run)."
  if ! (cd "$root" && go build -o "$bin/paramshim" ./tests/bazel/testdata/paramshim); then
    fail "go build ./tests/bazel/testdata/paramshim"
    finish
  fi
  linker=$bin/paramshim
fi

fatbinary=""
if command -v fatbinary >/dev/null 2>&1; then
  fatbinary=$(command -v fatbinary)
else
  echo "NOTE: NVIDIA's fatbinary is not installed: the multi-architecture link is not built"
fi

corpus_cases="two-file-cross-calls many-files-24 kernels-used-list kernels-used-substring multi-file-sm80"

# layout DIR: a workspace in DIR/ws next to DIR/cudalink and DIR/offline.
layout() {
  local dir=$1 c
  mkdir -p "$dir/ws/cases" "$dir/cudalink" "$dir/offline" "$dir/root"
  cp -R "$here/workspace/." "$dir/ws/"
  cp -R "$root/rules" "$root/toolchain" "$root/BUILD.bazel" "$root/WORKSPACE" "$root/MODULE.bazel" "$dir/cudalink/"
  cp -R "$here/offline/." "$dir/offline/"
  for c in $corpus_cases; do
    mkdir -p "$dir/ws/cases/$c"
    cp "$cases/$c"/[a-z]*.cubin "$dir/ws/cases/$c/"
    rm -f "$dir/ws/cases/$c/expected.cubin"
  done
  cp "$linker" "$dir/ws/toolchain/cudalink"
  if [ -n "$fatbinary" ]; then
    cp "$fatbinary" "$dir/ws/toolchain/fatbinary"
  else
    printf '#!/bin/sh\necho "fatbinary is not installed" >&2\nexit 1\n' >"$dir/ws/toolchain/fatbinary"
  fi
  chmod +x "$dir/ws/toolchain/cudalink" "$dir/ws/toolchain/fatbinary"
  servers+=("$dir")
}

# bz DIR COMMAND ARGS...: bazel in DIR/ws with DIR's own output_user_root.
bz() {
  local dir=$1
  shift
  local cmd=$1
  shift
  (cd "$dir/ws" && bazel --output_user_root="$dir/root" --bazelrc=/dev/null --max_idle_secs=300 \
    "$cmd" --color=no --curses=no --noshow_progress "$@")
}

one=$scratch/one
two=$scratch/elsewhere/two
layout "$one"
layout "$two"
log=$scratch/logs
mkdir -p "$log"

# --- analysis tests ------------------------------------------------------------
section "analysis tests"
if bz "$one" test //analysis:all --test_output=errors >"$log/analysis.txt" 2>&1; then
  pass "analysis tests: $(grep -c ' PASSED ' "$log/analysis.txt") passed"
else
  cat "$log/analysis.txt"
  fail "analysis tests"
fi

# --- end to end ---------------------------------------------------------------
section "end to end"
targets=(//:two_file //:many_files //:kernels_used //:linkopts)
[ -n "$fatbinary" ] && targets+=(//:multi_arch)
disk_cache=$scratch/disk_cache
local_flags=(--spawn_strategy=local --strategy=CudaDeviceLink=local --disk_cache="$disk_cache")
if bz "$one" build "${local_flags[@]}" "${targets[@]}" >"$log/build-one.txt" 2>&1; then
  pass "bazel build (local strategy) of ${#targets[@]} targets"
else
  cat "$log/build-one.txt"
  fail "bazel build (local strategy)"
fi

# The references: the real cudalink command line on the same inputs.
ref=$scratch/ref
mkdir -p "$ref"
(
  cd "$one/ws/cases" &&
    "$bin/cudalink" -arch=sm_80 -o "$ref/two_file.cubin" two-file-cross-calls/a.cubin two-file-cross-calls/b.cubin &&
    "$bin/cudalink" -arch=sm_80 -o "$ref/many_files.cubin" many-files-24/f[0-9][0-9].cubin many-files-24/main.cubin &&
    "$bin/cudalink" -arch=sm_80 -kernels-used=k_c,k_print --kernels-used _Z6k_mainPi -o "$ref/kernels_used.cubin" \
      kernels-used-list/a.cubin kernels-used-list/b.cubin kernels-used-list/c.cubin &&
    "$bin/cudalink" -arch=sm_80 -w -kernels-used=main -o "$ref/linkopts.cubin" \
      kernels-used-substring/a.cubin kernels-used-substring/b.cubin kernels-used-substring/c.cubin &&
    "$bin/cudalink" -arch=sm_80 -o "$ref/multi_arch.sm_80.cubin" multi-file-sm80/a.cubin multi-file-sm80/b.cubin multi-file-sm80/c.cubin &&
    "$bin/cudalink" -arch=sm_86 -o "$ref/multi_arch.sm_86.cubin" multi-file-sm80/a.cubin multi-file-sm80/b.cubin multi-file-sm80/c.cubin
) 2>"$log/ref.txt" || { cat "$log/ref.txt"; fail "reference links with the cudalink command line"; }
if [ -n "$fatbinary" ]; then
  (cd "$ref" && "$fatbinary" -64 --create=multi_arch.fatbin \
    --image3=kind=elf,sm=80,file=multi_arch.sm_80.cubin --image3=kind=elf,sm=86,file=multi_arch.sm_86.cubin) ||
    fail "reference fatbinary"
fi
outputs=(two_file.cubin many_files.cubin kernels_used.cubin linkopts.cubin)
[ -n "$fatbinary" ] && outputs+=(multi_arch.sm_80.cubin multi_arch.sm_86.cubin multi_arch.fatbin)
for out in "${outputs[@]}"; do
  if cmp -s "$one/ws/bazel-bin/$out" "$ref/$out"; then
    pass "e2e: $out is byte-identical to the command line's"
  else
    fail "e2e: $out differs from the command line's (or is missing)"
  fi
done
# linkopts must reach the command line: without them the output differs.
(cd "$one/ws/cases" && "$bin/cudalink" -arch=sm_80 -o "$ref/no_linkopts.cubin" \
  kernels-used-substring/a.cubin kernels-used-substring/b.cubin kernels-used-substring/c.cubin 2>/dev/null)
if cmp -s "$ref/no_linkopts.cubin" "$one/ws/bazel-bin/linkopts.cubin"; then
  fail "e2e: linkopts had no effect on the output"
else
  pass "e2e: linkopts reach the linker (the output differs from a link without them)"
fi

# --- reproducibility ----------------------------------------------------------
section "reproducibility"
if bz "$two" build --spawn_strategy=sandboxed --strategy=CudaDeviceLink=sandboxed "${targets[@]}" \
  >"$log/build-two.txt" 2>&1; then
  same=yes
  for out in "${outputs[@]}"; do
    cmp -s "$one/ws/bazel-bin/$out" "$two/ws/bazel-bin/$out" || {
      same=no
      echo "differs: $out"
    }
  done
  if [ "$same" = yes ]; then
    pass "repro: another path, another output_user_root, sandboxed strategy: identical outputs"
  else
    fail "repro: outputs differ between the two workspaces"
  fi
else
  cat "$log/build-two.txt"
  fail "bazel build (sandboxed strategy) in the second workspace"
fi

section "shared disk cache"
exec_log=$scratch/exec.json
if bz "$two" clean >/dev/null 2>&1 &&
  bz "$two" build --spawn_strategy=sandboxed --strategy=CudaDeviceLink=sandboxed --disk_cache="$disk_cache" \
    --execution_log_json_file="$exec_log" "${targets[@]}" >"$log/build-cache.txt" 2>&1; then
  # The log is a stream of JSON objects, one per spawn.
  if result=$(python3 - "$exec_log" <<'PY'
import json, sys
text = open(sys.argv[1]).read()
dec, pos, spawns = json.JSONDecoder(), 0, []
while pos < len(text):
    while pos < len(text) and text[pos].isspace():
        pos += 1
    if pos >= len(text):
        break
    obj, pos = dec.raw_decode(text, pos)
    spawns.append(obj)
links = [s for s in spawns if s.get("mnemonic") == "CudaDeviceLink"]
misses = [s for s in links if not s.get("remoteCacheHit")]
bad = []
for s in links:
    args = s.get("commandArgs", [])
    if len(args) != 2 or not args[1].startswith("@") or not args[1].endswith(".params"):
        bad.append("argv %r is not [linker, @params]" % (args,))
    if s.get("environmentVariables"):
        bad.append("environment %r" % (s["environmentVariables"],))
    if any(a.startswith("/") for a in args):
        bad.append("absolute path in %r" % (args,))
print("%d CudaDeviceLink spawns, %d cache misses" % (len(links), len(misses)))
for b in bad:
    print(b)
sys.exit(0 if links and not misses and not bad else 1)
PY
  ); then
    pass "cache: $result; each spawn is [linker, @params] with no environment"
  else
    echo "$result"
    fail "cache: the second workspace's CudaDeviceLink actions were not all disk-cache hits, or a spawn is malformed"
  fi
  for out in "${outputs[@]}"; do
    cmp -s "$one/ws/bazel-bin/$out" "$two/ws/bazel-bin/$out" || fail "cache: $out differs after the cached build"
  done
else
  cat "$log/build-cache.txt"
  fail "bazel build with the shared disk cache"
fi

# --- aquery ---------------------------------------------------------------------
section "aquery"
if bz "$one" aquery 'mnemonic("CudaDeviceLink", //...)' >"$log/aquery.txt" 2>"$log/aquery.err"; then
  n=$(grep -c '^  Mnemonic: CudaDeviceLink$' "$log/aquery.txt")
  problems=""
  grep -q '^  Environment:' "$log/aquery.txt" && problems+=" environment;"
  grep -qE "$scratch|(^|[ '(\[])/[a-z]" "$log/aquery.txt" && problems+=" absolute path;"
  grep -q '^  ExecutionInfo: {requires-worker-protocol: proto, supports-multiplex-workers: 1, supports-worker-cancellation: 1, supports-workers: 1}$' \
    "$log/aquery.txt" || problems+=" execution requirements;"
  if [ "$n" -gt 0 ] && [ -z "$problems" ]; then
    pass "aquery: $n CudaDeviceLink actions, no absolute path, no environment, worker execution requirements"
  else
    grep -nE "Environment:|$scratch|(^|[ '(\[])/[a-z]|ExecutionInfo" "$log/aquery.txt" | head -20
    fail "aquery:${problems:- no CudaDeviceLink action}"
  fi
else
  cat "$log/aquery.err"
  fail "bazel aquery"
fi

finish
