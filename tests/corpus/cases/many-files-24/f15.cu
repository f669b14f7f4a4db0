// file 15 of the many-files-24 case: one link in a 23-deep cross-file call chain
extern __device__ int step_14(int x);
__device__ int var_15 = 15;
__constant__ int const_15[2] = {15, 30};

__device__ __noinline__ int step_15(int x)
{
    x += const_15[x & 1];
    return step_14(x * 16) + var_15;
}
