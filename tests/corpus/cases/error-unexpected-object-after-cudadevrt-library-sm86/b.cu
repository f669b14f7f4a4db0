__device__ int g_b[8];
__global__ void plain(int *p) { p[0] = g_b[threadIdx.x & 7]; }
