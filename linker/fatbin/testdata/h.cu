// The definition k.cu references, so that nvcc -dlink succeeds.
__device__ int helper(int x) { return x * 2; }
