// the program's declarations
#pragma once
extern __constant__ float c_coef[64];
extern __constant__ int c_n;
__device__ float ldg_dot(const float *__restrict__ a, const float *__restrict__ b, int n);
__device__ float tex_sample(int i);
