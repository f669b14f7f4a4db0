__device__ int helper(int x) { return 3 * x + 1; }
