// file 03 of the many-files-24 case: one link in a 23-deep cross-file call chain
extern __device__ int step_02(int x);
__device__ int var_03 = 3;
__constant__ int const_03[2] = {3, 6};

__device__ __noinline__ int step_03(int x)
{
    x += const_03[x & 1];
    return step_02(x * 4) + var_03;
}
