#include <cstdio>
__device__ __noinline__ int fp(int *p) { if (p[0] > 3) printf("big %d\n", p[0]); return p[1] * 2; }
