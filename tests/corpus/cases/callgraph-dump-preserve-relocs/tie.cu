// two callees with the same register count: the propagation line names
// the one defined first
extern __device__ int tie_b(float *p, int n);
__device__ __noinline__ int tie_a(float *p, int n)
{
    float acc[16];
    for (int i = 0; i < 16; i++) acc[i] = p[i * n];
    float s = 0;
    for (int i = 0; i < 16; i++) s += acc[i] * acc[(i * 7) % 16];
    return (int)s;
}
__device__ __noinline__ int tie_b(float *p, int n)
{
    float acc[16];
    for (int i = 0; i < 16; i++) acc[i] = p[i * n + 1];
    float s = 0;
    for (int i = 0; i < 16; i++) s += acc[i] * acc[(i * 7) % 16];
    return (int)s;
}
__global__ void k_tie(float *p, int *o) { o[0] = tie_b(p, o[1]) + tie_a(p, o[2]); }
