__global__ void k_d(int *out) { out[threadIdx.x] = 7; }
