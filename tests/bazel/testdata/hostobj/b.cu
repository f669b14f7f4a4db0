// Host object for the Bazel end-to-end test: a device function and variable
// a.cu uses, and a kernel no host code launches.
__device__ int factor = 3;

__device__ int scale(int x) { return factor * x; }

__global__ void k_unlaunched(int *p) { p[0] = scale(p[0]) + 1; }
