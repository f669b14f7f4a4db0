// An inclusive block scan whose per-block totals another file folds in.
extern __device__ int blockTotal(const int *v, int n);
extern __device__ void addOffset(int *v, int n, int off);

__global__ void scanBlocks(int *v, int *totals, int n)
{
    extern __shared__ int buf[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    buf[threadIdx.x] = i < n ? v[i] : 0;
    __syncthreads();
    for (int d = 1; d < blockDim.x; d *= 2) {
        int t = threadIdx.x >= d ? buf[threadIdx.x - d] : 0;
        __syncthreads();
        buf[threadIdx.x] += t;
        __syncthreads();
    }
    if (i < n)
        v[i] = buf[threadIdx.x];
    if (threadIdx.x == 0)
        totals[blockIdx.x] = blockTotal(buf, blockDim.x);
}

__global__ void fixBlocks(int *v, const int *totals, int n)
{
    int off = 0;
    for (int b = 0; b < blockIdx.x; b++)
        off += totals[b];
    addOffset(v + blockIdx.x * blockDim.x, min(n - blockIdx.x * blockDim.x, blockDim.x), off);
}
