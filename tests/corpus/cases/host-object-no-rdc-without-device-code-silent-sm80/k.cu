// an nvcc -dc object with a kernel
__device__ int twice(int x) { return 2 * x; }
__global__ void k(int *p) { p[threadIdx.x] = twice(p[threadIdx.x]); }
