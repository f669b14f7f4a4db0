// weak-data-uninitialized-host-objects-sm90: only losing copies
#include "h.h"
__global__ void kb(int *o) { atomicAdd(&counter<1>, 2ull); o[0] = ready; }
void lb(int *o) { kb<<<1, 32>>>(o); }
