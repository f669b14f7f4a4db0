#include "w.h"
__global__ void ka(double *p) { p[0] = op(p[1], p[2]); }
