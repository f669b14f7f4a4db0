// Compiled as usual: the same helpers are local functions of this file.
__device__ float norm3(const float *v);
__global__ void k_scale(const float *v, float *out, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = sqrtf(v[i]) / v[n - 1 - i] + norm3(v); }
