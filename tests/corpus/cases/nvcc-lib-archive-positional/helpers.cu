// archive member referenced by main.cu
__device__ int counter = 7;

__device__ __noinline__ int helper(int x) { return x * 5 + counter; }

__global__ void helpers_kernel(int *out) { out[0] = helper(out[1]); }
