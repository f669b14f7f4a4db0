__device__ int fz(int *p);
__device__ int fp(int *p);
__global__ void kk(int *p) { p[1] = fz(p) + fp(p); }
__global__ void k2(int *p) { p[0] = 3; }
