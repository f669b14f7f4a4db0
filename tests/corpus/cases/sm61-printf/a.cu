#include <cstdio>

extern __device__ void report(int v);

__global__ void k_print(int v)
{
    printf("thread %d of block %d: v=%d\n", threadIdx.x, blockIdx.x, v);
    report(v);
}
