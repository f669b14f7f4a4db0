// file 08 of the many-files-24 case: one link in a 23-deep cross-file call chain
extern __device__ int step_07(int x);
__device__ int var_08 = 8;

__device__ __noinline__ int step_08(int x)
{
    return step_07(x * 9) + var_08;
}
