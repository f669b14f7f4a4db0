__global__ void k_c(int *out) { out[threadIdx.x] = 9; }
