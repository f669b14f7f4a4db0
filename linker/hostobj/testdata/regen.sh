#!/bin/sh
# Regenerates the hostobj test data with the real CUDA 11.8 nvcc and GNU ld.
# Run from this directory: sh regen.sh
set -eu
export LC_ALL=C
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# Relocatable device code (__nv_relfatbin, module id, host-reference lists).
nvcc -arch=sm_80 -dc hr.cu -o hr.o
nvcc -arch=sm_80 -dc plain.cu -o plain.o
# Whole-program device code (.nv_fatbin only).
nvcc -arch=sm_80 -c plain.cu -o wholeprog.o
# ld -r merges the sections: two module ids, two fatbinary containers
# back to back, concatenated lists.
ld -r hr.o plain.o -o merged.o
# An ordinary host object with no device code.
printf 'int f(void) { return 1; }\n' >"$T/c.c"
gcc -c -o nodevice.o "$T/c.c"
# The sections' contents as written by objcopy, for cross-checking.
for s in __nv_relfatbin __nv_module_id .nvHRKE .nvHRKI .nvHRDE .nvHRDI .nvHRCE .nvHRCI; do
	objcopy -O binary --only-section="$s" hr.o "$T/sec"
	printf '%s %s\n' "$s" "$(sha256sum <"$T/sec" | cut -d' ' -f1)"
done >hr.o.sections
