// Reduction kernels: a grid-stride loop with warp shuffles, and a classic
// shared-memory tree with a dynamic shared buffer.
#include "reduce.h"

__global__ void reduce_grid_stride(const float *in, float *out, int n)
{
    float acc = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        acc += in[i];
    acc = block_sum(acc);
    if (threadIdx.x == 0) {
        out[blockIdx.x] = acc;
        count_call();
    }
}

__global__ void reduce_smem_tree(const float *in, float *out, int n)
{
    extern __shared__ float buf[];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * (blockDim.x * 2) + t;
    float v = (i < n) ? in[i] : 0.0f;
    if (i + blockDim.x < n)
        v += in[i + blockDim.x];
    buf[t] = v;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
        if (t < s)
            buf[t] = v = v + buf[t + s];
        __syncthreads();
    }
    if (t < 32) {
        if (blockDim.x >= 64)
            v += buf[t + 32];
        v = warp_sum(v);
    }
    if (t == 0)
        out[blockIdx.x] = v;
}

__global__ void finish_sum(float *partials, int n, float *result)
{
    float acc = 0.0f;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        acc += partials[i];
    acc = block_sum(acc);
    if (threadIdx.x == 0) {
        *result = acc;
        count_call();
    }
}
