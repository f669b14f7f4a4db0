// Constant-memory coefficients and the 1-D stencil on a shared row.
#include "stencil.h"

__constant__ float coeff[RADIUS + 1];
__constant__ int grid_dims[2];

__device__ float apply_coeffs(const float *row, int center)
{
    float acc = coeff[0] * row[center];
#pragma unroll
    for (int r = 1; r <= RADIUS; r++)
        acc += coeff[r] * (row[center - r] + row[center + r]);
    return acc;
}

__global__ void checksum(const float *v, int n, float *sum)
{
    __shared__ float part[256];
    float acc = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        acc += v[i];
    part[threadIdx.x] = acc;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(sum, part[0]);
}
