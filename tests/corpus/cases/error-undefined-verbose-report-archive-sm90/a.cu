// Kernels that use a function and a variable no input defines, next to
// globals, constants and static shared memory.
__device__ int g_arr[100];
__device__ float g_init[4] = {1, 2, 3, 4};
__constant__ float c_tab[32];
extern __device__ float missing_fn(float);
extern __device__ int missing_var;
__device__ float helper(float x) { return x * c_tab[(int)x & 31] + g_init[1]; }
__global__ void k_uses_missing(float *p) { p[threadIdx.x] = missing_fn(p[threadIdx.x]) + helper(p[0]); }
__global__ void k_plain(int *p)
{
    __shared__ int s[64];
    s[threadIdx.x] = p[threadIdx.x];
    __syncthreads();
    p[threadIdx.x] = s[63 - threadIdx.x] + g_arr[threadIdx.x] + missing_var;
}
__global__ void k_fine(float *p) { p[0] = helper(p[1]); }
