#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ __noinline__ int block_sum(cg::thread_block block, int *scratch, int v)
{
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    for (int off = tile.size() / 2; off > 0; off /= 2)
        v += tile.shfl_down(v, off);
    if (tile.thread_rank() == 0)
        scratch[tile.meta_group_rank()] = v;
    block.sync();
    int s = 0;
    if (block.thread_rank() == 0)
        for (int i = 0; i < (int)tile.meta_group_size(); i++)
            s += scratch[i];
    return s;
}

__constant__ long long cb[2] = {9, 11};
__global__ void k_tiles(int *data, double *d)
{
    __shared__ int scratch[32];
    cg::thread_block block = cg::this_thread_block();
    data[block.thread_rank()] = block_sum(block, scratch, data[block.thread_rank()]);
    d[threadIdx.x] = sqrt(d[threadIdx.x]) + cb[data[0] & 1] / d[1];
}
