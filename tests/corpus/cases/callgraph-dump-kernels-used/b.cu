__device__ __noinline__ int heavy40b(float *p, int n)
{
    float acc[16];
    for (int i = 0; i < 16; i++) acc[i] = p[i * n];
    float s = 0;
    for (int i = 0; i < 16; i++) s += acc[i] * acc[(i * 7) % 16];
    return (int)s;
}
__global__ void zeta(float *p, int *o) { o[0] = heavy40b(p, o[1]); }
__global__ void alpha(float *p, int *o) { o[0] = heavy40b(p, o[1]); }
__global__ void mike(float *p, int *o) { o[0] = heavy40b(p, o[1]); }
__global__ void bravo(float *p, int *o) { o[0] = heavy40b(p, o[1]); }
__global__ void yankee(float *p, int *o) { o[0] = heavy40b(p, o[1]); }
__global__ void charlie(int *p, int *o) { o[0] = heavy40b((float*)p, o[1]); }
namespace zz { __global__ void aa(float *p, int *o) { o[0] = heavy40b(p, o[1]); } }
