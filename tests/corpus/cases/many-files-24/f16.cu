// file 16 of the many-files-24 case: one link in a 23-deep cross-file call chain
extern __device__ int step_15(int x);
__device__ int var_16 = 16;

__device__ __noinline__ int step_16(int x)
{
    return step_15(x * 17) + var_16;
}
