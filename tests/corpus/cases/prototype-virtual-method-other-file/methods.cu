// Defines the out-of-line methods; no vtable is emitted here, so ptxas lists
// them in this file's .nv.prototype.
#include "v.h"
__device__ float Shape::area() const { return 0.0f; }
__device__ float Square::area() const { return s * s; }
__device__ __noinline__ float twice(float x) { return 2.0f * x; }
__global__ void kplain(float *o) { o[0] = twice(o[1]); }
