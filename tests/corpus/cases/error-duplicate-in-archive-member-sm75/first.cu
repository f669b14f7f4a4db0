// the first definition of helper
__device__ int helper(int x) { return x + 1; }
__global__ void k1(int *p) { p[0] = helper(p[1]); }
