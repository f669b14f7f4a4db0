#include "table.h"
static __constant__ float triple_n[3] = {7.0f, 8.0f, 9.0f};
__global__ void north(float *p) { p[threadIdx.x] = kernel3x3[threadIdx.x & 3] - triple_n[threadIdx.x % 3]; }
void run_north(float *p) { north<<<1, 32>>>(p); }
