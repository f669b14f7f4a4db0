// A kernel nothing launches: the host objects' reference lists prune it.
__device__ int helper(int x) { return x * 7; }
__global__ void unused_kernel(int *o) { o[0] = helper(o[1]); }
