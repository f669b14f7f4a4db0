__device__ __noinline__ int fz(int *p) { return blockIdx.z + p[2]; }
