// No kernel here: a device function nothing calls uses one file-scope
// __shared__ array, another is never used.
__shared__ int b_unused[16];
__shared__ int b_dead[8];
__device__ void deadfn(int *p) { b_dead[threadIdx.x] = *p; __syncthreads(); *p = b_dead[7 - threadIdx.x]; }
__device__ int helper(int x) { return x * 3; }
