extern __device__ int level2(int *p, int n);   // c.cu

__device__ __noinline__ int level1(int *p, int n)
{
    volatile int frame[40];
    for (int i = 0; i < 40; i++)
        frame[i] = p[i % n];
    return level2(p, frame[n % 40]) + frame[1];
}
