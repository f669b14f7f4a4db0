// weak-data-initialized-first-uninitialized-copies-make-no-section-sm61: the initialized copies, met first
#include "h.h"
__global__ void ka(float *p) { p[0] = wv[1] + wt<float>[(int)p[1]] + (float)wt<double>[2]; }
