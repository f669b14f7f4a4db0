#include "h.h"
__device__ float gb[4];
__global__ void ka(float* p) { p[0] = *wp1 + *wp2; }
