// weak-data-lost-initialized-section-named-after-section-symbols-sm52: -G -DZERO, met first: wv in .nv.global, a divmix<double> copy without bank-2 constants
#include "h.h"
__global__ void ka(float *p, double *q) { p[0] = (float)divmix<double>(q[5], q[6]) + wv[1]; }
