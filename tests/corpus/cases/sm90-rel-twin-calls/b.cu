__device__ __noinline__ float f1(float r, int i) { return r * i; }
__device__ __noinline__ float f2(float r, int i) { return r + i; }
