__device__ int g_b[16];
__global__ void k_b(int *p) { p[0] = g_b[threadIdx.x]; }
