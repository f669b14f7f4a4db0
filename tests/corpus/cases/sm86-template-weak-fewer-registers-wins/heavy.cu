#define HEAVY 1
#include "mix.h"

__global__ void k_heavy(const double *p, double *out, int n) { out[threadIdx.x] = mix(p, n); }
