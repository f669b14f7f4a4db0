#include "w.h"
__global__ void ka(float *p, double *q) { p[0] = blend<float, 3>(p[1], p[2]) + (float)divmix<double>(q[0], q[1]); }
