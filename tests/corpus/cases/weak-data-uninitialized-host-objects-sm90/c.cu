// weak-data-uninitialized-host-objects-sm90: losing copies next to a static variable and a new instantiation
#include "h.h"
static __device__ int local_hits;
__global__ void kc(int *o) { atomicAdd(&counter<2>, 3ull); atomicAdd(&counter<1>, 1ull); local_hits += ready; o[1] = local_hits; }
void lc(int *o) { kc<<<1, 32>>>(o); }
