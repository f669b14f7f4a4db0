__device__ int h(int x) { return x - 7; }
