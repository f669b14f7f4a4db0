#!/usr/bin/env bash
# Runs every check of the Bazel rules and prints "N passed, N failed" last;
# exits non-zero if any check failed. See README.md in this directory.
#
#   lint        buildifier (pinned in tools/go.mod) on every Starlark file
#   build-files every Go package has a BUILD.bazel; MODULE.bazel and
#               rules/go_deps.bzl name every Go repository the BUILD files use
#   analysis    bazel test //analysis:all in a workspace outside the repo
#   e2e         bazel build of corpus cubins and nvcc -dc host objects (one and
#               two architectures, fatbins, module lists), byte-compared with
#               the CLI's outputs, and with NVIDIA's (corpus, nvlink, fatbinary)
#   repro       a second copy at another path, another output_user_root, and
#               the sandboxed strategy: the same bytes
#   cache       with a shared --disk_cache the second copy's CudaDeviceLink
#               actions are all cache hits
#   aquery      no absolute path and no environment in the action
#
# Without bazel on PATH it prints SKIP and exits 0. Bazel servers get their
# own --output_user_root under a scratch directory and are shut down at the
# end; KEEP=1 keeps the scratch directory.
#
# run.sh --bazel7 runs the same checks but lint and BUILD files with Debian
# sid's Bazel 7.7.1 and bzlmod, in the chroot scripts/setup-bazel7.sh builds
# (see bazel7.sh), and then the checks only Bazel 7 has:
#   module      the project as the root module: rules_go builds
#               //linker/cmd/cudalink, which links as go build's does;
#               bazel mod graph and mod tidy are clean
#   gRPC cache  buildbox-casd (REAPI) behind reapiproxy as --remote_cache:
#               the second copy gets every link from it, under the same
#               action keys as the first
#   docs        the bzlmod setup docs/bazel.md gives, as written, builds
#               (the toolchain's cudalink by rules_go); the docs' .bazelrc
#               lines are the run's
#   default     that module without the flag: cudalink's default toolchain
#               (cudalink from source) links in the worker
# It prints SKIP and exits 0 when there is no chroot and it is not root.
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

# Sets bazel7 (yes with --bazel7) and rc; ends the run if there is no Bazel.
source "$here/which-bazel.sh" "the Bazel rules were" "$@"
if ! command -v go >/dev/null 2>&1; then
  fail "go is not on PATH"
  finish
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/cudalink-bazel.XXXXXX")
servers=()
# gobase: under Bazel 7, the one output base of the two workspaces that
# build rules_go (the project, the docs' module), kept in the cache between
# runs: its external repositories (the Go SDK, gazelle's tools, go_deps'
# modules) are set up once, not per workspace and run; each run starts it
# with bazel clean, so every action comes from the disk cache or runs, as
# in a new output base. gobase_ws: the workspace whose server holds it.
gobase=
gobase_ws=
cleanup() {
  local dir
  for dir in "${servers[@]}"; do
    if [ -n "$gobase" ] && { [ "$dir" = "${project:-}" ] || [ "$dir" = "${docsws:-}" ]; }; then
      [ "$dir" = "$gobase_ws" ] || continue
      (cd "$dir" && bazel --output_user_root="${dir%/*}/root" --output_base="$gobase" --bazelrc="$rc" shutdown >/dev/null 2>&1)
      continue
    fi
    (cd "$dir" && bazel --output_user_root="${dir%/*}/root" --bazelrc="$rc" shutdown >/dev/null 2>&1)
  done
  bazel_stop
  local pid
  for pid in "${nginx_pid:-}" "${proxy_pid:-}" "${casd_pid:-}"; do
    [ -n "$pid" ] && kill "$pid" 2>/dev/null
  done
  if [ "${KEEP:-0}" = 1 ]; then
    echo "kept $scratch"
  else
    chmod -R u+w "$scratch" 2>/dev/null
    rm -rf "$scratch"
  fi
}
trap cleanup EXIT
[ $bazel7 = yes ] && section "Bazel 7 offline setup (cache: $bazel7_cache)"
bazel_setup "$scratch"
# What a Bazel 7 run leaves in the chroot's /tmp: nothing (the servers'
# bazel-jni.* directories go to the scratch directory, bazel7.sh). The
# JVMs' hsperfdata_<user> directory is reused and its files go with them;
# the scratch directory's bind target is the run's, removed by bazel_stop.
chroot_tmp() {
  [ $bazel7 = yes ] && find "$bazel7_chroot/tmp" -mindepth 1 -maxdepth 1 ! -name 'hsperfdata_*' \
    ! -path "$bazel7_chroot$scratch" | sort
}
chroot_tmp_before=$(chroot_tmp)

if [ $bazel7 = no ]; then
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
# ... and lists what the package holds now: gazelle would change nothing.
if out=$(cd "$here/tools" && go tool gazelle update -mode=diff -repo_root="$root" "$root" 2>&1); then
  pass "the Go BUILD.bazel files are as gazelle writes them"
else
  echo "$out" | head -40
  fail "Go BUILD.bazel files out of date (run tests/bazel/gazelle.sh)"
fi
# Every external Go repository a BUILD file uses is declared for both
# bzlmod (use_repo in MODULE.bazel) and WORKSPACE (rules/go_deps.bzl).
# Only the BUILD files of Go packages: the test workspace's and the
# offline stand-ins' name other repositories (platforms, local_jdk, ...).
repos=$(cd "$root" && find linker tests toolchain -name BUILD.bazel | while read -r f; do
  compgen -G "$(dirname "$f")/*.go" >/dev/null && cat "$f"
done | grep -oE '"@[a-z0-9_]+//' |
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
# docs/rules.md is stardoc's output, which only the --bazel7 run can make
# and compare (Bazel 4.2.3 has no stardoc offline); here, without Bazel:
# it has a section for each name rules/defs.bzl exports, and no other.
exported=$(sed -nE 's/^([A-Za-z_][A-Za-z0-9_]*) = _.*/\1/p' "$root/rules/defs.bzl" | sort)
documented=$(sed -nE 's/^## ([A-Za-z_][A-Za-z0-9_]*)$/\1/p' "$root/docs/rules.md" | sort)
if [ -n "$exported" ] && [ "$exported" = "$documented" ]; then
  pass "docs/rules.md has a section for each of the $(echo "$exported" | grep -c .) names rules/defs.bzl exports (run.sh --bazel7 compares it with stardoc's)"
else
  diff <(echo "$exported") <(echo "$documented")
  fail "docs/rules.md does not document what rules/defs.bzl exports (regenerate: bash tests/bazel/stardoc.sh, as root)"
fi
fi # lint, BUILD files and the reference's names: the same under any Bazel, checked in the Bazel 4.2.3 run

# --- workspaces --------------------------------------------------------------
section "workspaces in $scratch"
bin=$scratch/bin
mkdir -p "$bin"
# cudalink-nvvm, the helper that runs libnvvm for -dlto, goes where
# cudalink does not look for it: the toolchains declare it (nvvm_helper).
if ! (cd "$root" && go build -o "$bin/cudalink" ./linker/cmd/cudalink && go build -o "$bin/cudalink-nvvm" ./linker/cmd/cudalink-nvvm); then
  fail "go build ./linker/cmd/cudalink"
  finish
fi

linker=$bin/cudalink
cases=$root/tests/corpus/cases
hostobj=$here/testdata/hostobj

# NVIDIA's tools, when installed, only make extra references: no build uses
# them.
nvlink=$(command -v nvlink || true)
fatbinary=$(command -v fatbinary || true)
[ -n "$nvlink" ] || echo "NOTE: NVIDIA's nvlink is not installed: the host-object links are not compared with it"
[ -n "$fatbinary" ] || echo "NOTE: NVIDIA's fatbinary is not installed: the fatbins are not compared with it"

corpus_cases="two-file-cross-calls many-files-24 kernels-used-list kernels-used-substring multi-file-sm80"
# One target per CUDA 12 release: the corpus's cubins of that release
# (tests/corpus/cuda-<v>), which the linker recognises by their e_version.
cuda12_versions="12.4 12.5"
# The CUDA 12 LTO link of the toolkits check (its objects in lto/<release>/).
lto12_case=cuda12-lto-partial-plain-last

# The CUDA toolkits the versioned toolchains take their files from:
# 11.8 installed in /usr, 12.x unpacked in /opt/cuda-<release>/usr.
toolkit_versions="11.8 12.4 12.5"
toolkit_prefix() {
  case $1 in
  11.8) echo /usr ;;
  *) echo "/opt/cuda-$1/usr" ;;
  esac
}

# toolkit DIR VERSION: the files of CUDA VERSION the rules take as inputs,
# in DIR/cuda-VERSION, the repository cuda_<VERSION> with
# toolkit/BUILD.bazel: hard links to the installed files (copies across
# file systems). A toolkit that is not installed leaves the files out.
toolkit() {
  local dir=$1/cuda-$2 prefix name src dst
  prefix=$(toolkit_prefix "$2")
  name=cuda_$(echo "$2" | tr . _)
  mkdir -p "$dir/bin/crt" "$dir/nvvm/lib64" "$dir/nvvm/libdevice" "$dir/include/crt" "$dir/lib64"
  cp "$here/toolkit/BUILD.bazel" "$dir/"
  echo "workspace(name = \"$name\")" >"$dir/WORKSPACE"
  while read -r src dst; do
    src=$prefix/$src
    [ -e "$src" ] || continue
    src=$(realpath "$src")
    ln -f "$src" "$dir/$dst" 2>/dev/null || cp "$src" "$dir/$dst"
  done <<EOF
bin/ptxas bin/ptxas
lib/x86_64-linux-gnu/libnvvm.so nvvm/lib64/libnvvm.so
lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc nvvm/libdevice/libdevice.10.bc
lib/x86_64-linux-gnu/libnvJitLink.so.12 lib64/libnvJitLink.so.12
lib/nvidia-cuda-toolkit/bin/crt/link.stub bin/crt/link.stub
include/crt/host_defines.h include/crt/host_defines.h
include/fatbinary_section.h include/fatbinary_section.h
lib/x86_64-linux-gnu/libcudart_static.a lib64/libcudart_static.a
lib/x86_64-linux-gnu/libnvptxcompiler_static.a lib64/libnvptxcompiler_static.a
EOF
}

# layout DIR: a workspace in DIR/ws next to DIR/cudalink and DIR/offline.
layout() {
  local dir=$1 c
  mkdir -p "$dir/ws/cases" "$dir/ws/hostobj" "$dir/cudalink" "$dir/offline" "$dir/root"
  cp -R "$here/workspace/." "$dir/ws/"
  cp -R "$root/rules" "$root/toolchain" "$root/BUILD.bazel" "$root/WORKSPACE" "$root/WORKSPACE.bzlmod" \
    "$root/MODULE.bazel" "$root/go.mod" "$root/go.sum" "$dir/cudalink/"
  # Under Bazel 7 the default-toolchain check builds cudalink from source.
  [ $bazel7 = yes ] && cp -R "$root/linker" "$dir/cudalink/"
  cp -R "$here/offline/." "$dir/offline/"
  for c in $corpus_cases; do
    mkdir -p "$dir/ws/cases/$c"
    cp "$cases/$c"/[a-z]*.cubin "$dir/ws/cases/$c/"
    rm -f "$dir/ws/cases/$c/expected.cubin"
  done
  for v in $cuda12_versions; do
    mkdir -p "$dir/ws/cuda-$v/two-file-cross-calls"
    cp "$root/tests/corpus/cuda-$v/cases/two-file-cross-calls"/[a-z]*.cubin "$dir/ws/cuda-$v/two-file-cross-calls/"
    rm -f "$dir/ws/cuda-$v/two-file-cross-calls/expected.cubin"
  done
  cp "$hostobj"/*.o "$dir/ws/hostobj/"
  mkdir -p "$dir/ws/ptx" "$dir/ws/lto"
  cp "$cases/ptx-only-host-objects/a.o" "$cases/ptx-only-host-objects/b.o" "$dir/ws/ptx/"
  cp "$cases/lto-cross-file-inlining/util.o" "$cases/lto-cross-file-inlining/kern.o" "$dir/ws/lto/"
  for v in $cuda12_versions; do
    mkdir -p "$dir/ws/lto/$v"
    cp "$root/tests/corpus/cuda-$v/cases/$lto12_case"/{util,kern,plain}.o "$dir/ws/lto/$v/"
  done
  for v in $toolkit_versions; do toolkit "$dir" "$v"; done
  mkdir -p "$dir/ws/toolchain/helper"
  cp "$linker" "$dir/ws/toolchain/"
  cp "$bin/cudalink-nvvm" "$dir/ws/toolchain/helper/"
  chmod +x "$dir/ws/toolchain/cudalink" "$dir/ws/toolchain/helper/cudalink-nvvm"
  servers+=("$dir/ws")
}

# bz DIR COMMAND ARGS...: bazel in DIR/ws with DIR's own output_user_root.
# Under Bazel 7 the test workspace is a module that registers only the
# toolchains of the CUDA releases (picked by the flag): the checks name the
# prebuilt one for builds that name no release with --extra_toolchains.
bz() {
  local dir=$1
  shift
  local cmd=$1
  shift
  local extra=()
  if [ $bazel7 = yes ]; then
    case $cmd in build | test | aquery | cquery) extra=(--extra_toolchains=//toolchain:test_toolchain) ;; esac
  fi
  (cd "$dir/ws" && bazel --output_user_root="$dir/root" --bazelrc="$rc" --max_idle_secs=300 \
    "$cmd" --color=no --curses=no --noshow_progress "${extra[@]}" "$@")
}

# spawns LOG: one line per spawn of an execution log
# (--execution_log_json_file, a stream of JSON objects), in fields:
#   1 mnemonic  2 target  3 hit or run (disk or remote cache)  4 runner
#   5 argv[0]  6 action digest  7 the first output's file name
#   8 the inputs that are not objects or params files, comma-separated (-)
#   9 params if argv is [tool, @file.params], else argv<N>
#   10 the number of environment variables  11 abs if an argument is an
#   absolute path, else rel
# Missing values are "-". The one parser of execution logs here.
spawns() {
  python3 - "$1" <<'PY'
import json, sys
text = open(sys.argv[1]).read()
dec, pos = json.JSONDecoder(), 0
while pos < len(text):
    while pos < len(text) and text[pos].isspace():
        pos += 1
    if pos >= len(text):
        break
    s, pos = dec.raw_decode(text, pos)
    out = (s.get("listedOutputs") or ["-"])[0].rsplit("/", 1)[-1]
    # Bazel 4.2.3 logs no target: name it after its first output (the
    # test workspace's targets are all in its root package).
    target = s.get("targetLabel") or "//:" + out.split(".")[0]
    args = s.get("commandArgs") or []
    tools = sorted(i["path"] for i in s.get("inputs", []) if not i["path"].endswith((".o", ".cubin", ".a", ".params")))
    form = "params" if len(args) == 2 and args[1].startswith("@") and args[1].endswith(".params") else "argv%d" % len(args)
    print(s.get("mnemonic", "-"), target,
          "hit" if s.get("remoteCacheHit") or s.get("cacheHit") else "run",  # Bazel 4, 7
          s.get("runner", "-").replace(" ", "_"), (args or ["-"])[0],
          (s.get("digest") or {}).get("hash", "-"), out, ",".join(tools) or "-", form,
          len(s.get("environmentVariables") or []), "abs" if any(a.startswith("/") for a in args) else "rel")
PY
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

# --- a misspelt attribute -----------------------------------------------------
section "a misspelt attribute"
# arch misspelt: Bazel names the attribute it does not know and the one
# missing, at the user's line, with no Starlark traceback (the macro does
# not require arch itself). The package is gone before the checks that
# load //...
mkdir -p "$one/ws/misspelt"
cat >"$one/ws/misspelt/BUILD.bazel" <<'EOF'
load("@cudalink//rules:defs.bzl", "cuda_device_link")

cuda_device_link(
    name = "kernels",
    srcs = ["a.cubin"],
    arhc = "sm_80",
)
EOF
if bz "$one" build //misspelt:kernels >"$log/misspelt.txt" 2>&1; then
  fail "a misspelt attribute: bazel build //misspelt:kernels succeeded"
elif grep -q "BUILD.bazel:3:.*no such attribute 'arhc' in 'cuda_device_link_rule' rule" "$log/misspelt.txt" &&
  grep -q "BUILD.bazel:3:.*missing value for mandatory attribute 'arch' in 'cuda_device_link_rule' rule" "$log/misspelt.txt" &&
  ! grep -q Traceback "$log/misspelt.txt"; then
  pass "a misspelt attribute (arhc): Bazel names it and the missing arch at the target's line, no traceback"
else
  cat "$log/misspelt.txt"
  fail "a misspelt attribute: want Bazel's no such attribute 'arhc' and missing value for mandatory attribute 'arch' at line 3, no traceback"
fi
rm -rf "$one/ws/misspelt"

# --- end to end ---------------------------------------------------------------
section "end to end"
# targets are built in both workspaces (repro, cache); register_cubins,
# whose module list names the cubins by absolute path, only here.
targets=(//:two_file //:many_files //:kernels_used //:linkopts //:multi_arch //:host_objects //:host_multi_arch
  //:two_file_cuda_12_4 //:two_file_cuda_12_5 //:from_rdc_objects //:from_rdc_library //:ptx_virtual //:host_mixed)
disk_cache=$scratch/disk_cache
local_flags=(--spawn_strategy=local --strategy=CudaDeviceLink=local --disk_cache="$disk_cache")
if bz "$one" build "${local_flags[@]}" "${targets[@]}" //:register_cubins >"$log/build-one.txt" 2>&1; then
  pass "bazel build (local strategy) of $((${#targets[@]} + 1)) targets"
else
  cat "$log/build-one.txt"
  fail "bazel build (local strategy)"
fi

# The references: the real cudalink command line on the same inputs, at the
# same relative paths. register_cubins runs where the local strategy ran
# its action, the execution root, so that the absolute paths are the same.
ref=$scratch/ref
mkdir -p "$ref"
mf=(cases/multi-file-sm80/a.cubin cases/multi-file-sm80/b.cubin cases/multi-file-sm80/c.cubin)
ho=(hostobj/a.o hostobj/b.o)
execroot=$(bz "$one" info execution_root 2>/dev/null)
(
  cd "$one/ws" &&
    "$linker" -arch=sm_80 -o "$ref/two_file.cubin" cases/two-file-cross-calls/a.cubin cases/two-file-cross-calls/b.cubin &&
    "$linker" -arch=sm_80 -o "$ref/many_files.cubin" cases/many-files-24/f[0-9][0-9].cubin cases/many-files-24/main.cubin &&
    "$linker" -arch=sm_80 -kernels-used=k_c,k_print --kernels-used _Z6k_mainPi -o "$ref/kernels_used.cubin" \
      cases/kernels-used-list/a.cubin cases/kernels-used-list/b.cubin cases/kernels-used-list/c.cubin &&
    "$linker" -arch=sm_80 -w -kernels-used=main -o "$ref/linkopts.cubin" \
      cases/kernels-used-substring/a.cubin cases/kernels-used-substring/b.cubin cases/kernels-used-substring/c.cubin &&
    "$linker" -arch=sm_80 -arch=sm_86 -o "$ref/multi_arch.cubin" --fatbin "$ref/multi_arch.fatbin" \
      --embedded-fatbin "$ref/multi_arch.fatbin.c" "${mf[@]}" &&
    "$linker" -arch=sm_80 -o "$ref/host_objects.cubin" --fatbin "$ref/host_objects.fatbin" \
      --embedded-fatbin "$ref/host_objects.fatbin.c" --register-link-binaries "$ref/host_objects.reg.c" "${ho[@]}" &&
    "$linker" -arch=sm_80 -arch=sm_86 -o "$ref/host_multi_arch.cubin" --fatbin "$ref/host_multi_arch.fatbin" \
      --embedded-fatbin "$ref/host_multi_arch.fatbin.c" --register-link-binaries "$ref/host_multi_arch.reg.c" "${ho[@]}" &&
    "$linker" -arch=sm_80 -o "$ref/two_file_cuda_12_4.cubin" cuda-12.4/two-file-cross-calls/a.cubin cuda-12.4/two-file-cross-calls/b.cubin &&
    "$linker" -arch=sm_80 -o "$ref/two_file_cuda_12_5.cubin" cuda-12.5/two-file-cross-calls/a.cubin cuda-12.5/two-file-cross-calls/b.cubin &&
    "$linker" -arch=sm_80 -o "$ref/from_rdc_objects.cubin" "${ho[@]}" &&
    "$linker" -arch=compute_80 --fatbin "$ref/ptx_virtual.fatbin" --embedded-fatbin "$ref/ptx_virtual.fatbin.c" \
      --register-link-binaries "$ref/ptx_virtual.reg.c" ptx/a.o ptx/b.o &&
    "$linker" -arch=sm_80 -o "$ref/host_mixed.cubin" --register-link-binaries "$ref/host_mixed.reg.c" "${ho[@]}" &&
    cp "$ref/from_rdc_objects.cubin" "$ref/from_rdc_library.cubin" &&
    cd "$execroot" &&
    "$linker" -arch=sm_80 -o "$ref/register_cubins.cubin" --register-link-binaries "$ref/register_cubins.reg.c" \
      cases/two-file-cross-calls/a.cubin cases/two-file-cross-calls/b.cubin
) 2>"$log/ref.txt" || {
  cat "$log/ref.txt"
  fail "reference links with the cudalink command line"
}
# outputs: compared with the references and between the workspaces.
outputs=(two_file.cubin many_files.cubin kernels_used.cubin linkopts.cubin
  multi_arch.sm_80.cubin multi_arch.sm_86.cubin multi_arch.fatbin multi_arch.fatbin.c
  host_objects.cubin host_objects.fatbin host_objects.fatbin.c host_objects.reg.c
  host_multi_arch.sm_80.cubin host_multi_arch.sm_86.cubin host_multi_arch.fatbin
  host_multi_arch.fatbin.c host_multi_arch.reg.c two_file_cuda_12_4.cubin two_file_cuda_12_5.cubin
  from_rdc_objects.cubin from_rdc_library.cubin ptx_virtual.fatbin ptx_virtual.fatbin.c ptx_virtual.reg.c
  host_mixed.cubin host_mixed.reg.c)
differ=""
for out in "${outputs[@]}" register_cubins.cubin register_cubins.reg.c; do
  cmp -s "$one/ws/bazel-bin/$out" "$ref/$out" || differ+=" $out"
done
if [ -z "$differ" ]; then
  pass "e2e: $((${#outputs[@]} + 2)) outputs byte-identical to the command line's"
else
  fail "e2e: differ from the command line's (or are missing):$differ"
fi
# -o of a multi-architecture link only names the cubins beside it.
if [ -e "$one/ws/bazel-bin/multi_arch.cubin" ] || [ -e "$one/ws/bazel-bin/host_multi_arch.cubin" ]; then
  fail "e2e: a multi-architecture link wrote its -o path"
fi
# The module lists: module ids of host objects; cubins by absolute path.
if grep -qx 'DEFINE_REGISTER_FUNC(_ac772227_4_a_cu_31bfcd87)' "$one/ws/bazel-bin/host_objects.reg.c" &&
  grep -q "^DEFINE_REGISTER_FUNC($(printf '%s' "$execroot" | tr -c 'a-zA-Z0-9\n' _)_cases_two_file_cross_calls_a_cubin)\$" \
    "$one/ws/bazel-bin/register_cubins.reg.c"; then
  pass "e2e: the module lists name host objects by module id, cubins by their path in the execution root"
else
  head -5 "$one/ws/bazel-bin/host_objects.reg.c" "$one/ws/bazel-bin/register_cubins.reg.c"
  fail "e2e: unexpected module lists"
fi

# linkopts and kernels_used must reach the command line: without them the
# output differs.
(
  cd "$one/ws/cases" &&
    "$linker" -arch=sm_80 -o "$ref/no_linkopts.cubin" \
      kernels-used-substring/a.cubin kernels-used-substring/b.cubin kernels-used-substring/c.cubin &&
    "$linker" -arch=sm_80 -o "$ref/no_kernels_used.cubin" \
      kernels-used-list/a.cubin kernels-used-list/b.cubin kernels-used-list/c.cubin
) 2>/dev/null
for what in linkopts kernels_used; do
  if cmp -s "$ref/no_$what.cubin" "$one/ws/bazel-bin/$what.cubin"; then
    fail "e2e: $what had no effect on the output"
  else
    pass "e2e: $what reach the linker (the output differs from a link without them)"
  fi
done

# NVIDIA's outputs. nvlink 11.8's are in the corpus (expected.cubin).
nv_same=0
nv_diff=""
nv() { # nv OUTPUT REFERENCE
  if cmp -s "$one/ws/bazel-bin/$1" "$2"; then nv_same=$((nv_same + 1)); else nv_diff+=" $1"; fi
}
nv two_file.cubin "$cases/two-file-cross-calls/expected.cubin"
nv many_files.cubin "$cases/many-files-24/expected.cubin"
nv kernels_used.cubin "$cases/kernels-used-list/expected.cubin"
nv linkopts.cubin "$cases/kernels-used-substring/expected.cubin"
nv multi_arch.sm_80.cubin "$cases/multi-file-sm80/expected.cubin"
# nvlink 12.4's and 12.5's, in the corpus too.
for v in $cuda12_versions; do
  nv "two_file_cuda_${v/./_}.cubin" "$root/tests/corpus/cuda-$v/cases/two-file-cross-calls/expected.cubin"
done
nvidia=$scratch/nvidia
mkdir -p "$nvidia"
if [ -n "$nvlink" ]; then
  (
    cd "$one/ws" &&
      "$nvlink" -arch=sm_86 -o "$nvidia/multi_arch.sm_86.cubin" "${mf[@]}" &&
      "$nvlink" -arch=sm_80 --register-link-binaries="$nvidia/host_objects.reg.c" -o "$nvidia/host_objects.cubin" "${ho[@]}" &&
      "$nvlink" -arch=sm_86 -o "$nvidia/host_multi_arch.sm_86.cubin" "${ho[@]}" &&
      "$nvlink" -arch=compute_80 --register-link-binaries="$nvidia/ptx_virtual.reg.c" ptx/a.o ptx/b.o &&
      cd "$execroot" &&
      "$nvlink" -arch=sm_80 --register-link-binaries="$nvidia/register_cubins.reg.c" -o "$nvidia/register_cubins.cubin" \
        cases/two-file-cross-calls/a.cubin cases/two-file-cross-calls/b.cubin
  ) >"$log/nvlink.txt" 2>&1 || {
    cat "$log/nvlink.txt"
    fail "reference links with NVIDIA's nvlink"
  }
  for out in multi_arch.sm_86.cubin host_objects.cubin host_objects.reg.c host_multi_arch.sm_86.cubin \
    register_cubins.cubin register_cubins.reg.c; do
    nv "$out" "$nvidia/$out"
  done
  nv host_multi_arch.sm_80.cubin "$nvidia/host_objects.cubin"
  nv host_multi_arch.reg.c "$nvidia/host_objects.reg.c"
  # nvcc -dlink -gencode arch=compute_80,code=compute_80 runs nvlink so;
  # beside code=sm_80 it runs none for compute_90.
  nv ptx_virtual.reg.c "$nvidia/ptx_virtual.reg.c"
  nv host_mixed.cubin "$nvidia/host_objects.cubin"
  nv host_mixed.reg.c "$nvidia/host_objects.reg.c"
fi
if [ -n "$fatbinary" ]; then
  # As nvcc -dlink runs it, on the rule's own cubins.
  for t in multi_arch host_objects host_multi_arch; do
    images=()
    for c in "$one/ws/bazel-bin/$t".sm_*.cubin; do
      sm=${c%.cubin}
      images+=("--image3=kind=elf,sm=${sm##*.sm_},file=$c")
    done
    [ "$t" = host_objects ] && images=("--image3=kind=elf,sm=80,file=$one/ws/bazel-bin/$t.cubin")
    if "$fatbinary" -64 --create="$nvidia/$t.fatbin" "${images[@]}" >>"$log/fatbinary.txt" 2>&1 &&
      "$fatbinary" -64 --cmdline="--compile-only " -link "${images[@]}" --embedded-fatbin="$nvidia/$t.fatbin.c" \
        >>"$log/fatbinary.txt" 2>&1; then
      nv "$t.fatbin" "$nvidia/$t.fatbin"
      nv "$t.fatbin.c" "$nvidia/$t.fatbin.c"
    else
      cat "$log/fatbinary.txt"
      fail "reference fatbinary for $t"
    fi
  done
  # After a virtual link nvcc runs fatbinary with no image.
  if "$fatbinary" -64 --create="$nvidia/ptx_virtual.fatbin" >>"$log/fatbinary.txt" 2>&1 &&
    "$fatbinary" -64 --cmdline="--compile-only " -link --embedded-fatbin="$nvidia/ptx_virtual.fatbin.c" \
      >>"$log/fatbinary.txt" 2>&1; then
    nv ptx_virtual.fatbin "$nvidia/ptx_virtual.fatbin"
    nv ptx_virtual.fatbin.c "$nvidia/ptx_virtual.fatbin.c"
  else
    cat "$log/fatbinary.txt"
    fail "reference fatbinary for ptx_virtual"
  fi
fi
# The host side of host_multi_arch, as nvcc -dlink builds it: link.stub
# compiled with the .fatbin.c and .reg.c. Its .nv_fatbin must be nvcc
# -dlink's, and the host objects must link into a program with it (every
# __fatbinwrap_<module id> the stub refers to defined).
nvcc=$(command -v nvcc || true)
cxx=$(command -v g++ || command -v c++ || true)
stub=""
[ -n "$nvcc" ] && stub=$("$nvcc" -dlink -arch=sm_80 x.o -o x -dryrun 2>&1 | sed -n 's/^#\$ _HERE_=//p' | head -1)/crt/link.stub
if [ -n "$nvcc" ] && [ -n "$cxx" ] && [ -f "$stub" ]; then
  hs=$scratch/hostside
  mkdir -p "$hs"
  cp "$one/ws/bazel-bin/host_multi_arch.fatbin.c" "$one/ws/bazel-bin/host_multi_arch.reg.c" "$hs/"
  printf 'void launch_scale(int *);\nint main() { launch_scale(0); return 0; }\n' >"$hs/main.cc"
  if (
    cd "$hs" &&
      "$cxx" -c -x c++ -DFATBINFILE='"host_multi_arch.fatbin.c"' -DREGISTERLINKBINARYFILE='"host_multi_arch.reg.c"' \
        -I. -D__NV_EXTRA_INITIALIZATION= -D__NV_EXTRA_FINALIZATION= -D__CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__ \
        -m64 "$stub" -o dlink.o &&
      "$nvcc" -dlink -arch=sm_80 -gencode arch=compute_86,code=sm_86 "$hostobj/a.o" "$hostobj/b.o" -o nvcc_dlink.o &&
      objcopy -O binary --only-section=.nv_fatbin dlink.o dlink.nv_fatbin &&
      objcopy -O binary --only-section=.nv_fatbin nvcc_dlink.o nvcc_dlink.nv_fatbin &&
      cmp dlink.nv_fatbin nvcc_dlink.nv_fatbin &&
      "$cxx" main.cc dlink.o "$hostobj/a.o" "$hostobj/b.o" -lcudart -o prog
  ) >"$log/hostside.txt" 2>&1; then
    pass "e2e: link.stub with host_multi_arch.fatbin.c and .reg.c gives nvcc -dlink's .nv_fatbin; the host objects link with it"
  else
    cat "$log/hostside.txt"
    fail "e2e: the host side of host_multi_arch (link.stub, nvcc -dlink, host link)"
  fi
else
  echo "NOTE: nvcc, a C++ compiler or link.stub is missing: the host side is not built"
fi

if [ -z "$nv_diff" ]; then
  pass "e2e: $nv_same outputs byte-identical to NVIDIA's (nvlink 11.8, 12.4 and 12.5 in the corpus${nvlink:+, nvlink}${fatbinary:+, fatbinary})"
else
  fail "e2e: differ from NVIDIA's:$nv_diff"
fi

# --- the copy-paste setups of docs/bazel.md -------------------------------------
section "the setups of docs/bazel.md, as written"
# The blocks docs/bazel.md marks <!-- tested: SETUP FILE --> are written
# byte for byte into user/, next to cudalink/, offline/ and cuda-11.8/ as
# the docs lay them out, and the block "SETUP command" is run there: the
# bzlmod setup under Bazel 7 (its toolchain builds cudalink with rules_go),
# the WORKSPACE one under Bazel 4.2.3 (a prebuilt cudalink). The link of
# PTX-only nvcc -dc objects must be nvlink 11.8's, by the toolchain's ptxas.
docs=$root/docs/bazel.md
doc_block() { # doc_block NAME: the fenced block after <!-- tested: NAME -->
  awk -v m="<!-- tested: $1 -->" '$0 == m { f = 1; next } f == 1 && /^```/ { f = 2; next } f == 2 && /^```/ { exit } f == 2 { print }' "$docs"
}
docsws=$one/user
mkdir -p "$docsws/toolchain"
if [ $bazel7 = yes ]; then
  setup=bzlmod
  doc_files=(MODULE.bazel toolchain/BUILD.bazel BUILD.bazel WORKSPACE.bzlmod)
else
  setup=workspace
  doc_files=(WORKSPACE toolchain/BUILD.bazel)
  doc_block "bzlmod BUILD.bazel" >"$docsws/BUILD.bazel"
  cp "$linker" "$docsws/toolchain/cudalink"
fi
docs_problems=""
for f in "${doc_files[@]}"; do
  doc_block "$setup $f" >"$docsws/$f"
  [ -s "$docsws/$f" ] || docs_problems+=" no block <!-- tested: $setup $f -->;"
done
[ -s "$docsws/BUILD.bazel" ] || docs_problems+=" no block <!-- tested: bzlmod BUILD.bazel -->;"
cp "$cases/ptx-only-host-objects/a.o" "$cases/ptx-only-host-objects/b.o" "$docsws/"
read -r -a words <<<"$(doc_block "$setup command")"
[ "${words[0]:-}" = bazel ] && [ "${words[1]:-}" = build ] || docs_problems+=" the block <!-- tested: $setup command --> is not a bazel build;"
servers+=("$docsws")
# bu ARGS...: bazel in user/, with the run's output_user_root and bazelrc.
bu() {
  local base=()
  [ -n "$gobase" ] && base=(--output_base="$gobase") && gobase_ws=$docsws
  (cd "$docsws" && bazel --output_user_root="$one/root" "${base[@]}" --bazelrc="$rc" --max_idle_secs=300 "$@")
}
# docs_build: the docs' command in user/. Under Bazel 7 it runs last, in
# the section of the default toolchain, which uses the same module (one
# rules_go setup for both, not two: each takes minutes).
docs_build() {
  local problems=$docs_problems links want_linker
  if [ -z "$problems" ]; then
    local extra=(--color=no --curses=no --noshow_progress --execution_log_json_file="$scratch/docs.json")
    [ $bazel7 = yes ] && extra+=(--disk_cache="$bazel7_cache/disk")
    if bu build "${extra[@]}" "${words[@]:2}" >"$log/docs-setup.txt" 2>&1; then
      links=$(spawns "$scratch/docs.json" | awk '$1 == "CudaDeviceLink"')
      want_linker='^toolchain/cudalink$'
      [ $bazel7 = yes ] && want_linker='external/cudalink~/linker/cmd/cudalink/'
      cmp -s "$docsws/bazel-bin/kernels.cubin" "$cases/ptx-only-host-objects/expected.cubin" ||
        problems+=" //:kernels is not nvlink 11.8's link;"
      [ "$(echo "$links" | grep -c .)" = 1 ] && echo "$links" | awk -v l="$want_linker" '$5 ~ l && $8 ~ /cuda_11_8[^\/,]*\/bin\/ptxas/' | grep -q . ||
        problems+=" want one link by $want_linker with cuda_11_8's ptxas as an input (got: ${links:-none});"
    else
      tail -30 "$log/docs-setup.txt"
      problems+=" the build failed;"
    fi
  fi
  if [ -z "$problems" ]; then
    pass "docs/bazel.md: the $setup setup (${doc_files[*]}) as written builds offline with '${words[*]}': nvlink 11.8's bytes, by $([ $bazel7 = yes ] && echo "cudalink built by rules_go" || echo "the prebuilt cudalink") with 11.8's ptxas"
  else
    fail "docs/bazel.md: the $setup setup:$problems"
  fi
}
[ $bazel7 = no ] && docs_build
if [ $bazel7 = yes ]; then
  # The docs' .bazelrc lines are what bazel7.sh writes, with its paths for
  # /path/to/...; it adds only the lines for caches, the lockfile, the
  # server's temporary directory and stardoc's Java setup.
  docs_rc=$(doc_block bazelrc | sed 's/[[:space:]]*#.*//')
  missing=""
  while IFS= read -r l; do
    [ -z "$l" ] && continue
    case $l in
    */path/to/*) grep -qF -- "${l%%/path/to/*}" "$rc" || missing+=" '$l'" ;;
    *) grep -qxF -- "$l" "$rc" || missing+=" '$l'" ;;
    esac
  done <<<"$docs_rc"
  undocumented=""
  while IFS= read -r r; do
    case $r in
    "startup --host_jvm_args=-Djava.io.tmpdir="* | "common --lockfile_mode=off" | "common --repository_cache="* | \
      "common --repo_env=GOCACHE="* | "common:stardoc "* | *rules_java~~* | "common --java_runtime_version="* | \
      "common --tool_java_runtime_version="*) continue ;;
    esac
    found=no
    while IFS= read -r l; do
      [ -n "$l" ] && case $r in "${l%%/path/to/*}"*) found=yes ;; esac
    done <<<"$docs_rc"
    [ $found = yes ] || undocumented+=" '$r'"
  done <"$rc"
  if [ -z "$missing" ] && [ -z "$undocumented" ]; then
    pass "docs/bazel.md: the offline .bazelrc lines ($(echo "$docs_rc" | grep -c .)) are those of the runs' bazelrc"
  else
    fail "docs/bazel.md: the offline .bazelrc: not in the runs' bazelrc:${missing:- none}; in it but not in the docs:${undocumented:- none}"
  fi
fi

# --- rebuild after a change -----------------------------------------------------
section "rebuild after a change"
# a.cubin and b.cubin of two-file-cross-calls swap contents: the two
# targets that read them link again, nothing else, and //:two_file is then
# the command line's link of b before a.
tf=$one/ws/cases/two-file-cross-calls
(cd "$one/ws" && "$linker" -arch=sm_80 -o "$ref/two_file_swapped.cubin" cases/two-file-cross-calls/b.cubin \
  cases/two-file-cross-calls/a.cubin) 2>/dev/null
mv "$tf/a.cubin" "$tf/a.tmp" && mv "$tf/b.cubin" "$tf/a.cubin" && mv "$tf/a.tmp" "$tf/b.cubin"
if bz "$one" build "${local_flags[@]}" --execution_log_json_file="$scratch/rebuild.json" "${targets[@]}" //:register_cubins \
  >"$log/rebuild.txt" 2>&1; then
  relinked=$(spawns "$scratch/rebuild.json" | awk '$1 == "CudaDeviceLink" && $3 == "run" { print $2 }' | sort | tr '\n' ' ')
  if [ "$relinked" = "//:register_cubins //:two_file " ] && cmp -s "$one/ws/bazel-bin/two_file.cubin" "$ref/two_file_swapped.cubin" &&
    ! cmp -s "$one/ws/bazel-bin/two_file.cubin" "$ref/two_file.cubin"; then
    pass "rebuild: after an input changed, only its 2 links ran again; the output is the command line's on the new inputs"
  else
    fail "rebuild: links run again: ${relinked:-none} (want //:register_cubins //:two_file), or //:two_file is not the new link"
  fi
else
  cat "$log/rebuild.txt"
  fail "bazel build after an input changed"
fi
mv "$tf/a.cubin" "$tf/a.tmp" && mv "$tf/b.cubin" "$tf/a.cubin" && mv "$tf/a.tmp" "$tf/b.cubin"
bz "$one" build "${local_flags[@]}" "${targets[@]}" //:register_cubins >"$log/rebuild-back.txt" 2>&1 &&
  cmp -s "$one/ws/bazel-bin/two_file.cubin" "$ref/two_file.cubin" ||
  fail "rebuild: the first workspace did not come back to the original inputs' outputs"

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
    --remote_download_outputs=all --execution_log_json_file="$exec_log" "${targets[@]}" >"$log/build-cache.txt" 2>&1; then
  links=$(spawns "$exec_log" | awk '$1 == "CudaDeviceLink"')
  n=$(echo "$links" | grep -c .)
  misses=$(echo "$links" | awk '$3 != "hit"' | grep -c .)
  # Each spawn: [linker, @params], no environment, no absolute path.
  bad=$(echo "$links" | awk '$9 != "params" || $10 != 0 || $11 != "rel"')
  if [ "$n" -gt 0 ] && [ "$misses" = 0 ] && [ -z "$bad" ]; then
    pass "cache: $n CudaDeviceLink spawns, all cache hits; each spawn is [linker, @params] with no environment"
  else
    echo "$links"
    fail "cache: $n CudaDeviceLink spawns, $misses cache misses; malformed spawns (argv, environment, absolute path): ${bad:-none}"
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
  # Each target is one action, whatever its architectures.
  grep -q '^  Target: //:multi_arch$' "$log/aquery.txt" && [ "$(grep -c '^  Target: //:multi_arch$' "$log/aquery.txt")" = 1 ] ||
    problems+=" not one action for //:multi_arch;"
  if [ "$n" -gt 0 ] && [ -z "$problems" ]; then
    pass "aquery: $n CudaDeviceLink actions (one for the multi-architecture link), no absolute path, no environment, worker execution requirements"
  else
    grep -nE "Environment:|$scratch|(^|[ '(\[])/[a-z]|ExecutionInfo" "$log/aquery.txt" | head -20
    fail "aquery:${problems:- no CudaDeviceLink action}"
  fi
else
  cat "$log/aquery.err"
  fail "bazel aquery"
fi

# --- toolkits: PTX and LTO links ---------------------------------------------------
section "toolkits: PTX and LTO links with the toolchains' ptxas and libnvvm"
# The toolchain of each CUDA release (--@cudalink//toolchain:cuda_version)
# gives the link that release's ptxas and libnvvm as declared inputs: the
# PTX-only and LTO links are nvlink's bytes in the worker, in the sandbox
# (which holds nothing else) of the second workspace, and come from the
# disk cache there after a clean.
# link_inputs LOG: for each CudaDeviceLink spawn, the first output's name,
# hit or run, the runner, and its inputs that are not objects (the
# toolchain's files).
link_inputs() {
  spawns "$1" | awk '$1 == "CudaDeviceLink" { print $7, $3, $4, $8 }'
}
tk118=$one/cuda-11.8
if [ ! -s "$tk118/bin/ptxas" ] || [ ! -s "$tk118/nvvm/lib64/libnvvm.so" ]; then
  fail "toolkits: CUDA 11.8's ptxas or libnvvm is not installed ($(toolkit_prefix 11.8)/bin/ptxas, libnvvm.so)"
else
  tk_targets=(//:ptx_only //:lto_inline)
  tk_outputs=(ptx_only.cubin lto_inline.cubin)
  v118=--@cudalink//toolchain:cuda_version=11.8
  tk_cache=$scratch/tk_cache
  if bz "$one" build "$v118" --strategy=CudaDeviceLink=worker --disk_cache="$tk_cache" \
    --execution_log_json_file="$scratch/tk-one.json" "${tk_targets[@]}" >"$log/tk-one.txt" 2>&1; then
    differ=""
    cmp -s "$one/ws/bazel-bin/ptx_only.cubin" "$cases/ptx-only-host-objects/expected.cubin" || differ+=" ptx_only.cubin"
    cmp -s "$one/ws/bazel-bin/lto_inline.cubin" "$cases/lto-cross-file-inlining/expected.cubin" || differ+=" lto_inline.cubin"
    links=$(link_inputs "$scratch/tk-one.json")
    odd=$(echo "$links" | awk '$3 !~ /worker/ { print }')
    # The actions' params: the toolchain's ptxas and nvvm, by relative path.
    params=$(bz "$one" aquery "$v118" --include_param_files 'mnemonic("CudaDeviceLink", //:ptx_only + //:lto_inline)' 2>/dev/null)
    missing=""
    echo "$links" | grep -q '^ptx_only.cubin .*cuda_11_8[^/]*/bin/ptxas' || missing+=" ptx_only:ptxas"
    for f in bin/ptxas nvvm/lib64/libnvvm.so nvvm/libdevice/libdevice.10.bc; do
      echo "$links" | grep '^lto_inline.cubin ' | grep -q "cuda_11_8[^/,]*/$f" || missing+=" lto_inline:$f"
    done
    # CUDA 11.8's toolchain compiles PTX with cudalink-ptxc, which Bazel
    # builds from the toolkit's libnvptxcompiler_static.a (cuda_ptx_compiler):
    # a tool of both links, given as --ptx-compiler.
    for t in ptx_only lto_inline; do
      echo "$links" | grep "^$t.cubin " | grep -q "toolchain/cudalink_ptxc_11_8" || missing+=" $t:cudalink_ptxc_11_8"
    done
    [ "$(echo "$params" | grep -cE -- "(^|[ #'])--ptx-compiler=bazel-out/[^ ,']*/toolchain/cudalink_ptxc_11_8(\$|[ ,'])")" = 2 ] || missing+=" --ptx-compiler"
    # The helper is a declared input (not next to the prebuilt cudalink).
    echo "$links" | grep '^lto_inline.cubin ' | grep -q "toolchain/helper/cudalink-nvvm" || missing+=" lto_inline:cudalink-nvvm"
    grep -qE -- "(^|[ #'])--nvvm-helper=toolchain/helper/cudalink-nvvm(\$|[ ,'])" <<<"$params" || missing+=" --nvvm-helper"
    [ "$(echo "$params" | grep -cE -- "(^|[ #'])--cuda-version=11\.8(\$|[ ,'])")" = 2 ] || missing+=" --cuda-version=11.8"
    [ "$(echo "$params" | grep -cE -- "(^|[ #'])--ptxas=external/[^/]*cuda_11_8[^/]*/bin/ptxas(\$|[ ,'])")" = 2 ] || missing+=" --ptxas"
    grep -qE -- "(^|[ #'])-nvvmpath=external/[^/]*cuda_11_8[^/]*/nvvm(\$|[ ,'])" <<<"$params" || missing+=" -nvvmpath"
    grep -qE -- "(^|[ #'])-dlto(\$|[ ,'])" <<<"$params" || missing+=" -dlto"
    grep -qE "$scratch|(^|[ '(=\[])/[a-z]" <<<"$params" && missing+=" (an absolute path)"
    if [ -z "$differ" ] && [ -z "$odd" ] && [ -z "$missing" ] && [ "$(echo "$links" | grep -c .)" = 2 ]; then
      pass "toolkits: a PTX-only and an LTO (-dlto) link in the worker with CUDA 11.8's ptxas and libnvvm, the toolchain's cudalink-nvvm and cudalink-ptxc (cuda_ptx_compiler, built by Bazel), as inputs: nvlink 11.8's bytes"
    else
      echo "$links"
      fail "toolkits: outputs differ from nvlink's:${differ:- none}; not in the worker: ${odd:-none}; missing:${missing:- none}"
    fi
  else
    tail -n 30 "$log/tk-one.txt"
    fail "toolkits: bazel build of the PTX-only and LTO links with CUDA 11.8's toolchain"
  fi
  if bz "$two" build "$v118" --spawn_strategy=sandboxed --strategy=CudaDeviceLink=sandboxed "${tk_targets[@]}" \
    >"$log/tk-two.txt" 2>&1 &&
    cmp -s "$one/ws/bazel-bin/ptx_only.cubin" "$two/ws/bazel-bin/ptx_only.cubin" &&
    cmp -s "$one/ws/bazel-bin/lto_inline.cubin" "$two/ws/bazel-bin/lto_inline.cubin"; then
    pass "toolkits: the same bytes in the sandbox of the second workspace (declared inputs only)"
  else
    tail -n 30 "$log/tk-two.txt"
    fail "toolkits: the sandboxed PTX-only and LTO links of the second workspace"
  fi
  if bz "$two" clean >/dev/null 2>&1 &&
    bz "$two" build "$v118" --spawn_strategy=sandboxed --disk_cache="$tk_cache" --remote_download_outputs=all \
      --execution_log_json_file="$scratch/tk-cache.json" "${tk_targets[@]}" >"$log/tk-cache.txt" 2>&1; then
    links=$(link_inputs "$scratch/tk-cache.json")
    if [ "$(echo "$links" | grep -c ' hit ')" = 2 ] && cmp -s "$one/ws/bazel-bin/lto_inline.cubin" "$two/ws/bazel-bin/lto_inline.cubin"; then
      pass "toolkits: after a clean, the second workspace gets both links from the first one's disk cache"
    else
      echo "$links"
      fail "toolkits: the PTX-only and LTO links were not disk-cache hits in the second workspace"
    fi
  else
    tail -n 30 "$log/tk-cache.txt"
    fail "toolkits: bazel build with the disk cache in the second workspace"
  fi
  # One toolchain per release, side by side: the flag picks 12.4's or
  # 12.5's, whose ptxas compiles the PTX as that release's nvlink does.
  for v in 12.4 12.5; do
    nvl=$(toolkit_prefix "$v")/bin/nvlink
    if [ ! -s "$one/cuda-$v/bin/ptxas" ] || [ ! -x "$nvl" ]; then
      echo "NOTE: CUDA $v's ptxas or nvlink is not installed ($nvl): its toolchain is not tested"
      continue
    fi
    repo=cuda_$(echo "$v" | tr . _)
    if (cd "$one/ws" && "$nvl" -arch=sm_80 -o "$ref/ptx_only.$v.cubin" ptx/a.o ptx/b.o) >"$log/tk-nvlink-$v.txt" 2>&1 &&
      bz "$one" build --@cudalink//toolchain:cuda_version="$v" --strategy=CudaDeviceLink=worker \
        --execution_log_json_file="$scratch/tk-$v.json" //:ptx_only >"$log/tk-$v.txt" 2>&1; then
      links=$(link_inputs "$scratch/tk-$v.json")
      if cmp -s "$one/ws/bazel-bin/ptx_only.cubin" "$ref/ptx_only.$v.cubin" &&
        echo "$links" | grep -q "^ptx_only.cubin run .*$repo[^/]*/bin/ptxas" &&
        bz "$one" aquery --@cudalink//toolchain:cuda_version="$v" --include_param_files 'mnemonic("CudaDeviceLink", //:ptx_only)' \
          2>/dev/null | grep -qE -- "(^|[ #'])--cuda-version=$v(\$|[ ,'])"; then
        pass "toolkits: --@cudalink//toolchain:cuda_version=$v picks CUDA $v's toolchain (its ptxas, --cuda-version=$v): nvlink $v's bytes"
      else
        echo "$links"
        fail "toolkits: the CUDA $v toolchain's PTX-only link (want nvlink $v's bytes, $repo's ptxas)"
      fi
    else
      tail -n 30 "$log/tk-nvlink-$v.txt" "$log/tk-$v.txt"
      fail "toolkits: the PTX-only link with CUDA $v's toolchain"
    fi
  done
  # CUDA 12 LTO: the toolchain of the release gives the link its
  # libnvJitLink (nvjitlink), libnvvm and cudalink-nvvm as declared inputs,
  # by relative path; the output is that nvlink's (the corpus's expected
  # cubin), in the worker of the first workspace and in the sandbox of the
  # second, which holds only the declared inputs (without the nvjitlink
  # attribute cudalink would look for nvvm/../lib64/libnvJitLink.so.12,
  # which is not there).
  for v in $cuda12_versions; do
    repo=cuda_$(echo "$v" | tr . _)
    want=$root/tests/corpus/cuda-$v/cases/$lto12_case/expected.cubin
    if [ ! -s "$one/cuda-$v/lib64/libnvJitLink.so.12" ] || [ ! -s "$one/cuda-$v/nvvm/lib64/libnvvm.so" ]; then
      echo "NOTE: CUDA $v's libnvJitLink or libnvvm is not installed ($(toolkit_prefix "$v")/lib/x86_64-linux-gnu): its LTO link is not tested"
      continue
    fi
    vf=--@cudalink//toolchain:cuda_version=$v
    if bz "$one" build "$vf" --strategy=CudaDeviceLink=worker --execution_log_json_file="$scratch/tk-lto-$v.json" \
      "//:lto_$repo" >"$log/tk-lto-$v.txt" 2>&1; then
      links=$(link_inputs "$scratch/tk-lto-$v.json")
      params=$(bz "$one" aquery "$vf" --include_param_files "mnemonic(\"CudaDeviceLink\", //:lto_$repo)" 2>/dev/null)
      problems=""
      cmp -s "$one/ws/bazel-bin/lto_$repo.cubin" "$want" || problems+=" the output is not nvlink $v's ($want);"
      [ "$(echo "$links" | grep -c "^lto_$repo.cubin run worker")" = 1 ] || problems+=" not one link run in the worker;"
      for f in lib64/libnvJitLink.so.12 nvvm/lib64/libnvvm.so nvvm/libdevice/libdevice.10.bc bin/ptxas; do
        echo "$links" | grep "^lto_$repo.cubin " | grep -q "$repo[^/,]*/$f" || problems+=" $f is not an input;"
      done
      echo "$links" | grep "^lto_$repo.cubin " | grep -q "toolchain/helper/cudalink-nvvm" || problems+=" cudalink-nvvm is not an input;"
      grep -qE -- "(^|[ #'])--nvjitlink=external/[^/]*$repo[^/]*/lib64/libnvJitLink\.so\.12(\$|[ ,'])" <<<"$params" || problems+=" no relative --nvjitlink;"
      grep -qE -- "(^|[ #'])-nvvmpath=external/[^/]*$repo[^/]*/nvvm(\$|[ ,'])" <<<"$params" || problems+=" no relative -nvvmpath;"
      grep -qE -- "(^|[ #'])--cuda-version=$v(\$|[ ,'])" <<<"$params" || problems+=" no --cuda-version=$v;"
      grep -qE "$scratch|(^|[ '(=\[])/[a-z]" <<<"$params" && problems+=" an absolute path;"
      if [ -z "$problems" ] &&
        bz "$two" build "$vf" --spawn_strategy=sandboxed --strategy=CudaDeviceLink=sandboxed "//:lto_$repo" \
          >"$log/tk-lto-two-$v.txt" 2>&1 &&
        cmp -s "$two/ws/bazel-bin/lto_$repo.cubin" "$want"; then
        pass "toolkits: a CUDA $v LTO link (-dlto, $lto12_case) with the toolchain's libnvJitLink, libnvvm and cudalink-nvvm as inputs: nvlink $v's bytes, in the worker and in the sandbox of the second workspace"
      else
        echo "$links"
        tail -n 30 "$log/tk-lto-two-$v.txt" 2>/dev/null
        fail "toolkits: the CUDA $v LTO link:${problems:- the sandboxed build in the second workspace failed or differs}"
      fi
    else
      tail -n 30 "$log/tk-lto-$v.txt"
      fail "toolkits: bazel build of the CUDA $v LTO link"
    fi
  done
fi

# The toolchain picked by the target platform: //platform:cuda_12_4 names
# CUDA 12.4 as a constraint, which two registered toolchains have as
# target_compatible_with. The first is 12.5's for build machines of another
# CPU (exec_compatible_with aarch64): the build must get the second,
# 12.4's, and its link nvlink 12.4's bytes.
section "toolchain by target platform"
if [ ! -s "$ref/ptx_only.12.4.cubin" ]; then
  echo "NOTE: no nvlink 12.4 reference (CUDA 12.4 not installed): the toolchain by target platform is not tested"
else
  pf=--platforms=//platform:cuda_12_4
  if bz "$one" build "$pf" --strategy=CudaDeviceLink=worker //:ptx_only >"$log/platform.txt" 2>&1; then
    plan=$(bz "$one" aquery "$pf" --include_param_files 'mnemonic("CudaDeviceLink", //:ptx_only)' 2>"$log/platform-aquery.txt")
    problems=""
    cmp -s "$one/ws/bazel-bin/ptx_only.cubin" "$ref/ptx_only.12.4.cubin" || problems+=" the output is not nvlink 12.4's;"
    echo "$plan" | grep '^  Inputs: ' | grep -q "cuda_12_4[^/,]*/bin/ptxas" || problems+=" cuda_12_4's ptxas is not an input;"
    grep -qE -- "(^|[ #'])--cuda-version=12\.4(\$|[ ,'])" <<<"$plan" || problems+=" no --cuda-version=12.4;"
    grep -q 'cuda_12_5' <<<"$plan" && problems+=" the link uses CUDA 12.5's toolchain (exec_compatible_with aarch64);"
    if [ -z "$problems" ]; then
      pass "toolchain by target platform: $pf gets CUDA 12.4's toolchain (not the one for aarch64 build machines registered first): nvlink 12.4's bytes"
    else
      cat "$log/platform-aquery.txt"
      fail "toolchain by target platform:$problems"
    fi
  else
    tail -n 30 "$log/platform.txt"
    fail "toolchain by target platform: bazel build $pf //:ptx_only"
  fi
fi

# --- the host program: cuda_binary ---------------------------------------------------
section "the host program (cuda_binary: device link, link.stub, cc_binary)"
# //:app: the nvcc -dc objects of a cc_library, device-linked for sm_80
# and sm_86 from its CcInfo, the registration stub compiled with the
# toolkit's link.stub, and the cc_binary with its static CUDA runtime, with
# the toolchain of each CUDA release (--@cudalink//toolchain:cuda_version).
# No GPU here: the program must hold the linked cubins (that release's
# nvlink's), the .nv_fatbin section of the program that release's nvcc
# -dlink and g++ make of the same objects, and run.
# run_built PROGRAM: runs a program Bazel built, where Bazel built it (the
# chroot's libc under Bazel 7).
run_built() {
  if [ $bazel7 = yes ]; then
    bazel7_run /usr/bin/env -i PATH=/usr/bin:/bin "$@"
  else
    "$@"
  fi
}
cuobjdump=$(command -v cuobjdump || true)
[ -n "$cuobjdump" ] || echo "NOTE: cuobjdump is not installed: the cubins in the programs are not listed"
for v in $toolkit_versions; do
  tk=$one/cuda-$v
  repo=cuda_$(echo "$v" | tr . _)
  if [ ! -s "$tk/bin/crt/link.stub" ] || [ ! -s "$tk/lib64/libcudart_static.a" ]; then
    if [ "$v" = 11.8 ]; then
      fail "cuda_binary: CUDA 11.8's link.stub or libcudart_static.a is not installed"
    else
      echo "NOTE: CUDA $v's link.stub or libcudart_static.a is not installed: cuda_binary is not built with its toolchain"
    fi
    continue
  fi
  flag=--@cudalink//toolchain:cuda_version=$v
  if ! bz "$one" build "$flag" //:app >"$log/app-$v.txt" 2>&1; then
    tail -n 40 "$log/app-$v.txt"
    fail "cuda_binary: bazel build $flag //:app"
    continue
  fi
  app=$one/ws/bazel-bin/app
  problems=""
  # The references: the command line with that release, and its nvlink.
  nvl=$(toolkit_prefix "$v")/bin/nvlink
  [ -x "$nvl" ] || nvl=""
  nvlink_same=""
  for arch in sm_80 sm_86; do
    "$linker" --cuda-version="$v" -arch=$arch -o "$ref/app.$v.$arch.cubin" "$hostobj/a.o" "$hostobj/b.o" 2>>"$log/app-ref.txt"
    cmp -s "$one/ws/bazel-bin/app_dlink.$arch.cubin" "$ref/app.$v.$arch.cubin" ||
      problems+=" app_dlink.$arch.cubin is not the command line's (--cuda-version=$v);"
    if [ -n "$nvl" ]; then
      "$nvl" -arch=$arch -o "$ref/app.$v.$arch.nvlink.cubin" "$hostobj/a.o" "$hostobj/b.o" 2>>"$log/app-ref.txt"
      cmp -s "$one/ws/bazel-bin/app_dlink.$arch.cubin" "$ref/app.$v.$arch.nvlink.cubin" &&
        nvlink_same+=" $arch" || problems+=" app_dlink.$arch.cubin is not nvlink $v's;"
    fi
  done
  [ -n "$nvl" ] || echo "NOTE: CUDA $v's nvlink is not installed: //:app's cubins are not compared with it"
  # The stub is compiled from that release's link.stub (copied to a .cc by
  # a TemplateExpand) and the program linked with its runtime, and no other
  # release's file is an input.
  plan=$(bz "$one" aquery "$flag" 'mnemonic("TemplateExpand|CppCompile|CppLink", //:app + //:app_stub)' 2>/dev/null)
  echo "$plan" | grep '^  Inputs: ' | grep -q "$repo[^/,]*/bin/crt/link.stub" || problems+=" the stub is not compiled from $repo's link.stub;"
  echo "$plan" | grep '^  Inputs: ' | grep -q "$repo[^/,]*/lib64/libcudart_static.a" || problems+=" the program is not linked with $repo's runtime;"
  others=$(echo "$plan" | grep '^  Inputs: ' | grep -oE 'cuda_[0-9]+_[0-9]+' | grep -vx "$repo" | sort -u | tr '\n' ' ')
  [ -z "$others" ] || problems+=" inputs from other releases: $others;"
  out=$(run_built "$app" 2>&1) && [ "$out" = "app: launched k_scale" ] || problems+=" the program did not run ($out);"
  if [ -n "$cuobjdump" ]; then
    x=$scratch/app-elf-$v
    mkdir -p "$x"
    listed=$("$cuobjdump" -lelf "$app" 2>&1)
    [ "$listed" = "$(printf 'ELF file    1: app.1.sm_80.cubin\nELF file    2: app.2.sm_86.cubin')" ] ||
      problems+=" cuobjdump -lelf lists: $listed;"
    (cd "$x" && "$cuobjdump" -xelf all "$app" >/dev/null 2>&1)
    cmp -s "$x/app.1.sm_80.cubin" "$ref/app.$v.sm_80.cubin" && cmp -s "$x/app.2.sm_86.cubin" "$ref/app.$v.sm_86.cubin" ||
      problems+=" the cubins in the program are not the linked ones;"
  fi
  # That release's nvcc -dlink, and g++ with its runtime.
  vnvcc=$nvcc
  [ "$v" = 11.8 ] || vnvcc=$(toolkit_prefix "$v")/bin/nvcc
  nvcc_same=""
  if [ -x "$vnvcc" ] && [ -n "$cxx" ]; then
    nx=$scratch/app-nvcc-$v
    mkdir -p "$nx"
    if (
      cd "$nx" &&
        "$vnvcc" -dlink -arch=sm_80 -gencode arch=compute_86,code=sm_86 "$hostobj/a.o" "$hostobj/b.o" -o dlink.o &&
        "$cxx" "$here/workspace/app/main.cc" dlink.o "$hostobj/a.o" "$hostobj/b.o" "$tk/lib64/libcudart_static.a" \
          -ldl -lpthread -lrt -o app &&
        objcopy -O binary --only-section=.nv_fatbin app nvcc.nv_fatbin &&
        objcopy -O binary --only-section=.nv_fatbin "$app" bazel.nv_fatbin &&
        cmp nvcc.nv_fatbin bazel.nv_fatbin
    ) >"$log/app-nvcc-$v.txt" 2>&1; then
      nvcc_same=", the .nv_fatbin of nvcc $v -dlink's program"
    else
      cat "$log/app-nvcc-$v.txt"
      problems+=" the .nv_fatbin section is not that of the program nvcc $v -dlink and $cxx make;"
    fi
  else
    echo "NOTE: CUDA $v's nvcc or a C++ compiler is missing: //:app is not compared with nvcc -dlink's program"
  fi
  # The same program from relocatable device code in a CcInfo that
  # cc_common made (rdc.bzl's rdc_library, as rules_cuda's cuda_library
  # makes one), with 11.8's toolchain: the same cubins and .nv_fatbin as
  # //:app's, and it runs.
  rdc_same=""
  if [ "$v" = 11.8 ]; then
    if bz "$one" build "$flag" //:app_rdc >"$log/app-rdc.txt" 2>&1; then
      rapp=$one/ws/bazel-bin/app_rdc
      for arch in sm_80 sm_86; do
        cmp -s "$one/ws/bazel-bin/app_rdc_dlink.$arch.cubin" "$ref/app.$v.$arch.cubin" ||
          problems+=" app_rdc_dlink.$arch.cubin is not the command line's;"
      done
      objcopy -O binary --only-section=.nv_fatbin "$app" "$scratch/app.nv_fatbin" &&
        objcopy -O binary --only-section=.nv_fatbin "$rapp" "$scratch/app_rdc.nv_fatbin" &&
        cmp -s "$scratch/app.nv_fatbin" "$scratch/app_rdc.nv_fatbin" ||
        problems+=" //:app_rdc's .nv_fatbin is not //:app's;"
      out=$(run_built "$rapp" 2>&1) && [ "$out" = "app: launched k_scale" ] || problems+=" //:app_rdc did not run ($out);"
      rdc_same="; so does //:app_rdc, from an rdc_library's CcInfo (the same cubins and .nv_fatbin)"
    else
      tail -n 40 "$log/app-rdc.txt"
      problems+=" bazel build $flag //:app_rdc failed;"
    fi
    # //:app_virtual, for compute_80 only: no cubin; the .nv_fatbin (no
    # image) of the program nvcc -dlink -arch=compute_80 makes, and it runs.
    # (nvcc's virtual link lists libcudadevrt, which its program then needs:
    # -lcudadevrt, from /usr/lib/x86_64-linux-gnu, as nvcc's host link.)
    if bz "$one" build "$flag" //:app_virtual >"$log/app-virtual.txt" 2>&1; then
      vapp=$one/ws/bazel-bin/app_virtual
      [ ! -e "$one/ws/bazel-bin/app_virtual_dlink.cubin" ] || problems+=" //:app_virtual_dlink wrote a cubin;"
      if [ -x "$vnvcc" ] && [ -n "$cxx" ]; then
        (
          cd "$nx" &&
            "$vnvcc" -dlink -arch=compute_80 "$hostobj/a.o" "$hostobj/b.o" -o dlink_virtual.o &&
            "$cxx" "$here/workspace/app/main.cc" dlink_virtual.o "$hostobj/a.o" "$hostobj/b.o" \
              "$tk/lib64/libcudart_static.a" -lcudadevrt -ldl -lpthread -lrt -o app_virtual &&
            objcopy -O binary --only-section=.nv_fatbin app_virtual nvcc_virtual.nv_fatbin &&
            objcopy -O binary --only-section=.nv_fatbin "$vapp" bazel_virtual.nv_fatbin &&
            cmp nvcc_virtual.nv_fatbin bazel_virtual.nv_fatbin
        ) >"$log/app-virtual-nvcc.txt" 2>&1 || {
          cat "$log/app-virtual-nvcc.txt"
          problems+=" //:app_virtual's .nv_fatbin is not that of nvcc -dlink -arch=compute_80's program;"
        }
      fi
      out=$(run_built "$vapp" 2>&1) && [ "$out" = "app: launched k_scale" ] || problems+=" //:app_virtual did not run ($out);"
      rdc_same+="; //:app_virtual, for compute_80 alone, links no cubin, has the .nv_fatbin of nvcc -dlink -arch=compute_80's program, and runs"
    else
      tail -n 40 "$log/app-virtual.txt"
      problems+=" bazel build $flag //:app_virtual failed;"
    fi
  fi
  whose="the command line's"
  [ -n "$nvlink_same" ] && whose="nvlink $v's"
  if [ -z "$problems" ]; then
    pass "cuda_binary: with CUDA $v's toolchain, //:app builds from a cc_library of nvcc -dc objects with $v's link.stub and runtime, holds the linked sm_80 and sm_86 cubins ($whose)$nvcc_same, and runs$rdc_same"
  else
    fail "cuda_binary with CUDA $v's toolchain:$problems"
  fi
done

# --- remote cache over HTTP -------------------------------------------------------
section "HTTP remote cache (nginx with WebDAV PUT)"
# The setup Bazel's remote-caching docs describe, on loopback, for this run
# only. The first workspace, cleaned, fills it; the second, cleaned, gets
# every link from it.
nginx=$(command -v nginx || ls /usr/sbin/nginx 2>/dev/null || true)
if [ -z "$nginx" ]; then
  fail "HTTP cache: nginx is not installed (scripts/setup.sh installs nginx-light)"
else
  nx=$scratch/nginx
  mkdir -p "$nx/cache" "$nx/tmp"
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  # As root, nginx's workers would run as nobody, who cannot write here.
  user=""
  [ "$(id -u)" = 0 ] && user="user $(id -un) $(id -gn);"
  cat >"$nx/nginx.conf" <<NGINX
$user
worker_processes 1;
pid $nx/nginx.pid;
error_log $nx/error.log;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path $nx/tmp/body;
  proxy_temp_path $nx/tmp/proxy;
  fastcgi_temp_path $nx/tmp/fastcgi;
  uwsgi_temp_path $nx/tmp/uwsgi;
  scgi_temp_path $nx/tmp/scgi;
  server {
    listen 127.0.0.1:$port;
    root $nx/cache;
    client_max_body_size 0;
    location / {
      dav_methods PUT;
      create_full_put_path on;
      dav_access user:rw;
    }
  }
}
NGINX
  "$nginx" -p "$nx" -c "$nx/nginx.conf" -e "$nx/error.log" -g 'daemon off;' &
  nginx_pid=$!
  for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
  remote=(--remote_cache="http://127.0.0.1:$port" --remote_download_outputs=all)
  http_log=$scratch/http.json
  if bz "$one" clean >/dev/null 2>&1 &&
    bz "$one" build --spawn_strategy=sandboxed "${remote[@]}" "${targets[@]}" >"$log/http-one.txt" 2>&1 &&
    bz "$two" clean >/dev/null 2>&1 &&
    bz "$two" build --spawn_strategy=sandboxed "${remote[@]}" --execution_log_json_file="$http_log" "${targets[@]}" \
      >"$log/http-two.txt" 2>&1; then
    links=$(spawns "$http_log" | awk '$1 == "CudaDeviceLink"')
    n=$(echo "$links" | grep -c .)
    misses=$(echo "$links" | awk '$3 != "hit"' | grep -c .)
    differ=""
    for out in "${outputs[@]}"; do
      cmp -s "$one/ws/bazel-bin/$out" "$two/ws/bazel-bin/$out" && cmp -s "$two/ws/bazel-bin/$out" "$ref/$out" ||
        differ+=" $out"
    done
    stored=$(find "$nx/cache/ac" -type f 2>/dev/null | wc -l)
    if grep -q 'Remote Cache:' "$log/http-one.txt" "$log/http-two.txt"; then
      grep -h 'Remote Cache:' "$log/http-one.txt" "$log/http-two.txt" | sort | uniq -c
      fail "HTTP cache: transfer errors"
    fi
    if [ "$n" = ${#targets[@]} ] && [ "$misses" = 0 ] && [ -z "$differ" ]; then
      pass "HTTP cache: all $n links of the second workspace came from nginx ($stored action results stored), the same bytes"
    else
      echo "$links"
      fail "HTTP cache: $n links, $misses not from the cache; outputs differ:${differ:- none}"
    fi
  else
    tail -20 "$log/http-one.txt" "$log/http-two.txt" "$nx/error.log" 2>/dev/null
    fail "HTTP cache: bazel build with --remote_cache"
  fi
  kill "$nginx_pid" 2>/dev/null
  wait "$nginx_pid" 2>/dev/null
  nginx_pid=
fi

if [ $bazel7 = yes ]; then
  # --- remote cache over gRPC ----------------------------------------------------
  section "gRPC remote cache (buildbox-casd behind reapiproxy)"
  # buildbox-casd from the chroot as a REAPI CAS and action cache on
  # loopback, for this run only, and reapiproxy (./reapiproxy) in front of
  # it: Bazel 7.7.1 speaks REAPI 2.0 only, casd 1.4.30 offers 2.1 to 2.12.
  # The first workspace, cleaned, fills it; the second, cleaned, gets every
  # link from it, under the same action keys.
  rp=$scratch/reapi
  mkdir -p "$rp/casd"
  free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
  cport=$(free_port)
  if ! (cd "$root" && CGO_ENABLED=0 go build -o "$bin/reapiproxy" ./tests/bazel/reapiproxy); then
    fail "gRPC cache: go build ./tests/bazel/reapiproxy"
  elif [ ! -x "$bazel7_chroot/usr/bin/buildbox-casd" ]; then
    fail "gRPC cache: no buildbox-casd in $bazel7_chroot (scripts/setup-bazel7.sh installs buildbox)"
  else
    bazel7_exec /usr/bin/env -i PATH=/usr/bin:/bin buildbox-casd --bind="127.0.0.1:$cport" \
      --log-level=warning "$rp/casd" >"$log/casd.txt" 2>&1 &
    casd_pid=$!
    "$bin/reapiproxy" -upstream "127.0.0.1:$cport" -port-file "$rp/proxy.port" >"$log/reapiproxy.txt" 2>&1 &
    proxy_pid=$!
    # casd, started in the chroot, may take many seconds on a loaded
    # machine; Bazel must not meet a port that is not listening yet (it
    # would report that, not the API versions, and build on).
    up=no
    for _ in $(seq 600); do
      [ -f "$rp/proxy.port" ] && (exec 3<>"/dev/tcp/127.0.0.1/$cport") 2>/dev/null && up=yes && break
      sleep 0.1
    done
    [ $up = yes ] || fail "gRPC cache: casd on 127.0.0.1:$cport or reapiproxy not up after 60 s ($(tail -3 "$log/casd.txt" "$log/reapiproxy.txt" 2>/dev/null | tr '\n' ' '))"
    pport=$(cat "$rp/proxy.port" 2>/dev/null)
    # Without the proxy Bazel 7.7.1 refuses casd at capability negotiation:
    # it reports the error, builds without the cache (exit status 0) and
    # gets nothing from it. A Bazel or casd that agree on an API version
    # fail this check: then the proxy is no longer needed, and this check
    # and docs/bazel.md ("When it is no longer needed") must say so.
    bz "$one" clean >/dev/null 2>&1
    bz "$one" build --remote_cache="grpc://127.0.0.1:$cport" --noremote_upload_local_results \
      --execution_log_json_file="$rp/direct.json" //:two_file >"$log/grpc-direct.txt" 2>&1
    st=$?
    refused=$(grep -o 'The client supported API versions, 2\.0 to 2\.0, is not supported by the server, 2\.[0-9]* to 2\.[0-9]*' \
      "$log/grpc-direct.txt" | head -1)
    direct=$(spawns "$rp/direct.json" 2>/dev/null | awk '$1 == "CudaDeviceLink" { print $3 }' | sort | uniq -c | xargs)
    if [ -n "$refused" ] && [ $st = 0 ] && [ "$direct" = "1 run" ] && ! grep -q 'remote cache hit' "$log/grpc-direct.txt"; then
      pass "gRPC cache: without reapiproxy Bazel refuses casd at capability negotiation (\"$refused\") and builds without it: the link ran"
    else
      tail -20 "$log/grpc-direct.txt"
      fail "gRPC cache: Bazel against casd without reapiproxy: want the capability error (${refused:-not printed}), exit status 0 (got $st) and the link run without the cache (got: ${direct:-no link}); if this Bazel now accepts casd, drop the proxy (docs/bazel.md)"
    fi
    remote=(--remote_cache="grpc://127.0.0.1:$pport" --remote_download_outputs=all)
    if bz "$one" clean >/dev/null 2>&1 &&
      bz "$one" build --spawn_strategy=sandboxed "${remote[@]}" --execution_log_json_file="$rp/one.json" "${targets[@]}" \
        >"$log/grpc-one.txt" 2>&1 &&
      bz "$two" clean >/dev/null 2>&1 &&
      bz "$two" build --spawn_strategy=sandboxed "${remote[@]}" --execution_log_json_file="$rp/two.json" "${targets[@]}" \
        >"$log/grpc-two.txt" 2>&1; then
      links=$(spawns "$rp/two.json" | awk '$1 == "CudaDeviceLink"')
      n=$(echo "$links" | grep -c .)
      misses=$(echo "$links" | awk '$3 != "hit"' | grep -c .)
      ran=$(spawns "$rp/one.json" | awk '$1 == "CudaDeviceLink" && $3 == "run"' | grep -c .)
      # The action keys (digests of the REAPI Action messages) of the
      # links: the same in both workspaces, target for target.
      keys_one=$(spawns "$rp/one.json" | awk '$1 == "CudaDeviceLink" { print $2, $6 }' | sort)
      keys_two=$(spawns "$rp/two.json" | awk '$1 == "CudaDeviceLink" { print $2, $6 }' | sort)
      summary=$(grep -o '[0-9]* processes: .*remote cache hit.*' "$log/grpc-two.txt" | tail -1)
      differ=""
      for out in "${outputs[@]}"; do
        cmp -s "$one/ws/bazel-bin/$out" "$two/ws/bazel-bin/$out" && cmp -s "$two/ws/bazel-bin/$out" "$ref/$out" ||
          differ+=" $out"
      done
      if grep -q '^ERROR\|Remote Cache:' "$log/grpc-one.txt" "$log/grpc-two.txt"; then
        grep -h '^ERROR\|Remote Cache:' "$log/grpc-one.txt" "$log/grpc-two.txt" | sort | uniq -c
        fail "gRPC cache: errors talking to casd through reapiproxy"
      fi
      if [ "$ran" = ${#targets[@]} ] && [ "$n" = ${#targets[@]} ] && [ "$misses" = 0 ] && [ -z "$differ" ]; then
        pass "gRPC cache: the first workspace ran and uploaded its $ran links; all $n of the second came from casd ($summary), the same bytes"
      else
        echo "$links"
        fail "gRPC cache: $ran links ran in the first workspace, $n in the second of which $misses not from the cache; outputs differ:${differ:- none}"
      fi
      if [ -n "$keys_one" ] && [ "$keys_one" = "$keys_two" ] && ! echo "$keys_one" | grep -q ' -$'; then
        pass "gRPC cache: the $(echo "$keys_one" | grep -c .) action keys are the same in both workspaces (paths and output bases differ)"
      else
        diff <(echo "$keys_one") <(echo "$keys_two")
        fail "gRPC cache: the action keys differ between the workspaces, or are missing from the execution log"
      fi
    else
      tail -20 "$log/grpc-one.txt" "$log/grpc-two.txt" "$log/casd.txt" "$log/reapiproxy.txt" 2>/dev/null
      fail "gRPC cache: bazel build with --remote_cache=grpc://"
    fi
    kill "$proxy_pid" 2>/dev/null
    wait "$proxy_pid" 2>/dev/null
    proxy_pid=
    kill "$casd_pid" 2>/dev/null
    wait "$casd_pid" 2>/dev/null
    casd_pid=
    rewrites=$(grep -o '[0-9]* calls forwarded, [0-9]* GetCapabilities responses rewritten.*' "$log/reapiproxy.txt")
    case $rewrites in
    *", 0 GetCapabilities"* | "") fail "gRPC cache: reapiproxy rewrote no GetCapabilities response (${rewrites:-no summary})" ;;
    *) pass "gRPC cache: reapiproxy offered deprecated_api_version 2.0: $rewrites" ;;
    esac
  fi

  # --- the project as the root module ------------------------------------------
  section "the project as the root module (rules_go, Go $bazel7_go from the mirror)"
  project=$scratch/project
  mkdir -p "$project"
  (cd "$root" && git ls-files -z --cached --others --exclude-standard | tar --null -T - --ignore-failed-read -cf - 2>/dev/null) |
    tar -C "$project" -xf -
  servers+=("$project")
  gobase=$bazel7_cache/output-base
  bp() { # bp COMMAND ARGS...: bazel in the project copy (with stardoc)
    local cmd=$1
    shift
    gobase_ws=$project
    (cd "$project" && bazel --output_user_root="$scratch/root" --output_base="$gobase" --bazelrc="$rc" --max_idle_secs=300 \
      "$cmd" --config=stardoc --color=no --curses=no --noshow_progress "$@")
  }
  bp clean >"$log/module-clean.txt" 2>&1 || {
    cat "$log/module-clean.txt"
    fail "module: bazel clean in the kept output base $gobase"
  }
  # The rules_go actions (the standard library above all) come from a disk
  # cache that outlives the run.
  if bp build --disk_cache="$bazel7_cache/disk" //linker/cmd/cudalink >"$log/module-build.txt" 2>&1; then
    built=$project/bazel-bin/linker/cmd/cudalink/cudalink_/cudalink
    if (cd "$one/ws" && "$built" -arch=sm_80 -o "$ref/two_file.bazel.cubin" cases/two-file-cross-calls/a.cubin \
      cases/two-file-cross-calls/b.cubin) && cmp -s "$ref/two_file.bazel.cubin" "$ref/two_file.cubin"; then
      pass "module: rules_go builds //linker/cmd/cudalink with bzlmod; it links as go build's cudalink does"
    else
      fail "module: the cudalink rules_go built does not link as go build's does"
    fi
    if grep -q 'bazel mod tidy\|not generated by the extension\|imported but not' "$log/module-build.txt"; then
      grep 'mod tidy\|extension' "$log/module-build.txt"
      fail "module: Bazel asks for bazel mod tidy (use_repo out of date)"
    else
      pass "module: no use_repo warning (bazel mod tidy would change nothing)"
    fi
  else
    tail -40 "$log/module-build.txt"
    fail "module: bazel build //linker/cmd/cudalink as the root module"
  fi
  # bazel mod tidy for real: the buildozer stand-in runs the buildozer
  # tests/bazel/tools pins, built here.
  tidy=()
  if (cd "$here/tools" && go build -o "$bin/buildozer" github.com/bazelbuild/buildtools/buildozer) >"$log/buildozer.txt" 2>&1; then
    tidy=(--repo_env=CUDALINK_BUILDOZER="$bin/buildozer")
  else
    cat "$log/buildozer.txt"
    fail "module: go build buildozer (for bazel mod tidy)"
  fi
  for where in project ws; do
    if [ $where = project ]; then
      moddir=$project
      bp mod graph >"$log/mod-graph-$where.txt" 2>"$log/mod-graph-$where.err"
    else
      moddir=$one/ws
      bz "$one" mod graph >"$log/mod-graph-$where.txt" 2>"$log/mod-graph-$where.err"
    fi
    st=$?
    warnings=$(grep -E '^(WARNING|ERROR)' "$log/mod-graph-$where.err" | grep -v "Option 'host_javabase' is deprecated")
    if [ $st = 0 ] && [ -z "$warnings" ] && grep -q 'cudalink' "$log/mod-graph-$where.txt"; then
      pass "module: bazel mod graph in the $where is clean ($(grep -c . "$log/mod-graph-$where.txt") lines)"
    else
      cat "$log/mod-graph-$where.err"
      fail "module: bazel mod graph in the $where"
    fi
    [ ${#tidy[@]} = 0 ] && continue
    cp "$moddir/MODULE.bazel" "$scratch/MODULE.bazel.$where"
    if [ $where = project ]; then
      bp mod tidy "${tidy[@]}" >"$log/mod-tidy-$where.txt" 2>&1
    else
      bz "$one" mod tidy "${tidy[@]}" >"$log/mod-tidy-$where.txt" 2>&1
    fi
    st=$?
    if [ $st = 0 ] && cmp -s "$moddir/MODULE.bazel" "$scratch/MODULE.bazel.$where"; then
      pass "module: bazel mod tidy in the $where changes nothing"
    else
      tail -20 "$log/mod-tidy-$where.txt"
      diff "$scratch/MODULE.bazel.$where" "$moddir/MODULE.bazel"
      fail "module: bazel mod tidy in the $where (exit status $st)"
    fi
  done

  # The public API's documentation: the bzl_library targets build, and
  # docs/rules.md is what stardoc (Debian's bazel-stardoc) makes of
  # rules/defs.bzl now (tests/bazel/doc). //rules:go_repositories is left
  # out: its rules_go files load protobuf's, which the offline stand-in
  # does not have.
  if bp build //rules:defs //rules:repositories //tests/bazel/doc:rules_md >"$log/stardoc.txt" 2>&1; then
    if cmp -s "$project/bazel-bin/tests/bazel/doc/rules.md" "$root/docs/rules.md"; then
      pass "docs: the bzl_library targets build; docs/rules.md is stardoc's rendering of rules/defs.bzl ($(grep -c '^## ' "$root/docs/rules.md") rules, macros and providers)"
    else
      diff "$root/docs/rules.md" "$project/bazel-bin/tests/bazel/doc/rules.md" | head -40
      fail "docs: docs/rules.md is out of date (regenerate: bash tests/bazel/stardoc.sh, as root)"
    fi
  else
    tail -20 "$log/stardoc.txt"
    fail "docs: the bzl_library targets and stardoc (//tests/bazel/doc:rules_md)"
  fi

  # --- the docs' user module, and the default toolchain in it ---------------------
  section "the bzlmod setup of docs/bazel.md, and cudalink's default toolchain (from source) in it"
  docs_build
  # The same module without the flag gets cudalink's default toolchain:
  # the test workspace's targets, copied into the package e2e/ after the
  # docs' build (its //... would take them, and their CUDA 12 cubins are
  # not for 11.8's toolchain), link in the worker by the cudalink rules_go
  # builds, byte-identical to the command line.
  mkdir -p "$docsws/e2e"
  cp -R "$one/ws/BUILD.bazel" "$one/ws/rdc.bzl" "$one/ws/cases" "$one/ws/hostobj" "$one/ws/ptx" "$docsws/e2e/"
  default_targets=(//e2e:two_file //e2e:many_files //e2e:multi_arch //e2e:host_objects //e2e:ptx_virtual //e2e:host_mixed)
  if bu build --color=no --curses=no --noshow_progress --disk_cache="$bazel7_cache/disk" \
    --modify_execution_info=CudaDeviceLink=+no-cache --strategy=CudaDeviceLink=worker \
    --execution_log_json_file="$scratch/default.json" "${default_targets[@]}" >"$log/default.txt" 2>&1; then
    differ=""
    for out in two_file.cubin many_files.cubin multi_arch.sm_80.cubin multi_arch.sm_86.cubin multi_arch.fatbin \
      multi_arch.fatbin.c host_objects.cubin host_objects.fatbin host_objects.fatbin.c host_objects.reg.c \
      ptx_virtual.fatbin ptx_virtual.fatbin.c ptx_virtual.reg.c host_mixed.cubin host_mixed.reg.c; do
      cmp -s "$docsws/bazel-bin/e2e/$out" "$ref/$out" || differ+=" $out"
    done
    links=$(spawns "$scratch/default.json" | awk '$1 == "CudaDeviceLink"')
    n=$(echo "$links" | grep -c .)
    odd=$(echo "$links" | awk '$3 != "run" || $4 !~ /worker/ || $5 !~ /external\/cudalink~\/linker\/cmd\/cudalink\// { print }')
    if [ -z "$differ" ] && [ "$n" = ${#default_targets[@]} ] && [ -z "$odd" ]; then
      pass "default toolchain: in the docs' module without the flag, $n links by cudalink built from source ($(echo "$links" | awk '{ print $5; exit }')), in the worker, byte-identical to the command line's"
    else
      echo "$links"
      fail "default toolchain: outputs differ:${differ:- none}; want ${#default_targets[@]} worker links by the cudalink built from source"
    fi
  else
    tail -40 "$log/default.txt"
    fail "default toolchain: bazel build in the docs' module"
  fi

  section "the chroot's /tmp"
  left=$(comm -13 <(echo "$chroot_tmp_before") <(chroot_tmp))
  if [ -z "$left" ]; then
    pass "the run left nothing in $bazel7_chroot/tmp"
  else
    echo "$left" | head
    fail "the run left $(echo "$left" | grep -c .) entries in $bazel7_chroot/tmp"
  fi
fi

finish
