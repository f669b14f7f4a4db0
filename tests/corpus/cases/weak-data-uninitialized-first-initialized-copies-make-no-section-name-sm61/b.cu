// weak-data-uninitialized-first-initialized-copies-make-no-section-name-sm61: initialized copies, which lose when met, and gb, a definition of its own after them in .nv.global.init
#include "h.h"
__device__ float gb[3] = {1, 2, 3};
__global__ void kb(float *p) { p[0] = wv[2] + gb[(int)p[2]] + (float)wt<double>[1]; }
