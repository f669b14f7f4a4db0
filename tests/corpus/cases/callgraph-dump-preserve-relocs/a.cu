extern __device__ int level1(int *p, int n);   // b.cu

__device__ __noinline__ int level3(volatile int *p, int n)   // called from c.cu
{
    volatile int frame[24];                    // local array => stack frame
    for (int i = 0; i < 24; i++)
        frame[i] = p[i % n] + i;
    return frame[n % 24];
}

__global__ void k_chain(int *p, int n)
{
    volatile int frame[4];
    frame[threadIdx.x & 3] = n;
    p[threadIdx.x] = level1(p, frame[0]);
}

__global__ void k_direct(int *p, int n) { p[threadIdx.x] = level3(p, n); }
