#pragma once
#include <cstdio>
struct V3 { float x, y, z; };
__device__ V3 v3_add(V3 a, V3 b);
__device__ V3 v3_scale(V3 a, float s);
__device__ float v3_dot(V3 a, V3 b);
__device__ V3 v3_cross(V3 a, V3 b);
__device__ float v3_norm(V3 a);
extern __device__ int vecmath_calls;
__global__ void normalize_all(V3 *v, int n);
