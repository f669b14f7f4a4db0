__device__ int twice(int x) { return 2 * x; }

__global__ void k_k(int *out) { out[threadIdx.x] = twice(threadIdx.x); }
