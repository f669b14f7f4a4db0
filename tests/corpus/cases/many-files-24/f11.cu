// file 11 of the many-files-24 case: one link in a 23-deep cross-file call chain
extern __device__ int step_10(int x);
__device__ int var_11 = 11;

__device__ __noinline__ int step_11(int x)
{
    return step_10(x * 12) + var_11;
}
