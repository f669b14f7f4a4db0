__device__ int rec(int n) { return n <= 1 ? 1 : n * rec(n - 1); }
