// a second definition of helper, in an nvcc -lib library
__device__ int helper(int x) { return x + 2; }
__global__ void k2(int *p) { p[0] = helper(p[2]); }
