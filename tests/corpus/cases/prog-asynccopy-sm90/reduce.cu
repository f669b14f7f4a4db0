// Block reduction with cg::reduce over warp tiles; bf16 conversion helper.
#include "ac.h"

__device__ float chunk_sum(cg::thread_block block, const float *smem, int n)
{
    __shared__ float warp_totals[32];
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    float v = 0;
    for (int i = block.thread_rank(); i < n; i += block.size())
        v += smem[i];
    v = cg::reduce(tile, v, cg::plus<float>());
    if (tile.thread_rank() == 0)
        warp_totals[tile.meta_group_rank()] = v;
    block.sync();
    float t = 0;
    if (tile.meta_group_rank() == 0) {
        t = tile.thread_rank() < tile.meta_group_size() ? warp_totals[tile.thread_rank()] : 0.0f;
        t = cg::reduce(tile, t, cg::plus<float>());
    }
    return t;
}

__device__ __nv_bfloat16 to_bf16_scaled(float v, float s)
{
    return __float2bfloat16_rn(v * s);
}
