__constant__ unsigned char raw[16];
__global__ void k_bytes(float *p) { p[threadIdx.x] += raw[threadIdx.x & 15]; }
void run_k_bytes(float *p) { k_bytes<<<1, 32>>>(p); }
