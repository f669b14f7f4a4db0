__device__ __noinline__ int heavy40(float *p, int n)
{
    float acc[16];
    for (int i = 0; i < 16; i++) acc[i] = p[i * n];
    float s = 0;
    for (int i = 0; i < 16; i++) s += acc[i] * acc[(i * 7) % 16];
    return (int)s;
}
