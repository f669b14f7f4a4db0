__device__ __noinline__ float twice(float x) { return x + x; }
__device__ float op_b(float x) { return twice(x) * x; }
__global__ void k_twice(float *p) { p[0] = twice(p[1]); }
