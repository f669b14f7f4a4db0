#pragma once
#include <cstdio>
#include <cassert>
#define RADIUS 4
#define BX 32
#define BY 8
extern __constant__ float coeff[RADIUS + 1];
extern __constant__ int grid_dims[2];
__device__ float apply_coeffs(const float *row, int center);
__global__ void stencil_x(const float *in, float *out);
__global__ void stencil_2d(const float *in, float *out);
__global__ void checksum(const float *v, int n, float *sum);
