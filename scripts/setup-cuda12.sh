#!/usr/bin/env bash
# Unpacks Debian's CUDA 12.x toolkit into /opt/cuda-<version>, next to the
# system's CUDA 11.8, without installing it (its packages would pull a newer
# libc). Idempotent: does nothing when /opt/cuda-<version>/.complete exists
# with everything kept below (a prefix unpacked before libnvJitLink and the
# PTX compiler archive were kept gets them added).
#
#   bash scripts/setup-cuda12.sh 12.4     # trixie/sid's 12.4.131
#   bash scripts/setup-cuda12.sh 12.5     # experimental's 12.5.40
#
# The packages come through a private apt configuration (its own sources,
# lists and cache under /var/cache/cudalink-apt) whose mirror is the one the
# system's own Debian sources name, read at run time. What is kept from
# nvidia-cuda-dev: headers, libcudadevrt.a, libcudart_static.a, libculibos.a,
# libnvptxcompiler_static.a (the PTX compiler, 60 MB, which
# setup-ptxcompiler.sh builds cudalink-ptxc from), the stubs, libnvvm and
# libdevice; and libnvJitLink (libnvjitlink12), which reads the IR of 12.x
# -dlto objects. See ../shared/notes/toolkits.md.
#
# Also the C++ libraries CUDA 12 programs include, which NVIDIA's toolkit
# bundles and Debian packages apart: libcu++ (<cuda/std/...>, <cuda/barrier>,
# <cuda/pipeline>), CUB and Thrust (libcu++-dev, libcub-dev, libthrust-dev),
# each at the oldest version in the mirror that nvidia-cuda-dev's Depends
# allows (2.3.2 for 12.4, the CCCL release 12.4 shipped; 2.5.0 for 12.5,
# whose 2.4.0 the mirror does not have). Their headers go to the prefix's
# usr/include, which the prefix's nvcc.profile puts before the system's
# /usr/include (11.8's Thrust 1.17 and libcu++ 1.8), so
# /opt/cuda-12.X/usr/bin/nvcc finds them with no -I.
#
# CUDALINK_CUDA12_ROOT (default /opt) and CUDALINK_APT_DIR (default
# /var/cache/cudalink-apt) put the toolkit and the apt cache elsewhere, e.g.
# to time a fresh setup without touching the ones in use.
set -euo pipefail

version=${1:?usage: setup-cuda12.sh 12.4|12.5}
cuda12_root=${CUDALINK_CUDA12_ROOT:-/opt}
prefix=$cuda12_root/cuda-$version
# libnvJitLink reads 12.x -dlto IR, and libnvptxcompiler_static.a is the
# PTX compiler that setup-ptxcompiler.sh builds cudalink-ptxc from
# (docs/ptx-and-lto.md); a prefix unpacked before they were kept gets them
# added.
jitlink=$prefix/usr/lib/x86_64-linux-gnu/libnvJitLink.so.12
ptxcompiler=$prefix/usr/lib/x86_64-linux-gnu/libnvptxcompiler_static.a
# one header of each C++ library package (libcu++, CUB, Thrust)
headers=("$prefix/usr/include/cuda/std/version" "$prefix/usr/include/cub/version.cuh" "$prefix/usr/include/thrust/version.h")
have_headers() {
  local h
  for h in "${headers[@]}"; do [ -e "$h" ] || return 1; done
}
if [ -f "$prefix/.complete" ] && [ -e "$jitlink" ] && [ -e "$ptxcompiler" ] && have_headers; then
  echo "setup: CUDA $version already in $prefix"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "setup: need root to write $prefix" >&2
  exit 1
fi

. "$(dirname "$0")/mirror.sh"
mirror=$(debian_mirror)
[ -n "$mirror" ] || { echo "setup: no Debian mirror in the system's sources" >&2; exit 1; }

apt_dir=${CUDALINK_APT_DIR:-/var/cache/cudalink-apt}
mkdir -p "$apt_dir"/{sources.list.d,lists/partial,cache/archives/partial,debs}
cat >"$apt_dir/sources.list.d/cuda12.sources" <<SRC
Types: deb
URIs: $mirror
Suites: trixie sid experimental
Components: main contrib non-free
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
apt_opts=(
  -o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$apt_dir/sources.list.d"
  -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
  -o Dir::State::status=/var/lib/dpkg/status -o Acquire::Check-Valid-Until=false
  -o APT::Sandbox::User=root
)
# The lists are refreshed once a day at most.
if [ -z "$(find "$apt_dir/lists" -maxdepth 1 -name '*Packages*' -mtime -1 2>/dev/null | head -1)" ]; then
  apt-get "${apt_opts[@]}" update -q >/dev/null
fi

# newest VERSION-prefixed version of a package in the private lists
pick() {
  apt-cache "${apt_opts[@]}" madison "$1" | awk -v v="$2" '$3 ~ "^"v { print $3; exit }'
}
tk=$(pick nvidia-cuda-toolkit "$version.")
[ -n "$tk" ] || { echo "setup: no nvidia-cuda-toolkit $version in the mirror" >&2; exit 1; }
# nvidia-cuda-dev at the exact version the toolkit depends on
dev=$(apt-cache "${apt_opts[@]}" show "nvidia-cuda-toolkit=$tk" |
  sed -n 's/^Depends:.*nvidia-cuda-dev (= \([^)]*\)).*/\1/p' | head -1)
nvvm=$(pick libnvvm4 "$version." || true)
nvjitlink=$(pick libnvjitlink12 "$version." || true)
# The oldest version of each header package in the private lists that
# nvidia-cuda-dev's "PKG (>= MIN)" allows (two apt-cache runs, about 1 s each).
hdr_pkgs=()
dev_depends=$(apt-cache "${apt_opts[@]}" show "nvidia-cuda-dev=$dev" | sed -n 's/^Depends: //p' | head -1)
hdr_versions=$(apt-cache "${apt_opts[@]}" madison libcu++-dev libcub-dev libthrust-dev)
for p in libcu++-dev libcub-dev libthrust-dev; do
  min=$(tr ',' '\n' <<<"$dev_depends" | awk -v p="$p" '$1 == p && $2 == "(>=" { sub(/\)$/, "", $3); print $3; exit }')
  v=
  if [ -n "$min" ]; then
    v=$(awk -v p="$p" '$1 == p { print $3 }' <<<"$hdr_versions" | sort -u | while read -r c; do
      if dpkg --compare-versions "$c" ge "$min"; then echo "$c"; fi
    done | sort -V | head -1)
  fi
  [ -n "$v" ] || { echo "setup: no $p for nvidia-cuda-dev $dev in the mirror" >&2; exit 1; }
  hdr_pkgs+=("$p=$v")
done
echo "setup: CUDA $version: nvidia-cuda-toolkit $tk, nvidia-cuda-dev $dev${nvvm:+, libnvvm4 $nvvm}${nvjitlink:+, libnvjitlink12 $nvjitlink}, ${hdr_pkgs[*]}"
# Unpacks the header packages' usr/include into DIR/usr/include.
unpack_headers() {
  local p deb
  (cd "$debs" && apt-get "${apt_opts[@]}" download -q "${hdr_pkgs[@]}" >/dev/null)
  for p in "${hdr_pkgs[@]}"; do
    deb=$(ls "$debs/${p%%=*}_${p#*=}"_*.deb 2>/dev/null | head -1)
    [ -n "$deb" ] || { echo "setup: $p not downloaded" >&2; exit 1; }
    dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$1" ./usr/include
  done
}

debs=$apt_dir/debs/$version
mkdir -p "$debs"
if [ -f "$prefix/.complete" ]; then
  # Unpacked before libnvJitLink or the PTX compiler archive was kept: add
  # what is missing alone.
  tmp=$(mktemp -d "$cuda12_root/.cuda-$version.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  if ! have_headers; then
    unpack_headers "$tmp"
    cp -a "$tmp/usr/include/." "$prefix/usr/include/"
    rm -rf "$tmp/usr/include"
    echo "setup: CUDA $version: ${hdr_pkgs[*]} added to $prefix/usr/include"
  fi
  if [ ! -e "$jitlink" ]; then
    [ -n "$nvjitlink" ] || { echo "setup: no libnvjitlink12 $version in the mirror" >&2; exit 1; }
    (cd "$debs" && apt-get "${apt_opts[@]}" download -q "libnvjitlink12=$nvjitlink" >/dev/null)
    dpkg-deb -x "$debs"/libnvjitlink12_*.deb "$tmp"
    cp -a "$tmp"/usr/lib/x86_64-linux-gnu/libnvJitLink.so.* "$prefix/usr/lib/x86_64-linux-gnu/"
    echo "setup: CUDA $version: libnvJitLink added to $prefix"
  fi
  if [ ! -e "$ptxcompiler" ]; then
    # nvidia-cuda-dev is 0.9 GB: the copy the first setup downloaded is
    # used when it is still there. Taking the one file out of it reads
    # the whole package (about 45 s).
    deb=
    for f in "$debs"/nvidia-cuda-dev_*.deb; do
      [ -f "$f" ] && [ "$(dpkg-deb -f "$f" Version)" = "$dev" ] && deb=$f
    done
    if [ -z "$deb" ]; then
      (cd "$debs" && apt-get "${apt_opts[@]}" download -q "nvidia-cuda-dev=$dev" >/dev/null)
      deb=$(ls "$debs"/nvidia-cuda-dev_*.deb | head -1)
    fi
    dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" ./usr/lib/x86_64-linux-gnu/libnvptxcompiler_static.a
    mv "$tmp"/usr/lib/x86_64-linux-gnu/libnvptxcompiler_static.a "$ptxcompiler"
    echo "setup: CUDA $version: libnvptxcompiler_static.a added to $prefix"
  fi
  exit 0
fi
pkgs=("nvidia-cuda-toolkit=$tk" "nvidia-cuda-dev=$dev")
[ -n "$nvvm" ] && pkgs+=("libnvvm4=$nvvm")
[ -n "$nvjitlink" ] && pkgs+=("libnvjitlink12=$nvjitlink")
(cd "$debs" && apt-get "${apt_opts[@]}" download -q "${pkgs[@]}" >/dev/null)

tmp=$(mktemp -d "$cuda12_root/.cuda-$version.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for deb in "$debs"/*.deb; do
  case $(basename "$deb") in libcu++-dev_* | libcub-dev_* | libthrust-dev_*) continue ;; esac
  dpkg-deb -x "$deb" "$tmp"
done
unpack_headers "$tmp"
# Keep of nvidia-cuda-dev what links and compiles device code; the rest is
# the bulk of its 0.9 GB (static math libraries).
lib=$tmp/usr/lib/x86_64-linux-gnu
find "$lib" -maxdepth 1 -type f -name '*.a' \
  ! -name libcudadevrt.a ! -name libcudart_static.a ! -name libculibos.a ! -name libnvptxcompiler_static.a -delete
# libnv* names the PTX compiler's archive too: keep it (setup.sh builds
# cudalink-ptxc from it).
find "$lib" -maxdepth 1 \( -name 'libcu*.so*' -o -name 'libnpp*' -o -name 'libnv*' \) \
  ! -name 'libnvvm*' ! -name 'libnvJitLink.so*' ! -name libnvptxcompiler_static.a -delete
# nvcc.profile beside nvcc is a link to the system's 11.8 profile: write
# one for this prefix.
tkdir=$tmp/usr/lib/nvidia-cuda-toolkit
rm -f "$tkdir/bin/nvcc.profile"
cat >"$tkdir/bin/nvcc.profile" <<PROFILE
TOP = $prefix/usr/lib/nvidia-cuda-toolkit
NVVMIR_LIBRARY_DIR = $prefix/usr/lib/nvidia-cuda-toolkit/libdevice
PATH += $prefix/usr/lib/nvidia-cuda-toolkit/bin:$prefix/usr/bin:
INCLUDES += "-I$prefix/usr/include" \$(_SPACE_)
LIBRARIES =+ \$(_SPACE_) "-L$prefix/usr/lib/x86_64-linux-gnu" "-L$prefix/usr/lib/x86_64-linux-gnu/stubs"
CUDAFE_FLAGS +=
PTXAS_FLAGS +=
PROFILE
# usr/bin/nvcc runs the system's nvcc: run this prefix's.
rm -f "$tmp/usr/bin/nvcc"
printf '#!/bin/sh\nexec %s/usr/lib/nvidia-cuda-toolkit/bin/nvcc "$@"\n' "$prefix" >"$tmp/usr/bin/nvcc"
chmod 755 "$tmp/usr/bin/nvcc"

rm -rf "$prefix"
mv "$tmp" "$prefix"
trap - EXIT
chmod 755 "$prefix"
touch "$prefix/.complete"
echo "setup: CUDA $version unpacked in $prefix ($(du -sh "$prefix" | cut -f1))"
