extern __device__ int level3(volatile int *p, int n);   // a.cu

__device__ __noinline__ int level2(int *p, int n)
{
    volatile int frame[8];
    for (int i = 0; i < 8; i++)
        frame[i] = p[i];
    return level3(p, frame[n % 8]) * 2 + frame[2];
}

__global__ void k_mid(int *p, int n) { p[threadIdx.x] = level2(p, n); }
