// Kernels that link: one calls across files, one needs nothing.
__device__ __noinline__ float smooth(float x);
__constant__ float gain[4] = {1, 2, 3, 4};
__global__ void sharpen(float *p) { p[threadIdx.x] = smooth(p[threadIdx.x]) * gain[threadIdx.x % 4]; }
__global__ void clear(float *p) { p[threadIdx.x] = 0.0f; }
