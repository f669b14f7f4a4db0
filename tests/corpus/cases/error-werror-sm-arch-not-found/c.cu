// another input with code for the target
__device__ __noinline__ float halve(float x) { return 0.5f * x; }
__global__ void k_halve(float *v) { v[threadIdx.x] = halve(v[threadIdx.x]); }
