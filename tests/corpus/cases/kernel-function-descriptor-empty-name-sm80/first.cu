// Relocations, but no function descriptor.
__device__ int g_y;
__global__ void k_plainrel(int *d) { g_y = 3; d[0] = 2; }
