#!/bin/sh
# Regenerates the fatbin test data with the real CUDA 11.8 tools (nvcc,
# fatbinary, objcopy). Run from this directory: sh regen.sh
set -eu
export LC_ALL=C
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# Cubins and PTX for single architectures.
nvcc -arch=sm_80 -cubin -rdc=true k.cu -o k_sm80.cubin
nvcc -arch=sm_86 -cubin -rdc=true k.cu -o k_sm86.cubin
nvcc -arch=sm_70 -cubin -rdc=true k.cu -o k_sm70.cubin
nvcc -arch=sm_80 -ptx k.cu -o "$T/k.ptx"

# Containers written by fatbinary itself.
fatbinary -64 --create=one.fatbin --image3=kind=elf,sm=80,file=k_sm80.cubin
fatbinary -64 --create=two.fatbin --image3=kind=elf,sm=80,file=k_sm80.cubin \
	--image3=kind=elf,sm=86,file=k_sm86.cubin
# Uncompressed PTX with identifier and ptxas options (Write reproduces it).
fatbinary -64 --compress=false --ident=k.cu --cmdline="--compile-only -O3" --create=ident.fatbin \
	--image3=kind=elf,sm=70,file=k_sm70.cubin --image3=kind=ptx,sm=80,file="$T/k.ptx"
# Defaults: PTX compressed (LZ4), cubin not.
fatbinary -64 --create=default.fatbin --image3=kind=elf,sm=80,file=k_sm80.cubin \
	--image3=kind=ptx,sm=80,file="$T/k.ptx"
# --compress-all: cubin compressed too.
fatbinary -64 --compress-all --create=all.fatbin --image3=kind=elf,sm=80,file=k_sm80.cubin \
	--image3=kind=ptx,sm=80,file="$T/k.ptx"
# -g: debug images are compressed by default.
fatbinary -64 -g --create=debug.fatbin --image3=kind=elf,sm=80,file=k_sm80.cubin
# A cubin over 10,000,000 bytes is compressed by default: nvlink's output
# for one initialized __device__ array (10,000,008 bytes with 11.8; with
# CUDA 12.4's tools, from /opt/cuda-12.4, 256 bytes more of the array).
big() { printf '__device__ unsigned char big[%d] = {1,2,3};\n__global__ void k(unsigned char* o){ o[threadIdx.x] = big[threadIdx.x * 4099 %% %d]; }\n' "$1" "$1" > "$T/big.cu"; }
big 9996584
nvcc -arch=sm_80 -dc "$T/big.cu" -o "$T/big.o"
nvlink -arch=sm_80 "$T/big.o" -o "$T/big.cubin"
fatbinary -64 --create=large.fatbin --image3=kind=elf,sm=80,file="$T/big.cubin"
if [ -x /opt/cuda-12.4/usr/bin/nvcc ]; then
	big 9996840
	/opt/cuda-12.4/usr/bin/nvcc -arch=sm_80 -dc "$T/big.cu" -o "$T/big.o"
	/opt/cuda-12.4/usr/bin/nvlink -arch=sm_80 "$T/big.o" -o "$T/big.cubin"
	/opt/cuda-12.4/usr/bin/fatbinary -64 --create=cuda12_large.fatbin --image3=kind=elf,sm=80,file="$T/big.cubin"
fi

# What nvcc -dc embeds in a host object (compressed cubin + PTX): the
# __nv_relfatbin section of k.o.
nvcc -arch=sm_80 -dc k.cu -o "$T/k.o"
nvcc -arch=sm_80 -dc h.cu -o "$T/h.o"
objcopy -O binary --only-section=__nv_relfatbin "$T/k.o" relfatbin.bin

# nvcc -dlink, keeping its intermediate files: the linked cubin and the
# fatbin.c that nvcc's own fatbinary call wrote for it.
mkdir "$T/keep"
nvcc -arch=sm_80 -dlink "$T/k.o" "$T/h.o" -o "$T/dl.o" -keep -keep-dir "$T/keep"
cp "$T"/keep/*dl.sm_80.cubin dlink.sm_80.cubin
cp "$T"/keep/*dl.fatbin.c dlink.fatbin.c

# Embedded C variants: every combination of -link, --device-c, -no-asm.
for v in plain link devc link_devc noasm noasm_link noasm_devc noasm_link_devc; do
	opts=
	case $v in *link*) opts="$opts -link" ;; esac
	case $v in *devc*) opts="$opts --device-c" ;; esac
	case $v in noasm*) opts="$opts -no-asm" ;; esac
	# shellcheck disable=SC2086
	fatbinary -64 --cmdline="--compile-only " $opts --image3=kind=elf,sm=80,file=k_sm80.cubin \
		--embedded-fatbin="embed_$v.fatbin.c"
done

# Every remainder of the quad count modulo 4 (fatbinary zero-pads a cubin
# to 8 bytes; the tests append the same zeros).
for pad in 8 16 24; do
	cp k_sm80.cubin "$T/pad.cubin"
	head -c $pad /dev/zero >>"$T/pad.cubin"
	fatbinary -64 --image3=kind=elf,sm=80,file="$T/pad.cubin" --embedded-fatbin="embed_pad$pad.fatbin.c"
	fatbinary -64 -no-asm --image3=kind=elf,sm=80,file="$T/pad.cubin" --embedded-fatbin="embed_noasm_pad$pad.fatbin.c"
done
