#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern __device__ int block_sum(cg::thread_block block, int *scratch, int v);

__global__ void k_grid(int *data, int *result, double *d)
{
    __shared__ int scratch[256];
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    int s = block_sum(block, scratch, data[grid.thread_rank()]);
    if (block.thread_rank() == 0)
        atomicAdd(result, s);
    grid.sync();
    data[grid.thread_rank()] = *result;
    d[threadIdx.x] = sqrt(d[threadIdx.x]);
}

__constant__ int ca = 7;
__global__ void k_inv(double *d) { d[threadIdx.x] = ca / d[threadIdx.x]; }
