#pragma once
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;
template <typename G> __device__ int group_total(G g, int v) { return cg::reduce(g, v, cg::plus<int>()); }
__device__ int tile_scan(int v);
__device__ void load_tile(int* dst, const int* src, int n);
