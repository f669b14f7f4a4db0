__device__ __noinline__ int twice(int x) { return 2 * x; }

__global__ void k_a(int *out) { out[threadIdx.x] = twice(threadIdx.x); }
