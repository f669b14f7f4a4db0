#include "w.h"
__global__ void ka(float* p, double* q) { p[0] = (float)blend<double, 4>(q[0], q[1]) + poly<float>(p[1]); }
