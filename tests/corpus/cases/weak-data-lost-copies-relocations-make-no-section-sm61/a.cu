// weak-data-lost-copies-relocations-make-no-section-sm61: the copies without initializer (-DZERO), met first
#include "h.h"
__global__ void ka(float *p) { p[0] = *wp + (wf != 0); }
