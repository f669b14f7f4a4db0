// defines g again, which nvlink never reports: it stopped at b
__device__ int g(int x) { return x * 3; }
__global__ void kc(int *p) { p[0] = g(p[1]); }
