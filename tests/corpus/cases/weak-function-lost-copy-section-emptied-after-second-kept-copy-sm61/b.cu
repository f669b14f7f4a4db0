#include "h.h"
__global__ void kb(double* q) { q[0] = dm<double>(q[1], q[2]); }
