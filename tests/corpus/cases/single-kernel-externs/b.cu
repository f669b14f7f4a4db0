// file b, linked first: device functions nothing calls, whose calls to printf and malloc come first
#include <cstdio>
__device__ __noinline__ void dead3(int v) { printf("dead %d\n", v); }
__device__ __noinline__ void *dead4(int v) { return malloc(v); }
