// weak-data-uninitialized-host-objects-sm90: first copies
#include "h.h"
__global__ void ka() { atomicAdd(&counter<1>, 1ull); ready = 1; }
void la() { ka<<<1, 32>>>(); }
