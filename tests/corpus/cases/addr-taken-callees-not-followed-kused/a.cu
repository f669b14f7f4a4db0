__device__ __noinline__ float scale3(float x) { return x * 3.0f + 1.0f; }
__device__ __noinline__ float shift(float x) { return scale3(x) - 2.0f; }
__device__ float op_a(float x) { return shift(x) + 1.0f; }
__device__ float op_b(float x);
typedef float (*fn_t)(float);
__device__ fn_t g_tab[2] = {op_a, op_b};
__global__ void k_plain(float *p) { p[threadIdx.x] = 1.0f; }
__global__ void k_call(float *p) { p[threadIdx.x] = g_tab[threadIdx.x & 1](p[threadIdx.x]); }
