// file 09 of the many-files-24 case: one link in a 23-deep cross-file call chain
extern __device__ int step_08(int x);
__device__ int var_09 = 9;
__constant__ int const_09[2] = {9, 18};

__device__ __noinline__ int step_09(int x)
{
    __shared__ int sh_09[10];
    sh_09[x % 10] = x;
    __syncthreads();
    x += sh_09[0];
    x += const_09[x & 1];
    return step_08(x * 10) + var_09;
}
