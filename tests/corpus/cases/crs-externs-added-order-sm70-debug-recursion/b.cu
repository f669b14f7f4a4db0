// A printing function another file calls, and a recursive one whose kernel
// gets an unknown (0xffffffff) CRS stack.
#include <cstdio>
__device__ __noinline__ int hb(int x) { if (x & 1) printf("odd %d\n", x); return x + 7; }
__device__ int fact(int n) { if (n == 7) printf("seven\n"); return n <= 1 ? 1 : n * fact(n - 1); }
__global__ void kr(int *o) { o[0] = fact(o[1]); }
