// the larger function-level __shared__ object, in the first file
__device__ __noinline__ int big(int x)
{
    __shared__ int b[32];
    b[x % 32] = x;
    __syncthreads();
    return b[(x + 1) % 32];
}
