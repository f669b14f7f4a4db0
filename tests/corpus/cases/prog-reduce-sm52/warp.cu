// Warp- and block-level sum helpers, called from kernels in reduce.cu.
#include "reduce.h"

__device__ float warp_sum(float v)
{
    for (int off = warpSize / 2; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    return v;
}

__device__ float block_sum(float v)
{
    __shared__ float partial[32];
    int lane = threadIdx.x % warpSize;
    int wid = threadIdx.x / warpSize;
    v = warp_sum(v);
    if (lane == 0)
        partial[wid] = v;
    __syncthreads();
    int nwarps = (blockDim.x + warpSize - 1) / warpSize;
    v = (threadIdx.x < nwarps) ? partial[lane] : 0.0f;
    if (wid == 0)
        v = warp_sum(v);
    return v;
}

__device__ unsigned long long g_calls;

__device__ void count_call()
{
    atomicAdd(&g_calls, 1ull);
}
