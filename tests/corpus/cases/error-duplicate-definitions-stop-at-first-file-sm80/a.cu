// the first definitions
__device__ int shared_count = 1;
__device__ int f(int x) { return x + shared_count; }
__device__ int g(int x) { return x * 2; }
__global__ void k(int *p) { p[0] = f(p[1]) + g(p[2]); }
