__device__ __noinline__ int twice(int x) { return x + x; }   // second strong definition

__global__ void k_b(int *out) { out[threadIdx.x] = twice(threadIdx.x + 1); }
