__device__ int shared_total;                 // defined again (without initializer)

__global__ void k_b(int *out) { shared_total = out[threadIdx.x]; }
