__device__ float scale = 2.5f;
__device__ __noinline__ float scaled(float x) { return x * scale; }
__global__ void apply(float *p) { p[threadIdx.x] = scaled(p[threadIdx.x]); }
