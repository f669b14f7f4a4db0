__device__ __noinline__ float twice(float x) { return 2.f * x; }
__global__ void scale(float *p) { p[threadIdx.x] = twice(p[threadIdx.x]); }
