// Library member 1: the linear operations and a call counter.
#include "vecmath.h"

__device__ int vecmath_calls;

__device__ V3 v3_add(V3 a, V3 b) { return V3{a.x + b.x, a.y + b.y, a.z + b.z}; }
__device__ V3 v3_scale(V3 a, float s) { atomicAdd(&vecmath_calls, 1); return V3{a.x * s, a.y * s, a.z * s}; }
__device__ float v3_dot(V3 a, V3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
