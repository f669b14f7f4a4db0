// Tile-level helpers on thread_block_tile: reductions with tile.shfl_down and
// ballots; the grid-wide phase helper used by the cooperative kernel.
#include "coop.h"

__device__ float tile_sum(cg::thread_block_tile<32> tile, float v)
{
    for (int o = tile.size() / 2; o > 0; o /= 2)
        v += tile.shfl_down(v, o);
    return v;
}

__device__ int tile_count_if(cg::thread_block_tile<16> tile, bool pred)
{
    return __popc(tile.ballot(pred));
}

__device__ void grid_barrier_phase(cg::grid_group grid, float *buf, int n, int phase)
{
    for (int i = grid.thread_rank(); i < n; i += grid.size())
        buf[i] *= (phase & 1) ? 0.5f : 2.0f;
    grid.sync();
}
