__global__ void k_target(int *d) { d[0] = 5; }
__device__ void *g_again;
__global__ void k_again(int *d) { g_again = (void *)k_target; d[1] = 6; }
