#include "w.h"
__global__ void k0(float* p, double* q) { p[0] = blend<float, 3>(p[1], p[2]) + nest<float>(p[7]) + (float)jt<4>((int)p[5]); }
