#include "grid.h"
__device__ int tile_scan(int v) {
  auto t = cg::tiled_partition<16>(cg::this_thread_block());
  return cg::exclusive_scan(t, v) + group_total(t, v);
}
__device__ void load_tile(int* dst, const int* src, int n) {
  auto b = cg::this_thread_block();
  cg::memcpy_async(b, dst, src, sizeof(int) * n);
  cg::wait(b);
}
