// file 02 of the many-files-24 case: one link in a 23-deep cross-file call chain
extern __device__ int step_01(int x);
__device__ int var_02 = 2;

__device__ __noinline__ int step_02(int x)
{
    return step_01(x * 3) + var_02;
}

__global__ void kernel_02(int *out) { out[threadIdx.x] = step_02(threadIdx.x); }
