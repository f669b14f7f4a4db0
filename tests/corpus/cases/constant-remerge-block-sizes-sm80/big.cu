__constant__ int big[9];
__global__ void k_big(float *p) { p[threadIdx.x] += big[threadIdx.x % 9]; }
void run_k_big(float *p) { k_big<<<1, 32>>>(p); }
