__device__ __noinline__ float combine(float a, float b) { return a * b + a; }
__global__ void k_plain(float *p) { p[threadIdx.x] = combine(p[threadIdx.x], 3.0f); }
