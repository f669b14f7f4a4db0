__device__ int late_helper(int);
__device__ int early_helper(int);
// Only this unreachable function calls late_helper here; last.cu calls it from a kernel.
__device__ int unreachable(int x) { return late_helper(x) + early_helper(x); }
__global__ void starter(int *p) { p[0] = early_helper(p[1]); }
