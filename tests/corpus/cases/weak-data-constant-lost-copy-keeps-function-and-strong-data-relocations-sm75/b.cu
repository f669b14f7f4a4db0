#include "h.h"
static __device__ float sl[2] = {7, 8};
static __constant__ float sc[2] = {9, 10};
static __device__ __noinline__ float sf(float x) { return x + 1; }
inline __constant__ P wcs = INIT;
__global__ void kb(float* p) { p[0] = (wcs.a[1] ? 1.f : 0.f) + wa[1] + wca[2] + wz[3]; }
