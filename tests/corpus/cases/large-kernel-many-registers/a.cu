#define N 48

__global__ void k_big(const double *in, double *out, int iters)
{
    double v[N];
#pragma unroll
    for (int i = 0; i < N; i++)
        v[i] = in[threadIdx.x * N + i];
    for (int it = 0; it < iters; it++) {
#pragma unroll
        for (int i = 0; i < N; i++)
            v[i] = v[i] * v[(i + 1) % N] + v[(i + 7) % N];
    }
    double s = 0;
#pragma unroll
    for (int i = 0; i < N; i++)
        s += v[i] * (i + 1);
    out[threadIdx.x] = s;
}

__device__ __noinline__ float heavy_callee(const float *p, int iters)
{
    float v[32];
#pragma unroll
    for (int i = 0; i < 32; i++)
        v[i] = p[i];
    for (int it = 0; it < iters; it++) {
#pragma unroll
        for (int i = 0; i < 32; i++)
            v[i] = v[i] * v[(i + 3) % 32] + v[(i + 5) % 32];
    }
    float s = 0;
#pragma unroll
    for (int i = 0; i < 32; i++)
        s += v[i];
    return s;
}

__global__ void k_light(const float *p, float *out, int iters) { out[threadIdx.x] = heavy_callee(p, iters); }
