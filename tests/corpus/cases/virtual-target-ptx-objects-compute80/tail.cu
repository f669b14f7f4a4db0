__device__ void addOffset(int *v, int n, int off)
{
    if (threadIdx.x < n)
        v[threadIdx.x] += off;
}
