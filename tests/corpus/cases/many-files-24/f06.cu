// file 06 of the many-files-24 case: one link in a 23-deep cross-file call chain
extern __device__ int step_05(int x);
__device__ int var_06 = 6;
__constant__ int const_06[2] = {6, 12};

__device__ __noinline__ int step_06(int x)
{
    x += const_06[x & 1];
    return step_05(x * 7) + var_06;
}
