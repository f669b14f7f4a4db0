// k1 calls a function of this file that prints: ptxas gives k1 neither an
// EXTERNS nor a CRS_STACK_SIZE record, nvlink adds both.
#include <cstdio>
__device__ int hb(int x);
__device__ __noinline__ int ha(int x) { if (x > 3) printf("big %d\n", x); return x * 2; }
__global__ void k1(int *o) { o[0] = ha(o[1]); }
__global__ void k2(int *o) { o[0] = hb(o[1]); }
