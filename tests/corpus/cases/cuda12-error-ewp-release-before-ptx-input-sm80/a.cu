extern __device__ int helper(int x);

__global__ void k_a(int *out) { out[threadIdx.x] = helper(threadIdx.x); }
