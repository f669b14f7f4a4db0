// kernels that need nothing from the other file
__global__ void first(int *p) { p[threadIdx.x] = 2 * p[threadIdx.x]; }
__global__ void second(float *f) { f[0] = 1.5f; }
