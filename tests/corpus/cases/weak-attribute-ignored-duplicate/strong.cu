__device__ __noinline__ int hook(int x) { return x * 100; }

__global__ void k_strong(int *out) { out[threadIdx.x] = hook(threadIdx.x); }
