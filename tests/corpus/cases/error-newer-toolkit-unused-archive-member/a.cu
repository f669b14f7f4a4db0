__device__ int g(int x);
__global__ void k(int *p){ p[0]=g(p[1]); }
