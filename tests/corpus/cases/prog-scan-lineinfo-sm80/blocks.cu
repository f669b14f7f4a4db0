// Multi-block exclusive scan: each block scans its tile and writes its total;
// a second pass adds the scanned totals back.
#include "scan.h"

__global__ void scan_blocks(const int *in, int *out, int *sums, int n)
{
    __shared__ int total;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? in[i] : 0;
    int r = block_exclusive_scan(v, &total);
    if (i < n)
        out[i] = r;
    __syncthreads();
    if (threadIdx.x == 0)
        sums[blockIdx.x] = total;
}

__global__ void add_block_offsets(int *data, const int *offsets, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] += offsets[blockIdx.x];
}
