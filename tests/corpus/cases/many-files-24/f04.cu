// file 04 of the many-files-24 case: one link in a 23-deep cross-file call chain
extern __device__ int step_03(int x);
__device__ int var_04 = 4;

__device__ __noinline__ int step_04(int x)
{
    return step_03(x * 5) + var_04;
}
