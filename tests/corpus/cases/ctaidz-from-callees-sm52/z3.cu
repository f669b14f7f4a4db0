// A printing callee that reads blockIdx.z, and a recursive one: nvlink adds
// CRS_STACK_SIZE, then EXTERNS, then CTAIDZ_USED to their kernels.
#include <cstdio>
__device__ __noinline__ int ha(int *p) { if (p[0] > 3) printf("big %d\n", p[0]); return p[1] * 2 + blockIdx.z; }
__device__ int fact(int n) { if (n == 7) printf("seven\n"); return n <= 1 ? (int)blockIdx.z : n * fact(n - 1); }
__global__ void k1(int *o) { o[0] = ha(o); }
__global__ void kr(int *o) { o[0] = fact(o[1]); }
__global__ void k2(int *o) { o[0] = 3; }
