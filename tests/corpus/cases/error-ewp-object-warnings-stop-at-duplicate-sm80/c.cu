// helper again: a duplicate definition of b.cu's.
__device__ int helper(int x) { return 5 * x + 2; }
