// file 2: a device function whose shared array two kernels reach (global), and one with own and private arrays of equal alignment
__device__ __noinline__ int fx2(int v) { __shared__ int X2[8]; X2[threadIdx.x % 8] = v; __syncthreads(); return X2[0]; }
__device__ __noinline__ int tf(int v)
{
    __shared__ int tb[5];
    __shared__ char tc[3];
    tb[threadIdx.x % 5] = v;
    tc[threadIdx.x % 3] = v;
    __syncthreads();
    return tb[0] + tc[1];
}
