// A thread-block cluster reading its neighbour's shared memory.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ int reduce_big(int which);
__global__ void __cluster_dims__(2, 1, 1) exchange(int *out)
{
    __shared__ int mine[128];
    cg::cluster_group cl = cg::this_cluster();
    mine[threadIdx.x] = threadIdx.x * (cl.block_rank() + 1);
    cl.sync();
    int *peer = cl.map_shared_rank(mine, cl.block_rank() ^ 1);
    out[blockIdx.x * 128 + threadIdx.x] = peer[127 - threadIdx.x] + reduce_big(threadIdx.x);
    cl.sync();
}
