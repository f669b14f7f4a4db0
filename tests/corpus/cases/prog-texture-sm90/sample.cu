// Sampling helpers over texture objects (tex2D, tex1Dfetch).
#include "tex.h"

__device__ float bilinear_weight(float t)
{
    return t * t * (3.0f - 2.0f * t);
}

__device__ __noinline__ float sample_smooth(cudaTextureObject_t tex, float u, float v)
{
    float fu = u - floorf(u), fv = v - floorf(v);
    float wu = bilinear_weight(fu), wv = bilinear_weight(fv);
    float x0 = floorf(u) + 0.5f, y0 = floorf(v) + 0.5f;
    float a = tex2D<float>(tex, x0, y0), b = tex2D<float>(tex, x0 + 1, y0);
    float c = tex2D<float>(tex, x0, y0 + 1), d = tex2D<float>(tex, x0 + 1, y0 + 1);
    return (a * (1 - wu) + b * wu) * (1 - wv) + (c * (1 - wu) + d * wu) * wv;
}

__global__ void lookup_linear(cudaTextureObject_t lut, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int k = (int)x[i];
        y[i] = tex1Dfetch<float>(lut, k) + tex1Dfetch<float>(lut, k + 1);
    }
}
