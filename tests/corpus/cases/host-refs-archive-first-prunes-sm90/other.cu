// more kernels, no host code
__device__ int twice(int x);
__global__ void other_kernel(int *p) { p[0] = twice(p[1]); }
