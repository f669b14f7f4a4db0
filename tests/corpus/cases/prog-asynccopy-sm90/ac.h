#pragma once
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cuda_bf16.h>
namespace cg = cooperative_groups;
#define CHUNK 1024
__device__ float chunk_sum(cg::thread_block block, const float *smem, int n);
__device__ __nv_bfloat16 to_bf16_scaled(float v, float s);
__global__ void staged_sum(const float *in, int n, float *out);
__global__ void quantize(const float *in, __nv_bfloat16 *out, int n, float s);
