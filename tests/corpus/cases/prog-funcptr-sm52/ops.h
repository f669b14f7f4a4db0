#pragma once
#include <cstdio>
typedef float (*unary_op)(float);
typedef float (*binary_op)(float, float);
__device__ float op_square(float x);
__device__ float op_negate(float x);
__device__ float op_halve(float x);
__device__ float op_add(float a, float b);
__device__ float op_max(float a, float b);
extern __device__ unary_op unary_table[3];
extern __device__ binary_op binary_table[2];
extern __device__ unary_op selected_unary;
__global__ void apply_unary(float *x, int n, int which);
__global__ void apply_selected(float *x, int n);
__global__ void combine(const float *a, float *b, int n, int which);
