// The operations, and tables of their addresses in __device__ memory.
#include "ops.h"

__device__ float op_square(float x) { return x * x; }
__device__ float op_negate(float x) { return -x; }
__device__ float op_halve(float x) { return 0.5f * x; }
__device__ float op_add(float a, float b) { return a + b; }
__device__ float op_max(float a, float b) { return fmaxf(a, b); }

__device__ unary_op unary_table[3] = {op_square, op_negate, op_halve};
__device__ binary_op binary_table[2] = {op_add, op_max};
