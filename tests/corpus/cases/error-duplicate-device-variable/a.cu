__device__ int shared_total = 1;

__global__ void k_a(int *out) { out[threadIdx.x] = shared_total; }
