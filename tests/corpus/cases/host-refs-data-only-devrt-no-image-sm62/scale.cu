// Kernels and a device function no host code launches or names.
__device__ float scale(float x) { return 2.0f * x + 1.0f; }
__global__ void rescale(float *p) { p[threadIdx.x] = scale(p[threadIdx.x]); }
