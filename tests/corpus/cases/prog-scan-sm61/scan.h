#pragma once
#include <cstdio>
#define SCAN_BLOCK 512
__device__ int warp_inclusive_scan(int v);
__device__ int block_exclusive_scan(int v, int *total);
__global__ void scan_blocks(const int *in, int *out, int *sums, int n);
__global__ void add_block_offsets(int *data, const int *offsets, int n);
__global__ void blelloch_scan(int *data, int n);
