// inline, template and virtual members defined in every file: HEAVY gives smooth double math (sinf, a double division)
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
