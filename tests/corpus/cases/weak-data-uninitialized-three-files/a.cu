// weak-data-uninitialized-three-files: first definitions of ivar and tvar<int>
#include "h.h"
__global__ void ka(int *o) { tvar<int> = 1; ivar = 2; o[0] = use_b() + use_c(); }
