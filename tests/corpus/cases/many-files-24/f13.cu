// file 13 of the many-files-24 case: one link in a 23-deep cross-file call chain
extern __device__ int step_12(int x);
__device__ int var_13 = 13;

__device__ __noinline__ int step_13(int x)
{
    __shared__ int sh_13[14];
    sh_13[x % 14] = x;
    __syncthreads();
    x += sh_13[0];
    return step_12(x * 14) + var_13;
}
