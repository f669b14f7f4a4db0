#!/usr/bin/env bash
# Builds a Debian sid chroot with Debian's Bazel 7 (bazel-bootstrap and the
# bazel-* rule packages) and buildbox (buildbox-casd), which need a newer libc
# than this Debian 12 machine has. Idempotent: when
# $CUDALINK_CHROOT/.complete exists it only adds packages a newer version
# of this script lists and removes what earlier test runs left in the
# chroot's /tmp (prune, below). Root only; nothing is written outside the
# chroot directory (default /var/cache/cudalink-sid).
#
# The mirror is the one the system's own Debian sources name, read at run
# time. See ../shared/notes/toolkits.md for what Bazel 7 needs offline.
set -euo pipefail

root=${CUDALINK_CHROOT:-/var/cache/cudalink-sid}
# Bazel 7 and its rule packages; stardoc and Bazel's Java tools (the
# renderer of docs/rules.md is a java_binary); buildbox (buildbox-casd).
packages=(bazel-bootstrap bazel-skylib bazel-platforms bazel-rules-cc bazel-rules-java bazel-rules-python
  bazel-rules-proto bazel-rules-license bazel-features bazel-stardoc bazel-java-tools buildbox
  ca-certificates gcc g++ git)
# prune: the bazel-jni.* directories (the JNI library a Bazel 7 server
# unpacks, about 1 MB each) that runs before tests/bazel/bazel7.sh gave the
# server a temporary directory of its own left in the chroot's /tmp, one
# per server start. Only while no Bazel 7 run holds the chroot's run lock;
# nothing the caches (/var/cache/cudalink-bazel7, output bases) need is
# there.
prune() {
  [ -d "$root/tmp" ] && [ "$(id -u)" -eq 0 ] || return 0
  local lock n kb
  exec {lock}>>"$root/.run.lock" || return 0
  if flock -n "$lock"; then
    n=$(find "$root/tmp" -mindepth 1 -maxdepth 1 -type d -name 'bazel-jni.*' | wc -l)
    if [ "$n" -gt 0 ]; then
      kb=$(du -sk "$root"/tmp/bazel-jni.* | awk '{ s += $1 } END { print s }')
      find "$root/tmp" -mindepth 1 -maxdepth 1 -type d -name 'bazel-jni.*' -exec rm -rf --one-file-system {} +
      echo "setup: removed $n bazel-jni directories of earlier runs ($((kb / 1024)) MB) from $root/tmp"
    fi
    # ... and the empty bind targets of runs that were killed before
    # they could remove them.
    find "$root/tmp" -mindepth 1 -maxdepth 1 -type d \( -name 'cudalink-bazel.*' -o -name 'cudalink-stardoc.*' \) \
      -empty -delete
  fi
  exec {lock}>&-
}

if [ -f "$root/.complete" ]; then
  prune
  # A chroot of an earlier version of this script: add what it lacks.
  missing=()
  for p in "${packages[@]}"; do
    [ -f "$root/var/lib/dpkg/info/$p.list" ] || [ -f "$root/var/lib/dpkg/info/$p:amd64.list" ] || missing+=("$p")
  done
  if [ ${#missing[@]} = 0 ]; then
    echo "setup: sid chroot with Bazel 7 already in $root"
    exit 0
  fi
  [ "$(id -u)" -eq 0 ] || { echo "setup: need root to add ${missing[*]} to $root" >&2; exit 1; }
  echo "setup: adding ${missing[*]} to the sid chroot in $root"
  "$(dirname "$0")/chroot-run.sh" "$root" -- /usr/bin/env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "setup: need root to build the chroot in $root" >&2
  exit 1
fi

. "$(dirname "$0")/mirror.sh"
mirror=$(debian_mirror)
[ -n "$mirror" ] || { echo "setup: no Debian mirror in the system's sources" >&2; exit 1; }

if ! command -v debootstrap >/dev/null 2>&1; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends debootstrap >/dev/null
fi

if [ ! -x "$root/usr/bin/apt-get" ]; then
  # --one-file-system: never into anything mounted below the chroot.
  rm -rf --one-file-system "$root"
  mkdir -p "$(dirname "$root")"
  # In a mount namespace of its own: what debootstrap mounts in the chroot
  # (/proc, and /dev bound from the host's in a container) goes away with
  # it, even when it fails half-way.
  unshare --mount --propagation private -- debootstrap --variant=minbase sid "$root" "$mirror"
fi

# The sid index on a snapshot mirror may have expired.
echo 'Acquire::Check-Valid-Until "false";' >"$root/etc/apt/apt.conf.d/99cudalink"
echo "deb $mirror sid main" >"$root/etc/apt/sources.list"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true

# apt-get runs through chroot-run.sh: a private /dev and /proc in a mount
# namespace of its own, nothing of the host's mounted into the chroot.
in_chroot() { "$(dirname "$0")/chroot-run.sh" "$root" -- /usr/bin/env DEBIAN_FRONTEND=noninteractive "$@"; }
in_chroot apt-get update -q >/dev/null
in_chroot apt-get install -y -q --no-install-recommends "${packages[@]}" >/dev/null

touch "$root/.complete"
echo "setup: sid chroot with $(in_chroot bazel --version 2>/dev/null | head -1) in $root ($(du -sxh "$root" 2>/dev/null | cut -f1))"
