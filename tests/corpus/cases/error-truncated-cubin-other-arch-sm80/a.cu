extern __device__ int f(int);
__global__ void ka(int *p) { p[0] = f(p[1]); }
