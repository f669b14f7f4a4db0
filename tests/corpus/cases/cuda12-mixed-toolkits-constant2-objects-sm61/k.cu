extern __device__ float helper_c2(float x, int i);
__global__ void kernel_calls_c2(float *p) { p[threadIdx.x] = helper_c2(p[threadIdx.x], threadIdx.x); }
