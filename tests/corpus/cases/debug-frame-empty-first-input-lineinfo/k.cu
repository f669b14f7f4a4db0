__device__ int scale(int x) { return 3 * x + 1; }

__global__ void k(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = scale(p[i]);
}
