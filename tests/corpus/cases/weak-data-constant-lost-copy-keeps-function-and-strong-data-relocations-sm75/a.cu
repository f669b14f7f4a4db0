#include "h.h"
static __device__ float sl[2] = {7, 8};
static __constant__ float sc[2] = {9, 10};
static __device__ __noinline__ float sf(float x) { return x + 1; }
__device__ __noinline__ float hf(float x) { return x * 2 + 1; }
__device__ float gx[2];
__device__ float gi[2] = {1, 2};
inline __constant__ P wcs;
__global__ void ka(float* p) { p[0] = (wcs.a[1] ? sl[1] + sc[0] + sf(p[2]) : 0.f) + hf(p[1]); }
