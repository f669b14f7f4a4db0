// file a: the only kernel (calls malloc itself, __assertfail through live1) and device functions nothing calls
#include <cstdio>
#include <cassert>
__device__ __noinline__ void dead1(void *p) { free(p); }
__device__ __noinline__ int live1(int x) { assert(x); return x + x; }
__device__ __noinline__ void dead2(int v) { printf("dead %d\n", v); }
__global__ void k_main(int *out) { out[threadIdx.x] = live1(out[0]); void *p = malloc(out[3]); out[2] = (long)p; }
