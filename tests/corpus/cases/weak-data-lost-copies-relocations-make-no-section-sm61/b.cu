// weak-data-lost-copies-relocations-make-no-section-sm61: initialized copies, which lose when met, with the only relocations of .rel.nv.global.init and .rela.nv.global.init
#include "h.h"
__device__ float g[4];
__device__ __noinline__ float hf(float x) { return x * 2; }
__global__ void kb(float *p) { p[0] = *wp + (wf != 0) + hf(p[1]); }
