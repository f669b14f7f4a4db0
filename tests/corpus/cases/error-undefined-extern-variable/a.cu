extern __device__ int missing_variable;         // defined nowhere

__global__ void k_uses_missing(int *out) { out[threadIdx.x] = missing_variable; }
