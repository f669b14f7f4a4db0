#include "h.h"
__constant__ float cb[4];
__device__ float gb[2];
__global__ void kb(float* p) { __shared__ float sh[32]; sh[threadIdx.x] = p[threadIdx.x]; __syncthreads(); p[0] = wv[2] + cb[threadIdx.x] + gb[1] + sh[threadIdx.x ^ 1]; }
__global__ void kc(float* p) { p[0] = cb[2]; }
