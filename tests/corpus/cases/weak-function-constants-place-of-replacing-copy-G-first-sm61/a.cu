#include "w.h"
__global__ void ka(float *p) { p[0] = blend<float, 2>(p[1], p[2]); }
