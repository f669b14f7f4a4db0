// file 19 of the many-files-24 case: one link in a 23-deep cross-file call chain
extern __device__ int step_18(int x);
__device__ int var_19 = 19;

__device__ __noinline__ int step_19(int x)
{
    return step_18(x * 20) + var_19;
}
