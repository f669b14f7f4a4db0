#pragma once
#include <cstdio>
__device__ float bilinear_weight(float t);
__device__ float sample_smooth(cudaTextureObject_t tex, float u, float v);
__global__ void resize(cudaTextureObject_t tex, float *out, int w, int h, float sx, float sy);
__global__ void sobel(cudaTextureObject_t tex, float *out, int w, int h);
__global__ void lookup_linear(cudaTextureObject_t lut, const float *x, float *y, int n);
