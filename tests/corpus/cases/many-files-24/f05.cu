// file 05 of the many-files-24 case: one link in a 23-deep cross-file call chain
extern __device__ int step_04(int x);
__device__ int var_05 = 5;

__device__ __noinline__ int step_05(int x)
{
    __shared__ int sh_05[6];
    sh_05[x % 6] = x;
    __syncthreads();
    x += sh_05[0];
    return step_04(x * 6) + var_05;
}
