// Device code that host code never references: all .nvHR* lists empty.
__device__ int helper(int x) { return x + 1; }
