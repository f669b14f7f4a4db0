// a kernel and the device function it calls; no device runtime use
__device__ float twice(float x) { return 2.0f * x; }
__global__ void kern(float *f) { f[threadIdx.x] = twice(f[threadIdx.x]); }
