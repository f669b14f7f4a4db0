#include "table.h"
static __constant__ float pair_w[2] = {3.0f, 3.0f};
static __constant__ float triple_w[3] = {7.0f, 8.0f, 9.0f};
__global__ void west(float *p) { p[threadIdx.x] = kernel3x3[threadIdx.x & 3] * pair_w[threadIdx.x & 1] + triple_w[threadIdx.x % 3]; }
void run_west(float *p) { west<<<1, 32>>>(p); }
