__device__ __noinline__ float fa(float x) { return x * x + 1.0f; }
__device__ __noinline__ float fb(float x) { return sqrtf(x) - 2.0f; }

__global__ void k1(float *p) { p[threadIdx.x] = fa(p[threadIdx.x]); }
__global__ void k2(float *p) { p[threadIdx.x] = fb(p[threadIdx.x]); }
