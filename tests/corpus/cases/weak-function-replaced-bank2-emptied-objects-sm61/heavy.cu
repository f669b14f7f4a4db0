#define HEAVY 1
#include "comb.h"

__global__ void k_heavy(const double *p, double *out, int n) { out[threadIdx.x] = combine(p, n); }
void launch_heavy() { k_heavy<<<1, 1>>>(nullptr, nullptr, 0); }
