// weak-function-skipped-copy-address-taken-by-code-sm61: calls tf<float> and tf<double>, whose copies here are met first
#include "h.h"
__global__ void ka(float *p, double *q) { p[0] = tf<float>(p[4]); q[0] = tf<double>(q[1]); }
