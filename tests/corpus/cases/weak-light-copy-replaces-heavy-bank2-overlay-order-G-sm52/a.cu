// kernel ka and use_a, with the heavy copies (HEAVY: bank-2 constants under -G) of the inline smooth, met first
#define HEAVY
#include "util.h"
__device__ __noinline__ float use_a(float x) { return smooth(x) + clampv(x, 0.f, 1.f) + g_zero<float>; }
__global__ void ka(float *o) { Counter c; c.n = 0; c.bump(); o[threadIdx.x] = use_a(o[threadIdx.x]) + c.n + Accum<int>::add(1, 2); }
