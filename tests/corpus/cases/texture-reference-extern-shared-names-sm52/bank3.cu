__device__ __noinline__ double warp_curve(double x)
{
    return x * 2.718281828459045 - 1.4142135623730951;
}
__global__ void bend(double* v)
{
    extern __shared__ double pad[];
    pad[threadIdx.x] = v[threadIdx.x];
    __syncthreads();
    v[threadIdx.x] = warp_curve(pad[threadIdx.x ^ 1]);
}
