#!/usr/bin/env bash
# End-to-end check of `cudalink --persistent_worker` under the real Bazel
# (Debian's 4.2.3 here), through the cuda_device_link rule: the worker
# strategy in multiplex, singleplex and sandboxed mode gives the command
# line's bytes, one process serves a multiplex build, and a second build of
# the same inputs is served from the worker's input cache. Prints
# "N passed, N failed" last and exits non-zero on a failure; prints SKIP and
# exits 0 without bazel. KEEP=1 keeps the scratch directory.
#
# It borrows the test workspace of tests/bazel (copied, never changed) and
# runs under the same lock file as tests/bazel/run.sh, one Bazel at a time.
#
# e2e.sh --bazel7 runs the same checks with Debian sid's Bazel 7.7.1 and
# bzlmod in the chroot scripts/setup-bazel7.sh builds (../bazel/bazel7.sh);
# it prints SKIP and exits 0 when there is no chroot and it is not root.
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
bazeltests=$root/tests/bazel
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
finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit
}

# Sets bazel7 (yes with --bazel7) and rc; ends the run if there is no Bazel.
source "$bazeltests/which-bazel.sh" "the worker checks under Bazel were" "$@"

exec 9>"${TMPDIR:-/tmp}/cudalink-bazel-test.lock"
flock 9

scratch=$(mktemp -d "${TMPDIR:-/tmp}/cudalink-worker-e2e.XXXXXX")
ws=$scratch/ws
bzroot=$scratch/root
cleanup() {
  (cd "$ws" 2>/dev/null && bazel --output_user_root="$bzroot" --bazelrc="$rc" shutdown >/dev/null 2>&1)
  bazel_stop
  if [ "${KEEP:-0}" = 1 ]; then
    echo "kept $scratch"
  else
    chmod -R u+w "$scratch" 2>/dev/null
    rm -rf "$scratch"
  fi
}
trap cleanup EXIT
bazel_setup "$scratch"

# The workspace of tests/bazel, next to a copy of the rules and of the
# offline stand-ins, with the real cudalink as the toolchain's linker: in
# worker mode Bazel expands the @params file itself.
bin=$scratch/bin
mkdir -p "$bin" "$ws/cases" "$scratch/cudalink" "$scratch/offline"
if ! (cd "$root" && go build -o "$bin/cudalink" ./linker/cmd/cudalink); then
  fail "go build ./linker/cmd/cudalink"
  finish
fi
cp -R "$bazeltests/workspace/." "$ws/"
cp -R "$root/rules" "$root/toolchain" "$root/BUILD.bazel" "$root/WORKSPACE" "$root/WORKSPACE.bzlmod" \
  "$root/MODULE.bazel" "$root/go.mod" "$root/go.sum" "$scratch/cudalink/"
cp -R "$bazeltests/offline/." "$scratch/offline/"
cases=$root/tests/corpus/cases
for c in two-file-cross-calls many-files-24; do
  mkdir -p "$ws/cases/$c"
  cp "$cases/$c"/[a-z]*.cubin "$ws/cases/$c/"
  rm -f "$ws/cases/$c/expected.cubin"
done
cp "$bin/cudalink" "$ws/toolchain/cudalink"
printf '#!/bin/sh\necho "no fatbinary here" >&2\nexit 1\n' >"$ws/toolchain/fatbinary"
chmod +x "$ws/toolchain/cudalink" "$ws/toolchain/fatbinary"
# Second links of the same inputs: the worker serves them from its cache.
cat >>"$ws/BUILD.bazel" <<'BUILD'

cuda_device_link(
    name = "two_file_again",
    srcs = [
        "cases/two-file-cross-calls/a.cubin",
        "cases/two-file-cross-calls/b.cubin",
    ],
    arch = "sm_80",
)

cuda_device_link(
    name = "many_files_again",
    arch = "sm_80",
    deps = [":many_head"],
)
BUILD

# The references: the command line on the same inputs.
ref=$scratch/ref
mkdir -p "$ref"
(
  cd "$ws/cases" &&
    "$bin/cudalink" -arch=sm_80 -o "$ref/two_file.cubin" two-file-cross-calls/a.cubin two-file-cross-calls/b.cubin &&
    "$bin/cudalink" -arch=sm_80 -o "$ref/many_files.cubin" many-files-24/f[0-9][0-9].cubin many-files-24/main.cubin
) || fail "reference links with the cudalink command line"
cp "$ref/two_file.cubin" "$ref/two_file_again.cubin"
cp "$ref/many_files.cubin" "$ref/many_files_again.cubin"

# Under Bazel 7 the workspace is a module that registers no toolchain: the
# prebuilt one comes with --extra_toolchains.
bz() {
  local cmd=$1
  shift
  local extra=()
  [ $bazel7 = yes ] && [ "$cmd" = build ] && extra=(--extra_toolchains=//toolchain:test_toolchain)
  (cd "$ws" && bazel --output_user_root="$bzroot" --bazelrc="$rc" --max_idle_secs=300 \
    "$cmd" --color=no --curses=no --noshow_progress "${extra[@]}" "$@")
}
log=$scratch/logs
mkdir -p "$log"
worker_flags=(--strategy=CudaDeviceLink=worker --worker_verbose
  --worker_extra_flag=CudaDeviceLink=--worker_verbose --jobs=8 --local_cpu_resources=8)

# keep_logs PHASE: copies the worker logs, which bazel clean deletes.
keep_logs() {
  mkdir -p "$log/workers-$1"
  cp "$(bz info output_base 2>/dev/null)"/bazel-workers/*.log "$log/workers-$1/" 2>/dev/null
}

# same NAME OUTPUT...: each bazel-bin output is the reference's bytes.
same() {
  local what=$1 out ok=yes
  shift
  for out in "$@"; do
    cmp -s "$ws/bazel-bin/$out.cubin" "$ref/$out.cubin" || {
      ok=no
      echo "differs or missing: $out.cubin"
    }
  done
  if [ $ok = yes ]; then pass "$what: $* byte-identical to the command line's"; else fail "$what: outputs"; fi
}

# --- multiplex (the rule asks for it; Bazel 4.2.3 enables it by default) ---
if bz build "${worker_flags[@]}" //:two_file //:many_files >"$log/multiplex.txt" 2>&1; then
  same multiplex two_file many_files
  grep -q "Created new non-sandboxed CudaDeviceLink multiplex-worker" "$log/multiplex.txt" &&
    pass "multiplex: Bazel started a multiplex worker" ||
    fail "multiplex: no multiplex worker was started"
else
  cat "$log/multiplex.txt"
  fail "bazel build with the multiplex worker"
fi
workers=$(bz info output_base 2>/dev/null)/bazel-workers
mlogs=("$workers"/multiplex-worker-*-CudaDeviceLink.log)
pids=$(cat "${mlogs[@]}" 2>/dev/null | grep -c '^cudalink worker: pid ')
[ "${#mlogs[@]}" = 1 ] && [ "$pids" = 1 ] &&
  pass "multiplex: one worker process served the build" ||
  fail "multiplex: ${#mlogs[@]} logs and $pids worker processes; want 1"

# --- the same inputs again, from the worker's cache ---
server=$(bz info server_pid 2>/dev/null)
if bz build "${worker_flags[@]}" //:two_file_again //:many_files_again >"$log/again.txt" 2>&1; then
  same "warm worker" two_file_again many_files_again
  if grep -q 'inputs: 24 cached, 0 read' "${mlogs[@]}" && grep -q 'inputs: 2 cached, 0 read' "${mlogs[@]}"; then
    pass "warm worker: every input came from the cache"
  else
    grep '^cudalink worker' "${mlogs[@]}"
    # A new Bazel server (it stops its workers) tells an environmental
    # restart from a worker that lost its cache.
    echo "Bazel server pid before the build: $server; after: $(bz info server_pid 2>/dev/null)"
    grep -i 'worker' "$log/again.txt"
    fail "warm worker: inputs were read again"
  fi
else
  cat "$log/again.txt"
  fail "bazel build of the same inputs again"
fi

# --- singleplex ---
keep_logs multiplex
bz clean >/dev/null 2>&1
if bz build "${worker_flags[@]}" --noexperimental_worker_multiplex //:two_file //:many_files >"$log/singleplex.txt" 2>&1; then
  same singleplex two_file many_files
  grep -q "Created new non-sandboxed CudaDeviceLink worker" "$log/singleplex.txt" &&
    pass "singleplex: Bazel started singleplex workers" ||
    fail "singleplex: no singleplex worker was started"
else
  cat "$log/singleplex.txt"
  fail "bazel build with singleplex workers"
fi

# --- sandboxed workers (each in a directory of its own, non-zero ids) ---
keep_logs singleplex
bz clean >/dev/null 2>&1
# Bazel 7 keeps a multiplex-capable action in an unsandboxed multiplex
# worker unless multiplexing is off (the rule does not ask for multiplex
# sandboxing).
sandboxed=(--worker_sandboxing)
[ $bazel7 = yes ] && sandboxed+=(--noexperimental_worker_multiplex)
if bz build "${worker_flags[@]}" "${sandboxed[@]}" //:two_file //:many_files >"$log/sandboxed.txt" 2>&1; then
  same "sandboxed worker" two_file many_files
  # Bazel 4.2.3 runs multiplex-capable actions in sandboxed singleplex
  # processes, which it still calls multiplex-workers.
  grep -q "Created new sandboxed CudaDeviceLink" "$log/sandboxed.txt" &&
    pass "sandboxed: Bazel started sandboxed workers" ||
    fail "sandboxed: no sandboxed worker was started"
else
  cat "$log/sandboxed.txt"
  fail "bazel build with sandboxed workers"
fi

# Nothing but responses went to Bazel: any stray byte fails the action
# ("unparseable WorkResponse"), so the builds above passing says so; the
# worker logs must not hold protocol errors either.
keep_logs sandboxed
n=$(ls "$log"/workers-*/*.log 2>/dev/null | wc -l)
if grep -h 'bad request stream\|panic' "$log"/workers-*/*.log; then
  fail "worker logs report protocol errors or panics"
else
  pass "worker logs ($n): no protocol error, no panic"
fi
finish
