// file 21 of the many-files-24 case: one link in a 23-deep cross-file call chain
extern __device__ int step_20(int x);
__device__ int var_21 = 21;
__constant__ int const_21[2] = {21, 42};

__device__ __noinline__ int step_21(int x)
{
    __shared__ int sh_21[22];
    sh_21[x % 22] = x;
    __syncthreads();
    x += sh_21[0];
    x += const_21[x & 1];
    return step_20(x * 22) + var_21;
}
