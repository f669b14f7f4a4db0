// multi-arch case, file c: a device function with its own shared memory, used by kernels in two files
__device__ __noinline__ int c_accumulate(int x)
{
    __shared__ int partial[32];
    partial[threadIdx.x % 32] = x;
    __syncthreads();
    int s = 0;
    for (int i = 0; i < 32; i++)
        s += partial[i];
    return s;
}

__global__ void k_c(int *out) { out[threadIdx.x] = c_accumulate(out[threadIdx.x]); }
