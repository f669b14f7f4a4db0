#include "mb.h"
__device__ __noinline__ void via_f(uint64_t *b) { init_one(b); }
__device__ __noinline__ void via_g(uint64_t *b) { init_one(b + 1); }
__device__ __noinline__ int zed(uint64_t *b) { init_two(b); return blockIdx.z; }
__global__ void k_diamond(int *p) { __shared__ uint64_t bar[4]; via_f(bar); via_g(bar); p[0] = (int)bar[0]; }
__global__ void k_z(int *p) { __shared__ uint64_t bar[4]; p[0] = zed(bar); }
__global__ void k_rec(int *p, int n) { __shared__ uint64_t bar[4]; if (n > 0) { init_one(bar); } p[0] = n; }
