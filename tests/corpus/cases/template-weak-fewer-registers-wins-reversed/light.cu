#define HEAVY 0
#include "mix.h"

__global__ void k_light(const double *p, double *out, int n) { out[threadIdx.x] = mix(p, n); }
