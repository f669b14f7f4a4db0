// file 07 of the many-files-24 case: one link in a 23-deep cross-file call chain
extern __device__ int step_06(int x);
__device__ int var_07 = 7;

__device__ __noinline__ int step_07(int x)
{
    return step_06(x * 8) + var_07;
}

__global__ void kernel_07(int *out) { out[threadIdx.x] = step_07(threadIdx.x); }
