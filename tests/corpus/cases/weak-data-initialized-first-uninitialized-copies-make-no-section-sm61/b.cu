// weak-data-initialized-first-uninitialized-copies-make-no-section-sm61: copies without initializer (-DZERO), which lose when met
#include "h.h"
__device__ float gb[3] = {1, 2, 3};
__global__ void kb(float *p) { p[0] = wv[2] + gb[(int)p[2]] + (float)wt<double>[1]; }
