#include "h.h"
__global__ void kb(float* p, double* q) { p[0] = (float)sqrt(q[8]) + (float)dm<double>(q[1], q[2]); }
