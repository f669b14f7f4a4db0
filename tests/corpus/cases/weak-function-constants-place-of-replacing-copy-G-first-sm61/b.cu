#include "w.h"
__global__ void kb(float *p, double *q) { p[0] = blend<float, 2>(p[1], p[2]) + blend<double, 2>(q[0], q[1]) + blend<float, 3>(p[3], p[4]); }
