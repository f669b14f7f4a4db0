#include "h.h"
__global__ void ka(float* p) { p[0] = wv[1]; }
