__device__ __noinline__ inline int iw(int x) { return x * x + 3; }
