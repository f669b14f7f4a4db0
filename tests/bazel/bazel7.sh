# Sourced by which-bazel.sh for run.sh --bazel7 and ../worker/e2e.sh
# --bazel7: Debian sid's Bazel 7.7.1 in the chroot scripts/setup-bazel7.sh
# builds, offline, with bzlmod. It defines
#
#   bazel7_check       prints SKIP (returns 2) when the chroot is absent and
#                      this is not root; as root it builds a missing chroot
#                      and adds what an older one lacks (setup-bazel7.sh)
#   bazel7_start DIR   waits for any other Bazel 7 run on this machine to
#                      end (a lock on $bazel7_chroot/.run.lock), lays out the
#                      offline setup (below) and writes DIR/bazelrc7
#   bazel7_run CMD...  CMD in the chroot, in the current directory (in /
#                      when that is outside DIR and the cache), through
#                      scripts/chroot-run.sh: in the mount namespace that
#                      bazel7_start made for the run (chroot-run.sh --hold),
#                      with a private /dev and /proc, DIR and the cache
#                      bind-mounted at the same paths; the host's mount
#                      table and /dev are never touched. One namespace for
#                      all: a Bazel client in another would shut down the
#                      server the previous command started.
#   bazel7_exec CMD... the same as exec, for a server: `bazel7_exec CMD &`
#   bazel ARGS...      Bazel 7.7.1 in the chroot (bazel7_run)
#   bazel7_stop        stops the mirror and the namespace's holder,
#                      removes the bind targets bazel7_start made in the
#                      chroot, releases the lock
#
# The offline setup: rules_go and gazelle are Go modules (`go mod download`);
# the Go SDK (go_sdk.download) is Go's own golang.org/toolchain module
# repacked as go.dev's archive, reached through
# --experimental_downloader_config; @bazel_tools' other dependencies are the
# stand-ins in offline/bzlmod; Debian's /etc/bazel/bazelrc brings the rest.
# stardoc (docs/rules.md, tests/bazel/doc) is Debian's bazel-stardoc; its
# renderer, a java_binary, runs on the chroot's JDK with Bazel's Java tools
# from bazel-java-tools (rules_java would download both); --config=stardoc
# in the project, which depends on it.
# The Go modules go_deps needs come from the same module cache. Everything
# heavy stays in $CUDALINK_BAZEL7_CACHE (/var/cache/cudalink-bazel7) between
# runs: the module cache, the modules, the SDK, Bazel's repository cache and
# a disk cache for the rules_go builds. Nothing is written elsewhere but in
# DIR and the chroot.

bazel7_chroot=${CUDALINK_CHROOT:-/var/cache/cudalink-sid}
bazel7_cache=${CUDALINK_BAZEL7_CACHE:-/var/cache/cudalink-bazel7}
bazel7_rules_go=v0.59.0
bazel7_gazelle=v0.47.0
bazel7_go=1.26.0
bazel7_made=()
bazel7_lock_fd=
bazel7_dir=
bazel7_ns=

bazel7_check() {
  local out
  if [ -f "$bazel7_chroot/.complete" ] && [ "$(id -u)" = 0 ]; then
    # A chroot of an earlier setup-bazel7.sh gets the packages it lacks.
    out=$(bash "$(dirname "${BASH_SOURCE[0]}")/../../scripts/setup-bazel7.sh" 2>&1) || {
      echo "$out"
      return 1
    }
    case $out in *adding* | *removed*) echo "$out" ;; esac
    return 0
  fi
  if [ "$(id -u)" != 0 ]; then
    if [ -f "$bazel7_chroot/.complete" ]; then
      echo "FAIL: the Bazel 7 chroot is in $bazel7_chroot but only root can run it (mounts, chroot)"
      return 1
    fi
    echo "SKIP: no Bazel 7 chroot in $bazel7_chroot and not root: Bazel 7.7.1 and bzlmod were NOT tested (scripts/setup.sh builds it, as root)"
    return 2
  fi
  echo "NOTE: building the Bazel 7 chroot (scripts/setup-bazel7.sh, about 11 minutes, 2 GB)"
  bash "$(dirname "${BASH_SOURCE[0]}")/../../scripts/setup-bazel7.sh"
}

# bazel7_module PATH VERSION DIR: the Go module PATH@VERSION as a Bazel
# module in DIR. Module zips drop vendor/ and the exec bits.
bazel7_module() {
  local path=$1 version=$2 dir=$3 src f
  [ -f "$dir/.complete" ] && return 0
  src=$(GOMODCACHE=$bazel7_cache/gomod GOFLAGS=-mod=mod go mod download -json "$path@$version" |
    sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p') || return 1
  [ -d "$src" ] || return 1
  rm -rf "$dir" && mkdir -p "$(dirname "$dir")" || return 1
  cp -R "$src" "$dir" && chmod -R u+w "$dir" || return 1
  while IFS= read -r f; do
    [ "$(head -c2 "$f")" = '#!' ] && chmod +x "$f"
  done < <(find "$dir" -type f)
  if [ -f "$dir/go.mod" ] && grep -q '^require' "$dir/go.mod" && [ "${4:-}" = vendor ]; then
    (cd "$dir" && GOMODCACHE=$bazel7_cache/gomod GOFLAGS=-mod=mod go mod vendor -e) >/dev/null 2>&1 || return 1
  fi
  touch "$dir/.complete"
}

# bazel7_sdk: Go $bazel7_go as go.dev serves it (go/ prefix, exec bits),
# made from the golang.org/toolchain module, and the version list
# go_sdk.download reads its SHA-256 from.
bazel7_sdk() {
  local dir=$bazel7_cache/go-mirror name=go$bazel7_go.linux-amd64.tar.gz zip tmp sum
  [ -f "$dir/versions.json" ] && return 0
  zip=$(GOMODCACHE=$bazel7_cache/gomod GOFLAGS=-mod=mod go mod download -json \
    "golang.org/toolchain@v0.0.1-go$bazel7_go.linux-amd64" | sed -n 's/^[[:space:]]*"Zip": "\(.*\)",$/\1/p') || return 1
  [ -f "$zip" ] || return 1
  tmp=$bazel7_cache/go-mirror.tmp
  rm -rf "$tmp" && mkdir -p "$tmp/x" || return 1
  (cd "$tmp/x" && unzip -q "$zip") || return 1
  mv "$tmp/x/golang.org/toolchain@v0.0.1-go$bazel7_go.linux-amd64" "$tmp/go" || return 1
  chmod -R u+w,a+rX "$tmp/go" && chmod a+x "$tmp"/go/bin/* "$tmp"/go/pkg/tool/*/* || return 1
  tar -C "$tmp" --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -czf "$tmp/$name" go || return 1
  sum=$(sha256sum "$tmp/$name" | cut -d' ' -f1)
  printf '[{"version": "go%s", "stable": true, "files": [{"filename": "%s", "os": "linux", "arch": "amd64", "version": "go%s", "sha256": "%s", "kind": "archive"}]}]\n' \
    "$bazel7_go" "$name" "$bazel7_go" "$sum" >"$tmp/versions.json"
  rm -rf "$dir" && mkdir -p "$dir" && mv "$tmp/$name" "$tmp/versions.json" "$dir/" && rm -rf "$tmp"
}

# bazel7_trim_gocache keeps the Go build cache (gazelle's go_repository
# tools, built in a repository rule) under 2 GiB by removing the entries
# used longest ago. A run whose output bases are new (the rules_go one,
# $bazel7_cache/output-base, the first time) adds 100-450 MB of keys no
# later run asks for, and Go itself keeps them five days. Go refreshes a used entry's modification time (at most hourly), so
# the oldest modification times are the entries unused longest.
bazel7_trim_gocache() {
  [ -d "$bazel7_cache/gocache" ] || return 0
  find "$bazel7_cache/gocache" -type f -name '*-[ad]' -printf '%T@ %s %p\n' |
    sort -rn | awk -v limit=$((2 << 30)) '{ total += $2 } total > limit { print $3 }' |
    xargs -r rm -f
}

bazel7_start() {
  local dir=$1 m
  mkdir -p "$bazel7_cache" "$dir/home/tmp" || return 1
  bazel7_home=$dir/home
  bazel7_dir=$dir
  # One Bazel 7 run at a time on a machine (two do not fit on 2 cores).
  # The lock's descriptor is closed in what bazel7_run starts, so that a
  # Bazel server that outlives a killed run does not hold it.
  if [ -z "$bazel7_lock_fd" ]; then
    exec {bazel7_lock_fd}>>"$bazel7_chroot/.run.lock" || return 1
    if ! flock -n "$bazel7_lock_fd"; then
      echo "bazel7: waiting for another Bazel 7 run ($bazel7_chroot/.run.lock)"
      flock "$bazel7_lock_fd" || return 1
    fi
  fi
  # One preparation at a time per machine.
  (
    flock 8
    bazel7_module github.com/bazelbuild/rules_go "$bazel7_rules_go" "$bazel7_cache/modules/rules_go" &&
      bazel7_module github.com/bazelbuild/bazel-gazelle "$bazel7_gazelle" "$bazel7_cache/modules/gazelle" vendor &&
      bazel7_sdk &&
      (cd "$(dirname "${BASH_SOURCE[0]}")/../.." && GOMODCACHE=$bazel7_cache/gomod GOFLAGS=-mod=mod go mod download) &&
      bazel7_trim_gocache
  ) 8>"$bazel7_cache/.lock" || {
    echo "bazel7: preparing the offline modules in $bazel7_cache failed"
    return 1
  }
  mkdir -p "$dir/modules"
  cp -R "$(dirname "${BASH_SOURCE[0]}")/offline/bzlmod/." "$dir/modules/"
  cp -R "$(dirname "${BASH_SOURCE[0]}")/offline/remotejdk21_linux" "$dir/"
  # The SDK mirror: a file server on loopback (Bazel's downloader rewrites
  # to http(s) URLs only).
  rm -f "$dir/mirror.port"
  python3 -c '
import functools, http.server, os, sys
class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=sys.argv[1]))
with open(sys.argv[2] + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(sys.argv[2] + ".tmp", sys.argv[2])
server.serve_forever()
' "$bazel7_cache/go-mirror" "$dir/mirror.port" >/dev/null 2>&1 {bazel7_lock_fd}>&- &
  bazel7_mirror_pid=$!
  for _ in $(seq 100); do [ -f "$dir/mirror.port" ] && break; sleep 0.1; done
  [ -f "$dir/mirror.port" ] || return 1
  local mirror=http://127.0.0.1:$(cat "$dir/mirror.port")
  cat >"$dir/downloader.cfg" <<EOF
rewrite ^go\.dev/dl/\?mode=json.*\$ $mirror/versions.json
rewrite ^golang\.google\.cn/dl/\?mode=json.*\$ $mirror/versions.json
rewrite ^dl\.google\.com/go/(.*)\$ $mirror/\$1
EOF
  {
    # The server's temporary files (a bazel-jni.* directory per server)
    # in DIR, not in the chroot's /tmp, where they would pile up.
    echo "startup --host_jvm_args=-Djava.io.tmpdir=$dir/home/tmp"
    echo "common --enable_bzlmod"
    echo "common --lockfile_mode=off"
    echo "common --override_module=rules_go=$bazel7_cache/modules/rules_go"
    echo "common --override_module=gazelle=$bazel7_cache/modules/gazelle"
    for m in "$dir"/modules/*/; do
      m=${m%/}
      echo "common --override_module=${m##*/}=$m"
    done
    # Only in a module that depends on stardoc (--config=stardoc: the
    # project): bazel mod refuses an override of a module not in the graph.
    echo "common:stardoc --override_module=stardoc=/usr/share/bazel/tools/stardoc"
    local java_tools=/usr/lib/x86_64-linux-gnu/bazel/java_tools
    echo "common --override_repository=rules_java~~toolchains~remote_java_tools=$java_tools"
    echo "common --override_repository=rules_java~~toolchains~remote_java_tools_linux=$java_tools"
    echo "common --override_repository=rules_java~~toolchains~remotejdk21_linux=$dir/remotejdk21_linux"
    echo "common --java_runtime_version=local_jdk"
    echo "common --tool_java_runtime_version=local_jdk"
    echo "common --experimental_downloader_config=$dir/downloader.cfg"
    echo "common --repository_cache=$bazel7_cache/repos"
    # go_deps' repositories come from the module cache, with no network.
    echo "common --repo_env=GO_REPOSITORY_USE_HOST_CACHE=1"
    echo "common --repo_env=GOMODCACHE=$bazel7_cache/gomod"
    # ...and gazelle's go_repository tools, built in a repository rule, from
    # a Go build cache that outlives the run.
    echo "common --repo_env=GOCACHE=$bazel7_cache/gocache"
    echo "common --repo_env=GOPROXY=off"
    echo "common --repo_env=GOFLAGS=-mod=mod"
  } >"$dir/bazelrc7"
  # The bind targets in the chroot; what this run makes, bazel7_stop removes.
  local made
  for m in "$dir" "$bazel7_cache"; do
    made=()
    while [ ! -d "$bazel7_chroot$m" ]; do
      made+=("$bazel7_chroot$m")
      m=$(dirname "$m")
    done
    [ ${#made[@]} = 0 ] && continue
    mkdir -p "${made[0]}" || return 1
    bazel7_made+=("${made[@]}")
  done
  # The run's mount namespace, held by a process that sleeps until
  # bazel7_stop.
  rm -f "$dir/namespace.pid"
  "$(dirname "${BASH_SOURCE[0]}")/../../scripts/chroot-run.sh" "$bazel7_chroot" \
    --bind "$dir" --bind "$bazel7_cache" --hold "$dir/namespace.pid" {bazel7_lock_fd}>&- >/dev/null 2>&1 &
  bazel7_holder_pid=$!
  for _ in $(seq 100); do [ -f "$dir/namespace.pid" ] && break; sleep 0.1; done
  [ -f "$dir/namespace.pid" ] || return 1
  bazel7_ns=$(cat "$dir/namespace.pid")
}

bazel7_stop() {
  local i
  if [ -n "${bazel7_mirror_pid:-}" ]; then
    kill "$bazel7_mirror_pid" 2>/dev/null
    wait "$bazel7_mirror_pid" 2>/dev/null
    bazel7_mirror_pid=
  fi
  if [ -n "${bazel7_holder_pid:-}" ]; then
    kill "$bazel7_holder_pid" 2>/dev/null
    wait "$bazel7_holder_pid" 2>/dev/null
    bazel7_holder_pid=
    bazel7_ns=
  fi
  # Empty directories only (rmdir), innermost first: nothing is mounted on
  # them out here.
  for i in "${bazel7_made[@]}"; do
    rmdir "$i" 2>/dev/null
  done
  bazel7_made=()
  if [ -n "$bazel7_lock_fd" ]; then
    exec {bazel7_lock_fd}>&-
    bazel7_lock_fd=
  fi
}

# bazel7_cwd: the current directory if the chroot has it (DIR, the
# cache), else /.
bazel7_cwd() {
  case $PWD/ in
  "$bazel7_dir"/* | "$bazel7_cache"/*) echo "$PWD" ;;
  *) echo / ;;
  esac
}

bazel7_run() {
  local run=("$(dirname "${BASH_SOURCE[0]}")/../../scripts/chroot-run.sh" "$bazel7_chroot"
    --enter "$bazel7_ns" --cwd "$(bazel7_cwd)" -- "$@")
  if [ -n "$bazel7_lock_fd" ]; then
    "${run[@]}" {bazel7_lock_fd}>&-
  else
    "${run[@]}"
  fi
}

# bazel7_exec CMD...: bazel7_run as exec, for `bazel7_exec CMD &`: the
# background subshell becomes CMD, so that $! is CMD's pid.
bazel7_exec() {
  if [ -n "$bazel7_lock_fd" ]; then
    exec {bazel7_lock_fd}>&-
  fi
  exec "$(dirname "${BASH_SOURCE[0]}")/../../scripts/chroot-run.sh" "$bazel7_chroot" \
    --enter "$bazel7_ns" --cwd "$(bazel7_cwd)" -- "$@"
}

bazel() {
  bazel7_run /usr/bin/env -i PATH=/usr/bin:/bin HOME="$bazel7_home" LANG=C.UTF-8 bazel "$@"
}
