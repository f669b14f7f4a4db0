#!/usr/bin/env bash
# Builds a Debian sid chroot with Debian's Bazel 7 (bazel-bootstrap and the
# bazel-* rule packages) and buildbox (buildbox-casd), which need a newer libc
# than this Debian 12 machine has. Idempotent: does nothing when
# $CUDALINK_CHROOT/.complete exists. Root only; nothing is written outside
# the chroot directory (default /var/cache/cudalink-sid).
#
# The mirror is the one the system's own Debian sources name, read at run
# time. See ../shared/notes/toolkits.md for what Bazel 7 needs offline.
set -euo pipefail

root=${CUDALINK_CHROOT:-/var/cache/cudalink-sid}
if [ -f "$root/.complete" ]; then
  echo "setup: sid chroot with Bazel 7 already in $root"
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
  rm -rf "$root"
  mkdir -p "$(dirname "$root")"
  debootstrap --variant=minbase sid "$root" "$mirror"
fi

# The sid index on a snapshot mirror may have expired.
echo 'Acquire::Check-Valid-Until "false";' >"$root/etc/apt/apt.conf.d/99cudalink"
echo "deb $mirror sid main" >"$root/etc/apt/sources.list"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true

mounted=()
cleanup() {
  local m
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[$i]}" 2>/dev/null || true; done
}
trap cleanup EXIT
for m in proc sys dev dev/pts; do
  mountpoint -q "$root/$m" || { mount --bind "/$m" "$root/$m" && mounted+=("$root/$m"); }
done

chroot "$root" /usr/bin/env DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null
chroot "$root" /usr/bin/env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
  bazel-bootstrap bazel-skylib bazel-platforms bazel-rules-cc bazel-rules-java bazel-rules-python \
  bazel-rules-proto bazel-rules-license bazel-features buildbox ca-certificates gcc g++ git \
  >/dev/null

touch "$root/.complete"
echo "setup: sid chroot with $(chroot "$root" bazel --version 2>/dev/null | head -1) in $root ($(du -sxh "$root" 2>/dev/null | cut -f1))"
