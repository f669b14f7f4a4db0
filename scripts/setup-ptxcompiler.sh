#!/usr/bin/env bash
# Builds a CUDA toolkit's PTX compiler library (the ptxas that nvlink
# has built in), which the toolkit ships only as a static archive, into the
# shared library that cudalink's --ptx-compiler loads in its helper
# cudalink-nvvm (docs/ptx-and-lto.md):
#
#   gcc -shared -o libnvptxcompiler.so -Wl,--version-script=<nvPTXCompiler* only> \
#       -Wl,--whole-archive libnvptxcompiler_static.a -Wl,--no-whole-archive -lpthread -lm -lrt -ldl
#
# The version script keeps the archive's other symbols (__ptx1234, ...) local,
# so that the library's calls among them bind at link time instead of through
# the PLT and GOT: 12% less user time per compile than exporting them all
# (docs/benchmarks.md, perf9p).
#
# Usage: setup-ptxcompiler.sh [ARCHIVE [OUTPUT]]; by default CUDA 11.8's, Debian's
# /usr/lib/x86_64-linux-gnu/libnvptxcompiler_static.a (package nvidia-cuda-dev,
# which nvidia-cuda-toolkit installs) into
# ${CUDALINK_CACHE:-/var/cache/cudalink}/cuda-11.8/libnvptxcompiler.so, where the
# tests and tests/bench look for it, and beside it the program cudalink-ptxc
# (toolchain/cudalink-ptxc.c with the archive linked in), which --ptx-compiler
# also takes. scripts/setup.sh runs it so for 11.8, and for 12.4 and 12.5 with
# /opt/cuda-<version>/usr/lib/x86_64-linux-gnu/libnvptxcompiler_static.a into
# .../cuda-<version>/libnvptxcompiler.so (about 2.5 s of wall time and 1 s of
# CPU each). Idempotent: it builds again only when the
# archive (or this script) is newer than the library. The library is never
# committed. Without the archive it says so and exits 0: PTX is then compiled
# with ptxas.
set -euo pipefail

archive=${1:-/usr/lib/x86_64-linux-gnu/libnvptxcompiler_static.a}
out=${2:-${CUDALINK_CACHE:-/var/cache/cudalink}/cuda-11.8/libnvptxcompiler.so}

if [ ! -f "$archive" ]; then
  echo "setup: no $archive (package nvidia-cuda-dev): cudalink compiles PTX with ptxas"
  exit 0
fi
prog=$(dirname "$out")/cudalink-ptxc
if [ -f "$out" ] && [ -f "$prog" ] && [ ! "$archive" -nt "$out" ] && [ ! "$0" -nt "$out" ] &&
  [ ! "$(dirname "$0")/../toolchain/cudalink-ptxc.c" -nt "$prog" ]; then
  echo "setup: PTX compiler library already in $out, and $prog"
  exit 0
fi
mkdir -p "$(dirname "$out")"
tmp=$(mktemp "$out.XXXXXX")
map=$(mktemp)
trap 'rm -f "$tmp" "$map"' EXIT
printf '{\n  global: nvPTXCompiler*;\n  local: *;\n};\n' >"$map"
gcc -shared -o "$tmp" -Wl,--version-script="$map" -Wl,--whole-archive "$archive" -Wl,--no-whole-archive \
  -lpthread -lm -lrt -ldl
chmod 755 "$tmp"
mv -f "$tmp" "$out"
# cudalink-ptxc beside it: the same compiler linked into a single-threaded C
# program that serves --ptx-compiler with the helper's protocol
# (toolchain/cudalink-ptxc.c): CPU time and memory as nvlink's. Linked
# statically where the C library's archive is installed: no shared libc and
# libm to map in each process (1 to 2 MiB of its peak) and no PLT between
# the compiler and malloc (tests/bench's PTX 10: CPU 448 -> 435 ms, peak
# 23.8 -> 21.8 MiB; docs/benchmarks.md, perf17); else position-dependent.
src="$(dirname "$0")/../toolchain/cudalink-ptxc.c"
if ! gcc -O2 -static -o "$tmp" "$src" "$archive" -lpthread -lm -lrt -ldl 2>/dev/null; then
  gcc -O2 -no-pie -o "$tmp" "$src" "$archive" -lpthread -lm -lrt -ldl
fi
chmod 755 "$tmp"
mv -f "$tmp" "$prog"
rm -f "$map"
trap - EXIT
echo "setup: built $out and $prog from $archive"
