// the functions a.cu calls
__device__ __noinline__ int h(int x) { return x * 3; }
__device__ __noinline__ int g(int x) { int *p = (int *)malloc(x); p[0] = x; int r = p[1] + h(x); free(p); return r; }
