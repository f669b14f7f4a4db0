// weak-function-skipped-copy-address-taken-by-code-sm61: a kernel stores &tf<float> (group -4 of .nv.callgraph names it); this file's copy loses when met
#include "h.h"
__global__ void kb(float *p, void **q) { q[0] = (void *)&tf<float>; }
