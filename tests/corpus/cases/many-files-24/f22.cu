// file 22 of the many-files-24 case: one link in a 23-deep cross-file call chain
extern __device__ int step_21(int x);
__device__ int var_22 = 22;

__device__ __noinline__ int step_22(int x)
{
    return step_21(x * 23) + var_22;
}

__global__ void kernel_22(int *out) { out[threadIdx.x] = step_22(threadIdx.x); }
