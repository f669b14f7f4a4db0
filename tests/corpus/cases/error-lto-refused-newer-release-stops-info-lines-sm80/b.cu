__device__ int b_value = 3;

__device__ __noinline__ int helper(int x) { return x * b_value; }
