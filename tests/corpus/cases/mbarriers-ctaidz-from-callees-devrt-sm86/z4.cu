#include <cstdio>
#include "mb.h"
__global__ void child(int *p) { p[0] = 1; }
__device__ __noinline__ int zz(int *p) { return blockIdx.z + p[2]; }
__device__ __noinline__ int hp(int *p) { if (p[0] > 3) printf("big %d\n", p[0]); return p[1] * 2; }
__global__ void kl(int *p) { if (threadIdx.x == 0) child<<<1, 1>>>(p); p[1] = zz(p); }
__global__ void kall(int *p) {
#if __CUDA_ARCH__ >= 800
  __shared__ uint64_t bar[2]; init_one(bar);
#endif
  p[1] = zz(p) + hp(p); }
__global__ void k2(int *p) { p[0] = 3; }
