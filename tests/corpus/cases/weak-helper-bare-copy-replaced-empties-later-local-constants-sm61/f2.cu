#include "w.h"
__global__ void k2(float* p, double* q) { p[0] = (float)sqrt(q[8]) + blend<double, 2>(q[0], q[1]); }
template __global__ void tkern<float>(float*);
