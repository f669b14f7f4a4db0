extern __device__ int heavy40(float *p, int n);
__device__ __noinline__ int heavy78(float *p, int n)
{
    float acc[32];
    for (int i = 0; i < 32; i++) acc[i] = p[i * n];
    float s = 0;
    for (int i = 0; i < 32; i++) s += acc[i] * acc[(i * 7) % 32];
    return (int)s;
}
__device__ __noinline__ int light(int x) { return x + 1; }
__global__ void k1(float *p, int *o) { o[0] = heavy40(p, o[1]) + heavy78(p, 2); }
__global__ void k2(float *p, int *o) { o[0] = heavy40(p, o[1]); }
__global__ void k3(float *p, int *o) { o[0] = light(o[1]); }
