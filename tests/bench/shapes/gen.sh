#!/bin/bash
# Programs of shapes the benchmark harness (tests/bench) does not have, as nvcc -dc host objects (the
# harness links cubins only), built with the nvcc in PATH (CUDA 11.8) into DIR/<shape>/; DIR/<shape>.args
# holds the nvlink arguments nvcc -dlink passes (nvcc -dlink -dryrun), without -o. docs/benchmarks.md
# ("Shapes the harness does not have") has the figures; compare.sh measures them.
# Usage: gen.sh DIR [shape...]   shapes: weak archive vars lineinfo devrt gencode big (default: all)
set -e
top=$(cd ${1:-.} && pwd); shift
shapes=${@:-weak archive vars lineinfo devrt gencode big}
nv="-m64 --arch=sm_80 --register-link-binaries=$top/reg.c -L/usr/lib/x86_64-linux-gnu/stubs -L/usr/lib/x86_64-linux-gnu -cpu-arch=X86_64"
build() { # build FLAGS: compile every *.cu of the current directory, two at a time
  ls *.cu | xargs -P 2 -I{} sh -c "nvcc -dc $1 -o \$(basename {} .cu).o {}"
}
for shape in $shapes; do
  d=$top/$shape; rm -rf $d; mkdir -p $d; cd $d
  case $shape in
  weak) # 40 host objects instantiating the same 150 __noinline__ templates, each with a __shared__ array
    n=40; nt=150
    { echo '#pragma once'
      for t in $(seq 0 $((nt-1))); do
        echo "template <typename T> __device__ __noinline__ T tf$t(T *p, int i) {"
        echo "  __shared__ T s$t[64];"
        echo "  s$t[threadIdx.x & 63] = p[i] + (T)$t;"
        echo "  __syncthreads();"
        echo "  return s$t[(threadIdx.x + $t) & 63] * (T)2;"
        echo "}"
      done
    } > tmpl.h
    for f in $(seq 0 $((n-1))); do
      { echo '#include "tmpl.h"'
        echo "__global__ void k$f(float *p, int n) {"
        echo "  float a = 0;"
        for t in $(seq 0 $((nt-1))); do echo "  a += tf$t<float>(p, (n + $t) % 1024);"; done
        echo "  p[threadIdx.x] = a;"
        echo "}"
      } > f$f.cu
    done
    build "-arch=sm_80"
    echo "$nv $(ls f*.o | sort | tr '\n' ' ') -lcudadevrt --host-ccbin gcc" > ../$shape.args ;;
  archive) # libfoo.a: 100 host objects of 4 functions each; main.o calls into 10 of them
    for i in $(seq 0 99); do
      { for j in 0 1 2 3; do
          echo "__device__ __noinline__ float lib${i}_$j(float *p, int n) { float a = 0; for (int k = 0; k < n; k++) a += p[k] * $j.5f + $i; return a; }"
        done
        echo "__global__ void libk$i(float *p, int n) { p[threadIdx.x] = lib${i}_0(p, n) + lib${i}_1(p, n) + lib${i}_2(p, n) + lib${i}_3(p, n); }"
      } > m$i.cu
    done
    { for i in $(seq 0 9); do echo "__device__ float lib$((i*10))_1(float *p, int n);"; done
      echo "__global__ void maink(float *p, int n) { float a = 0;"
      for i in $(seq 0 9); do echo "  a += lib$((i*10))_1(p, n + $i);"; done
      echo "  p[0] = a; }"
    } > top.cu
    build "-arch=sm_80"
    ar rcs libfoo.a m*.o; rm m*.o m*.cu
    echo "$nv top.o -L. -lfoo -lcudadevrt --host-ccbin gcc" > ../$shape.args ;;
  vars) # 20 files of 200 __device__ and 200 __constant__ arrays; each file's kernels read the next file's
    n=20
    for i in $(seq 0 $((n-1))); do
      nx=$(( (i+1) % n ))
      { for v in $(seq 0 199); do
          echo "__device__ float dv${i}_$v[$((v % 7 + 1))*16];"
          echo "__constant__ float cv${i}_$v[$((v % 2 + 1))];"
          echo "extern __device__ float dv${nx}_$v[];"
          echo "extern __constant__ float cv${nx}_$v[];"
        done
        for k in $(seq 0 19); do
          echo "__global__ void k${i}_$k(float *p) { float a = 0;"
          for v in $(seq $((k*10)) $((k*10+9))); do echo "  a += dv${i}_$v[threadIdx.x & 15] + cv${i}_$v[threadIdx.x & 1] + dv${nx}_$v[threadIdx.x & 15] + cv${nx}_$v[threadIdx.x & 1];"; done
          echo "  dv${i}_$((k*10))[threadIdx.x & 15] = a; p[threadIdx.x] = a; }"
        done
      } > v$i.cu
    done
    build "-arch=sm_80"
    echo "$nv $(ls v*.o | sort | tr '\n' ' ') -lcudadevrt --host-ccbin gcc" > ../$shape.args ;;
  lineinfo) # 40 files compiled with -lineinfo: 20 kernels each, 10 __noinline__ functions, calls into the next file
    n=40
    for i in $(seq 0 $((n-1))); do
      nx=$(( (i+1) % n ))
      { for f in $(seq 0 9); do
          echo "__device__ __noinline__ float g${i}_$f(float *p, int n) {"
          echo "  float a = 0;"
          echo "  for (int k = 0; k < n; k++) a += p[k] * $f.25f;"
          echo "  return a;"
          echo "}"
          echo "__device__ float g${nx}_$f(float *p, int n);"
        done
        for k in $(seq 0 19); do
          echo "__global__ void lk${i}_$k(float *p, int n) {"
          echo "  p[threadIdx.x] = g${i}_$((k % 10))(p, n) + g${nx}_$(((k + 3) % 10))(p, n + $k);"
          echo "}"
        done
      } > l$i.cu
    done
    build "-arch=sm_80 -lineinfo"
    echo "$nv $(ls l*.o | sort | tr '\n' ' ') -lcudadevrt --host-ccbin gcc" > ../$shape.args ;;
  devrt) # 20 files whose kernels launch kernels from device code (dynamic parallelism, -lcudadevrt)
    n=20
    for i in $(seq 0 $((n-1))); do
      nx=$(( (i+1) % n ))
      { echo "__global__ void child${nx}_0(float *p, int n);"
        for k in $(seq 0 9); do
          echo "__global__ void child${i}_$k(float *p, int n) { if (threadIdx.x < n) p[threadIdx.x] += $k; }"
          echo "__global__ void parent${i}_$k(float *p, int n) {"
          echo "  if (threadIdx.x == 0) { child${i}_$k<<<1, 32>>>(p, n); child${nx}_0<<<2, 64>>>(p, n + $k); cudaDeviceSynchronize(); }"
          echo "}"
        done
      } > d$i.cu
    done
    build "-arch=sm_80 -D__CDPRT_SUPPRESS_SYNC_DEPRECATION_WARNING"
    echo "$nv $(ls d*.o | sort | tr '\n' ' ') -lcudadevrt --host-ccbin gcc" > ../$shape.args ;;
  gencode) # 40 host objects with sm_70 and sm_80 images (and compute_80 PTX); the link takes sm_80
    n=40
    for i in $(seq 0 $((n-1))); do
      nx=$(( (i+1) % n ))
      { for f in $(seq 0 9); do
          echo "__device__ __noinline__ float h${i}_$f(float *p, int n) { float a = 0; for (int k = 0; k < n; k++) a += p[k] * $f.5f; return a; }"
          echo "__device__ float h${nx}_$f(float *p, int n);"
        done
        for k in $(seq 0 9); do
          echo "__global__ void gk${i}_$k(float *p, int n) { p[threadIdx.x] = h${i}_$k(p, n) + h${nx}_$(((k + 1) % 10))(p, n); }"
        done
      } > g$i.cu
    done
    build "-gencode arch=compute_70,code=sm_70 -gencode arch=compute_80,code=[sm_80,compute_80]"
    echo "$nv $(ls g*.o | sort | tr '\n' ' ') -lcudadevrt --host-ccbin gcc" > ../$shape.args ;;
  big) # 10 host objects of about 1 MB of sm_80 code each: 120 kernels with unrolled loops
    n=10
    for i in $(seq 0 $((n-1))); do
      { echo "__device__ float bshared$i[1024];"
        for k in $(seq 0 119); do
          echo "__global__ void bk${i}_$k(float *p, const float *q, int n) {"
          echo "  float a = 0, b = $k.0f;"
          echo "  #pragma unroll"
          echo "  for (int j = 0; j < 96; j++) { a = fmaf(q[j * n + threadIdx.x], b, a); b = b * 1.0001f + a; }"
          echo "  p[threadIdx.x] = a + b + bshared$i[threadIdx.x];"
          echo "}"
        done
      } > b$i.cu
    done
    build "-arch=sm_80"
    echo "$nv $(ls b*.o | sort | tr '\n' ' ') -lcudadevrt --host-ccbin gcc" > ../$shape.args ;;
  esac
  echo "$shape: $(ls $d | wc -l) files, $(du -sk $d | cut -f1) KiB"
done
