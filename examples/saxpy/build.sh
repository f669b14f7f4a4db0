#!/usr/bin/env bash
# Rebuilds the prebuilt inputs of the example with nvcc 11.8 (not needed to
# run the example: kernel.cubin and math.cubin are committed).
set -euo pipefail
cd "$(dirname "$0")"
for f in kernel math; do
  nvcc -dc -cubin -arch=sm_80 "$f.cu" -o "$f.cubin"
done
