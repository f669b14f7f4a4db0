#include "h.h"
__global__ void ka(double* q) { q[0] = dm<double>(q[1], q[2]); }
