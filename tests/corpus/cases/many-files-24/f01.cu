// file 01 of the many-files-24 case: one link in a 23-deep cross-file call chain
extern __device__ int step_00(int x);
__device__ int var_01 = 1;

__device__ __noinline__ int step_01(int x)
{
    __shared__ int sh_01[2];
    sh_01[x % 2] = x;
    __syncthreads();
    x += sh_01[0];
    return step_00(x * 2) + var_01;
}
