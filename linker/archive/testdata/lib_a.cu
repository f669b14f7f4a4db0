// Library member with a kernel and a device function.
__device__ int lib_fn(int x) { return x + 1; }
__global__ void lib_kernel(int *p) { p[0] = lib_fn(p[0]); }
