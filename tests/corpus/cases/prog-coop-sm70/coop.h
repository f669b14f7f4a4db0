#pragma once
#include <cooperative_groups.h>
#include <cstdio>
namespace cg = cooperative_groups;
__device__ float tile_sum(cg::thread_block_tile<32> tile, float v);
__device__ int tile_count_if(cg::thread_block_tile<16> tile, bool pred);
__device__ void grid_barrier_phase(cg::grid_group grid, float *buf, int n, int phase);
__global__ void relax(float *a, float *b, int n, int iters, float *residual);
__global__ void histogram_tiles(const int *keys, int n, int *counts);
