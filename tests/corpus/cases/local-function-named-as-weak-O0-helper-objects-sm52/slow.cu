// Compiled with -Xptxas -O0: ptxas makes the sqrtf slow path
// (__cuda_sm20_sqrt_rn_f32_slowpath) and the division helpers weak functions.
__device__ __noinline__ float norm3(const float *v) { return sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }
__global__ void k_norm(const float *v, float *out, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = norm3(v + 3 * i) / v[0]; }
