#include "w.h"
__global__ void k4(float *p) { p[0] = divmix<float>(p[3], p[4]) + blend<float, 3>(p[1], p[2]); }
