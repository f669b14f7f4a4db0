#include <cstdlib>

__device__ __noinline__ int *make_buffer(int n)
{
    int *p = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++)
        p[i] = i;
    return p;
}

__global__ void k_malloc(int *out, int n)
{
    int *p = make_buffer(n);
    out[threadIdx.x] = p[n - 1];
    free(p);
}

__global__ void k_new(double *out)
{
    double *d = new double[4];
    d[threadIdx.x & 3] = threadIdx.x;
    out[threadIdx.x] = d[0];
    delete[] d;
}
