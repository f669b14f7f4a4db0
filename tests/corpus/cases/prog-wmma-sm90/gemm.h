#pragma once
#include <cstdio>
#include <cuda_fp16.h>
#include <mma.h>
#define TILE 16
__device__ void mma_tile(const half *a, const half *b, float *c, int lda, int ldb, int ldc, int k);
__device__ void scale_tile(float *c, int ldc, float alpha);
__global__ void gemm_wmma(const half *a, const half *b, float *c, int m, int n, int k, float alpha);
__global__ void to_half(const float *in, half *out, int n);
template <typename T> __global__ void fill_pattern(T *p, int n);
