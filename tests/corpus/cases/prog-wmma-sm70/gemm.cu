// GEMM kernel: one warp per 16x16 output tile; conversion kernel; a kernel
// template instantiated for two types here and launched from main.cu.
#include "gemm.h"

__global__ void gemm_wmma(const half *a, const half *b, float *c, int m, int n, int k, float alpha)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int tiles_n = n / TILE;
    int tm = warp / tiles_n, tn = warp % tiles_n;
    if (tm * TILE >= m)
        return;
    float *ct = c + tm * TILE * n + tn * TILE;
    mma_tile(a + tm * TILE * k, b + tn * TILE * k, ct, k, k, n, k);
    __syncwarp();
    if (alpha != 1.0f)
        scale_tile(ct, n, alpha);
}

__global__ void to_half(const float *in, half *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = __float2half(in[i]);
}

template <typename T> __global__ void fill_pattern(T *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = T((i % 7) - 3);
}
template __global__ void fill_pattern<float>(float *, int);
template __global__ void fill_pattern<int>(int *, int);
