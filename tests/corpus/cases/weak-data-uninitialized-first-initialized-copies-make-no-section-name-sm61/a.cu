// weak-data-uninitialized-first-initialized-copies-make-no-section-name-sm61: copies without initializer (-DZERO), met first
#include "h.h"
__global__ void ka(float *p) { p[0] = wv[1] + wt<float>[(int)p[1]] + (float)wt<double>[2]; }
