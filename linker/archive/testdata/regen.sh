#!/bin/sh
# Regenerates the archive test data with the real CUDA 11.8 nvcc and GNU ar.
# Run from this directory: sh regen.sh
set -eu
export LC_ALL=C
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# nvcc -rdc=true -lib: a GNU ar archive (symbol table, long names) of host
# objects carrying __nv_relfatbin.
nvcc -arch=sm_80 -rdc=true -lib lib_a.cu lib_b_with_a_long_name.cu -o librdc.a

# ar rcs of raw cubins (nvlink skips such archives, but they must parse):
# GNU ar indexes the cubins' global symbols too (any ELF will do), one
# long name, and a member of odd size to exercise the padding byte.
nvcc -arch=sm_80 -cubin -rdc=true lib_a.cu -o "$T/a.cubin"
nvcc -arch=sm_80 -cubin -rdc=true lib_b_with_a_long_name.cu -o "$T/b_cubin_with_long_name.cubin"
printf 'odd' >"$T/odd.txt"
(cd "$T" && ar rcs cubins.a a.cubin odd.txt b_cubin_with_long_name.cubin)
cp "$T/cubins.a" cubins.a

# Member names and sizes as ar itself reports them, for cross-checking.
for a in librdc.a cubins.a; do
	ar tv "$a" | awk -v a="$a" '{print a, $3, $NF}'
done >members.txt
for a in librdc.a cubins.a; do
	nm -s "$a" 2>/dev/null | sed -n '/^Archive index:/,/^$/p' | grep ' in ' | sed "s/^/$a /"
done >symbols.txt
