extern __device__ float (*pf)(float);
__device__ __noinline__ float dead_caller(float x) { return pf(x); }
__global__ void k_b(float *o) { o[0] = 1; }
