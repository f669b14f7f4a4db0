#pragma once
struct P { const void* a[12]; };
__device__ __noinline__ float hf(float x);
extern __device__ float gx[2];
extern __device__ float gi[2];
template <typename T> __device__ __noinline__ T tf(T a) { return a * T(1.5) + T(0.25); }
inline __device__ __noinline__ float wf(float x) { return x * x + 3.f; }
inline __device__ float wa[4] = {1, 2, 3, 4};
inline __device__ float wz[4];
inline __constant__ float wca[4] = {5, 6, 7, 8};
// Each file's own sl, sc and sf.
#define INIT {{gx, sl, sc, wa, sl + 1, wca, (const void*)hf, gi + 1, (const void*)sf, (const void*)&tf<double>, (const void*)wf, wz + 1}}
