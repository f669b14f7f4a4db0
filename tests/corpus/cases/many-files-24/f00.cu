// file 00 of the many-files-24 case: one link in a 23-deep cross-file call chain
__device__ int var_00 = 0;
__constant__ int const_00[2] = {0, 0};

__device__ __noinline__ int step_00(int x)
{
    x += const_00[x & 1];
    return x + var_00;
}
