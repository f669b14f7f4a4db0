// A kernel that makes a Sq on the device heap: each file compiles its own weak copy of
// the virtual functions of w.h.
#include "w.h"
__global__ void k_a(float* d) { Shape* s = new Sq(d[threadIdx.x]); d[threadIdx.x] = s->area(); delete s; }
