// file 14 of the many-files-24 case: one link in a 23-deep cross-file call chain
extern __device__ int step_13(int x);
__device__ int var_14 = 14;

__device__ __noinline__ int step_14(int x)
{
    return step_13(x * 15) + var_14;
}
