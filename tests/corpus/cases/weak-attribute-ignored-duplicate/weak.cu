__device__ __attribute__((weak)) __noinline__ int hook(int x) { return x; }

__global__ void k_weak(int *out) { out[threadIdx.x] = hook(threadIdx.x); }
