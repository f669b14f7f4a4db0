#pragma once
#include <cstdio>
__device__ float warp_sum(float v);
__device__ float block_sum(float v);
__device__ void count_call();
extern __device__ unsigned long long g_calls;
__global__ void reduce_grid_stride(const float *in, float *out, int n);
__global__ void reduce_smem_tree(const float *in, float *out, int n);
__global__ void finish_sum(float *partials, int n, float *result);
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)
