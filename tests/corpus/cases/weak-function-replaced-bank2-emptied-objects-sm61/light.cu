#define HEAVY 0
#include "comb.h"

__global__ void k_light(const double *p, double *out, int n) { out[threadIdx.x] = combine(p, n); }
__global__ void k_other(double *out) { out[threadIdx.x] = 1.25 * threadIdx.x; }
int main() { k_light<<<1, 1>>>(nullptr, nullptr, 0); k_other<<<1, 1>>>(nullptr); return 0; }
