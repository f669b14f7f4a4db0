__device__ int helper_twice(int x);
__global__ void k(int *p) { p[0] = helper_twice(p[1]); }
