__device__ int twice(int x) { return x + x; }
