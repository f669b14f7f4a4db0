#!/usr/bin/env bash
# Installs what the test suite needs, idempotently: the CUDA 11.8 toolkit from
# Debian's non-free component (nvcc, ptxas, nvlink, cuobjdump, nvdisasm,
# fatbinary, libcudadevrt.a), Debian's Bazel 4.2.3 with the repositories it
# needs offline, nginx (the tests' HTTP remote cache), CUDA 12.4 and 12.5 unpacked under /opt (setup-cuda12.sh), and
# Debian sid's Bazel 7.7.1 and buildbox in a chroot (setup-bazel7.sh), and each toolkit's PTX compiler
# library built as a shared library and a program for --ptx-compiler (setup-ptxcompiler.sh). Safe to run again; it does nothing when all is present.
set -euo pipefail

need_root() {
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo "$@"; else
      echo "setup: need root to run: $*" >&2; return 1
    fi
  else
    "$@"
  fi
}

missing=()
for pkg in nvidia-cuda-toolkit bazel-bootstrap bazel-skylib bazel-platforms bazel-rules-java nginx-light; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done

here=$(cd "$(dirname "$0")" && pwd)
# CUDA 12.4 and 12.5 beside 11.8, unpacked under /opt (setup-cuda12.sh),
# and Bazel 7 in a sid chroot (setup-bazel7.sh).
cuda12() {
  local v
  for v in 12.4 12.5; do
    # What setup-cuda12.sh keeps beyond a first unpacking: it adds them.
    if [ -f "/opt/cuda-$v/.complete" ] && [ -e "/opt/cuda-$v/usr/lib/x86_64-linux-gnu/libnvJitLink.so.12" ] &&
      [ -e "/opt/cuda-$v/usr/lib/x86_64-linux-gnu/libnvptxcompiler_static.a" ] &&
      [ -e "/opt/cuda-$v/usr/include/cuda/std/version" ] && [ -e "/opt/cuda-$v/usr/include/cub/version.cuh" ] &&
      [ -e "/opt/cuda-$v/usr/include/thrust/version.h" ]; then
      echo "setup: CUDA $v already in /opt/cuda-$v"
    else
      need_root bash "$here/setup-cuda12.sh" "$v"
    fi
  done
  if [ -f "${CUDALINK_CHROOT:-/var/cache/cudalink-sid}/.complete" ] && [ "$(id -u)" -ne 0 ]; then
    echo "setup: Bazel 7 chroot already in ${CUDALINK_CHROOT:-/var/cache/cudalink-sid} (run scripts/setup-bazel7.sh as root to add what a newer version installs)"
  else
    need_root bash "$here/setup-bazel7.sh"
  fi
}

# Each toolkit's PTX compiler library as a shared library and as the
# program cudalink-ptxc, for cudalink's --ptx-compiler
# (setup-ptxcompiler.sh), in ${CUDALINK_CACHE:-/var/cache/cudalink}/cuda-<version>:
# 11.8's from Debian's nvidia-cuda-dev, 12.4's and 12.5's from /opt
# (setup-cuda12.sh keeps the archive). About 2.5 s of wall time and 1 s of
# CPU per toolkit when built, nothing when already built.
ptxcompiler() {
  local cache=${CUDALINK_CACHE:-/var/cache/cudalink} v
  local run=(bash)
  if ! [ -w "$cache" ] && ! { [ ! -e "$cache" ] && [ -w "$(dirname "$cache")" ]; }; then
    run=(need_root env CUDALINK_CACHE="$cache" bash)
  fi
  "${run[@]}" "$here/setup-ptxcompiler.sh"
  for v in 12.4 12.5; do
    if [ -f "/opt/cuda-$v/.complete" ]; then
      "${run[@]}" "$here/setup-ptxcompiler.sh" "/opt/cuda-$v/usr/lib/x86_64-linux-gnu/libnvptxcompiler_static.a" \
        "$cache/cuda-$v/libnvptxcompiler.so"
    fi
  done
}

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: toolkit and bazel already installed"
  cuda12
  ptxcompiler
  exit 0
fi

. "$(dirname "$0")/mirror.sh"
# nvidia-cuda-toolkit lives in non-free; its driver dependencies
# (nvidia-support) live in contrib.
src=/etc/apt/sources.list.d/cudalink-nonfree.sources
if ! grep -qs '^Components: contrib non-free$' "$src"; then
  mirror=$(debian_mirror)
  if [ -z "$mirror" ]; then
    echo "setup: no Debian mirror found in /etc/apt/sources.list.d/debian.sources or /etc/apt/sources.list" >&2
    exit 1
  fi
  need_root tee "$src" >/dev/null <<SRC
Types: deb
URIs: $mirror
Suites: bookworm bookworm-updates
Components: contrib non-free
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
fi
export DEBIAN_FRONTEND=noninteractive
need_root apt-get update -q
need_root apt-get install -y -q --no-install-recommends "${missing[@]}"
echo "setup: installed ${missing[*]}"
# nginx is the tests' HTTP remote cache (tests/bazel/run.sh), which starts
# its own server on loopback; the system service stays off.
if [[ " ${missing[*]} " == *" nginx-light "* ]]; then
  need_root systemctl disable --now nginx >/dev/null 2>&1 || need_root invoke-rc.d nginx stop >/dev/null 2>&1 || true
fi
cuda12
ptxcompiler
