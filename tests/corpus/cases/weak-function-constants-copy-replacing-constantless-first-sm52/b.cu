#include "w.h"
__global__ void kb(float *p) { p[0] = blend<float, 3>(p[1], p[2]); }
