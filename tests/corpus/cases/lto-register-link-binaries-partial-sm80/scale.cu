__device__ int scale(int x) { return 3 * x; }
__global__ void kscale(int *p) { p[0] = scale(p[1]); }
