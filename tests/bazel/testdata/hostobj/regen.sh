#!/bin/sh
# Regenerates a.o and b.o, the nvcc -dc host objects of the end-to-end test
# (tests/bazel/run.sh), with the CUDA 11.8 nvcc: sh regen.sh from anywhere.
#
# nvcc makes a module id from a hash of the source's absolute path, so the
# sources are compiled in a fixed directory: the ids (what
# --register-link-binaries lists) do not depend on the checkout. Three bytes
# of a host symbol name (nvcc's tmpxft_<pid> file name) change on every run;
# the device code and the module ids do not.
set -eu
export LC_ALL=C
unset NVCC_PREPEND_FLAGS NVCC_APPEND_FLAGS NVCC_CCBIN
here=$(cd "$(dirname "$0")" && pwd)
stage=/tmp/cudalink-bazel-hostobj
rm -rf "$stage"
mkdir -p "$stage"
trap 'rm -rf "$stage"' EXIT
cp "$here/a.cu" "$here/b.cu" "$stage/"
cd "$stage"
nvcc -dc -arch=sm_80 a.cu -o a.o
nvcc -dc -arch=sm_80 b.cu -o b.o
cp a.o b.o "$here/"
