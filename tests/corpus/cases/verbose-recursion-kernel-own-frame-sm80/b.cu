__device__ int rec(int d) { return d <= 0 ? 1 : 1 + rec(d - 1) + rec(d - 2); }
