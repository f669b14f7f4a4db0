__device__ int step(int x) { return 3 * x + 1; }
