// Takes the address of a kernel defined in the next file (its function
// descriptor), after a function whose relocations name no kernel.
__global__ void k_target(int *d);
__device__ int g_count;
__device__ void *g_kernel;
__global__ void k_count(int *d) { g_count = 3; d[0] = 2; }
__global__ void k_store(int *d) { g_kernel = (void *)k_target; d[0] = 1; }
