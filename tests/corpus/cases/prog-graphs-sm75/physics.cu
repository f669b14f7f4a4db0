// Device physics: a field sampled by the integrator, walls, total energy.
#include "graph.h"

__device__ float clampf(float v, float lo, float hi)
{
    return fminf(fmaxf(v, lo), hi);
}

__device__ __noinline__ float2 field_at(float x, float y)
{
    float r2 = x * x + y * y + 1e-3f;
    float inv = rsqrtf(r2);
    return make_float2(-x * inv * inv * inv, -y * inv * inv * inv);
}

__global__ void energy(const Particle *p, int n, float *e)
{
    __shared__ float s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = 0.0f;
    if (i < n)
        v = 0.5f * (p[i].vx * p[i].vx + p[i].vy * p[i].vy);
    s[threadIdx.x] = v;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k)
            s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(e, s[0]);
}
