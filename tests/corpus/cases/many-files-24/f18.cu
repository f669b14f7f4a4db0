// file 18 of the many-files-24 case: one link in a 23-deep cross-file call chain
extern __device__ int step_17(int x);
__device__ int var_18 = 18;
__constant__ int const_18[2] = {18, 36};

__device__ __noinline__ int step_18(int x)
{
    x += const_18[x & 1];
    return step_17(x * 19) + var_18;
}
