// Calls its copy of iw directly.
#include "w.h"
__global__ void kw2(int *o) { o[0] = iw(o[1]); }
