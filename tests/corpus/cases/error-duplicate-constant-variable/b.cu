__constant__ float gains[4] = {5, 6, 7, 8};

__global__ void k_b(float *out) { out[threadIdx.x] = gains[0]; }
