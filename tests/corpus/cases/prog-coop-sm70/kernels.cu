// A Jacobi-style relaxation kept in one cooperative launch (grid.sync between
// sweeps) and a histogram counted per 16-thread tile.
#include "coop.h"

__global__ void relax(float *a, float *b, int n, int iters, float *residual)
{
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    for (int it = 0; it < iters; it++) {
        float local = 0.0f;
        for (int i = grid.thread_rank(); i < n; i += grid.size()) {
            float l = i > 0 ? a[i - 1] : a[i];
            float r = i < n - 1 ? a[i + 1] : a[i];
            b[i] = 0.5f * (l + r);
            local += fabsf(b[i] - a[i]);
        }
        local = tile_sum(warp, local);
        if (warp.thread_rank() == 0)
            atomicAdd(residual, local);
        grid.sync();
        float *t = a; a = b; b = t;
    }
    grid_barrier_phase(grid, a, n, iters);
}

__global__ void histogram_tiles(const int *keys, int n, int *counts)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int k = i < n ? keys[i] : -1;
    for (int bin = 0; bin < 8; bin++) {
        int c = tile_count_if(t16, k == bin);
        if (t16.thread_rank() == 0 && c)
            atomicAdd(&counts[bin], c);
    }
}
