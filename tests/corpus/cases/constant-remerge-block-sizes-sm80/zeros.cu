__constant__ float zeros[4];
__global__ void k_zeros(float *p) { p[threadIdx.x] += zeros[threadIdx.x & 3]; }
void run_k_zeros(float *p) { k_zeros<<<1, 32>>>(p); }
