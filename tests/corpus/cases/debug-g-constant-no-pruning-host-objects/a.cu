// __constant__ data read by a kernel the host launches and by one it does not.
__constant__ float cc[4] = {1, 2, 3, 4};
__global__ void used(float *p) { p[threadIdx.x] = cc[threadIdx.x & 3]; }
__global__ void unused(float *p) { p[threadIdx.x] = 2 * cc[threadIdx.x & 3]; }
