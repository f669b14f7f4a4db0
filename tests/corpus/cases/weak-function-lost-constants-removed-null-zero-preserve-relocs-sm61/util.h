// An inline device function with a double division (its slow path, a weak
// function with bank-2 constants under -Xptxas -O0) in a.cu and c.cu, a light
// one in b.cu; templates, a variable template and a virtual member in all.
#pragma once
inline __device__ float smooth(float x)
{
#ifdef HEAVY
    return sinf(x) / (1.0 + (double)x * x);
#else
    return x * 0.5f;
#endif
}
template <typename T> __device__ T clampv(T v, T lo, T hi) { return v < lo ? lo : (v > hi ? hi : v); }
template <typename T> __device__ T g_zero;
template <typename T> struct Accum { __device__ static T add(T a, T b) { return a + b; } };
struct Counter { int n; __device__ virtual void bump() { ++n; } };
