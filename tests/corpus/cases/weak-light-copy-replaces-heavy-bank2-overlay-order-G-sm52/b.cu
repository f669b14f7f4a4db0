// kernel kb, with the light copy of smooth (fewer registers, no constants), which replaces the heavy one met first
#include "util.h"
__device__ float use_a(float x);
__global__ void kb(float *o) { o[threadIdx.x] = smooth(o[threadIdx.x]) + use_a(1.f) + clampv(2, 0, 1) + g_zero<float>; }
