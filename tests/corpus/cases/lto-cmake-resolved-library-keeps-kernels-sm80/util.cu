// a static library resolved on its own (CUDA_RESOLVE_DEVICE_SYMBOLS): util.o and its nvcc -dlink output
__device__ float scale(float x) { return 2.f * x + 1.f; }
__global__ void scaled(float *p) { p[threadIdx.x] = scale(p[threadIdx.x]); }
void launch_scaled(float *p) { scaled<<<1, 32>>>(p); }
