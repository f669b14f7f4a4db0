#include "grid.h"
__global__ void coop_kernel(int* data, int* sum, int n) {
  __shared__ int tile[256];
  auto grid = cg::this_grid();
  load_tile(tile, data + blockIdx.x * 256, 256);
  int v = tile_scan(tile[threadIdx.x]);
  auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  int w = group_total(warp, v);
  auto active = cg::coalesced_threads();
  if (warp.thread_rank() == 0) atomicAdd(sum, w + (int)active.size());
  grid.sync();
  if (grid.thread_rank() == 0) data[0] = *sum;
}
