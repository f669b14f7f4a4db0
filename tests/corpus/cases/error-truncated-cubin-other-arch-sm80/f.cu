__device__ int f(int x) { return x * 3 + 1; }
__global__ void kf(int *p) { p[0] = 2; }
