__device__ __noinline__ int present_function(int x) { return x + 1; }
