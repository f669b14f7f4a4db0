// file d: defines what c calls, and a dead function
__device__ int d_twice(int x) { return 2 * x; }
__device__ __noinline__ int d_dead(int x) { return x / 3; }
