// weak-function-skipped-copy-address-taken-by-code-sm61: &tf<double> only in a variable's initializer (no group -4 entry); this file's copy loses when met
#include "h.h"
__device__ void *wd = (void *)&tf<double>;
__global__ void kc(float *p) { p[0] = (float)(wd != 0); }
