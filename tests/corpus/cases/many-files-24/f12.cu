// file 12 of the many-files-24 case: one link in a 23-deep cross-file call chain
extern __device__ int step_11(int x);
__device__ int var_12 = 12;
__constant__ int const_12[2] = {12, 24};

__device__ __noinline__ int step_12(int x)
{
    x += const_12[x & 1];
    return step_11(x * 13) + var_12;
}

__global__ void kernel_12(int *out) { out[threadIdx.x] = step_12(threadIdx.x); }
