// Kernels calling through the tables (indirect calls across files), and a
// pointer the host sets with cudaMemcpyToSymbol.
#include "ops.h"

__device__ unary_op selected_unary = op_halve;

__global__ void apply_unary(float *x, int n, int which)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = unary_table[which](x[i]);
}

__global__ void apply_selected(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unary_op f = selected_unary;
    if (i < n)
        x[i] = f(x[i]);
}

__global__ void combine(const float *a, float *b, int n, int which)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        b[i] = binary_table[which](a[i], b[i]);
}
