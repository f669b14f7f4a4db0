// A kernel calling the other file's helper, next to an unused __shared__ array.
__device__ int helper(int x);
__shared__ double c_unused[4];
__global__ void kc(int *p) { p[0] = helper(p[1]); }
