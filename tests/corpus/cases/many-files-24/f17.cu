// file 17 of the many-files-24 case: one link in a 23-deep cross-file call chain
extern __device__ int step_16(int x);
__device__ int var_17 = 17;

__device__ __noinline__ int step_17(int x)
{
    __shared__ int sh_17[18];
    sh_17[x % 18] = x;
    __syncthreads();
    x += sh_17[0];
    return step_16(x * 18) + var_17;
}

__global__ void kernel_17(int *out) { out[threadIdx.x] = step_17(threadIdx.x); }
