__device__ int g(int x) { return x - 5; }
__global__ void kb(int *p) { p[0] = g(p[1]); }
