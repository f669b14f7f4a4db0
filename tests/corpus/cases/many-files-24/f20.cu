// file 20 of the many-files-24 case: one link in a 23-deep cross-file call chain
extern __device__ int step_19(int x);
__device__ int var_20 = 20;

__device__ __noinline__ int step_20(int x)
{
    return step_19(x * 21) + var_20;
}
