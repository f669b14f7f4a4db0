// kernel kc, with another heavy copy of smooth, which loses to the light one
#define HEAVY
#include "util.h"
__global__ void kc(float *o, Counter *c) { c->bump(); o[0] = smooth(o[1]) + clampv(o[2], 0.f, 2.f) + g_zero<int>; }
