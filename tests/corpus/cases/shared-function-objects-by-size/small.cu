// the smaller (but more aligned) function-level __shared__ object, in the second file
__device__ __noinline__ int small(int x)
{
    __shared__ double s[2];
    s[x % 2] = x;
    __syncthreads();
    return s[(x + 1) % 2];
}
