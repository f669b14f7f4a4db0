// file 10 of the many-files-24 case: one link in a 23-deep cross-file call chain
extern __device__ int step_09(int x);
__device__ int var_10 = 10;

__device__ __noinline__ int step_10(int x)
{
    return step_09(x * 11) + var_10;
}
