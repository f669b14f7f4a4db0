#include "heavy.h"
__global__ void k_b(const float* in, float* out, int n) { out[threadIdx.x] = mix<24>(in, n); }
