__device__ __noinline__ int reduce_block(int v)
{
    __shared__ int scratch[32];              // function-level shared memory
    scratch[threadIdx.x % 32] = v;
    __syncthreads();
    int s = 0;
    for (int i = 0; i < 32; i++)
        s += scratch[i];
    __syncthreads();
    return s;
}

__device__ __noinline__ double stage(double v)
{
    __shared__ double tmp[8];
    __shared__ char flags[3];
    tmp[threadIdx.x % 8] = v;
    flags[threadIdx.x % 3] = 1;
    __syncthreads();
    return tmp[(threadIdx.x + 1) % 8] + flags[0];
}

__device__ __noinline__ int both(int v) { return reduce_block(v) + (int)stage(v); }

__global__ void k_in_funcs_file(int *out)
{
    __shared__ short mine[10];
    mine[threadIdx.x % 10] = threadIdx.x;
    out[threadIdx.x] = reduce_block(mine[0]);
}
