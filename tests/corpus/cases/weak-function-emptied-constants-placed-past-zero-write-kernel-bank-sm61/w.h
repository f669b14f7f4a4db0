#pragma once
template <typename T, int K> __device__ __noinline__ T blend(T a, T b) { T r = a; for (int q = 0; q < K; ++q) r = r * b + T(q) * T(0.5); return r; }
template <typename T> __device__ __noinline__ T poly(T x) { return ((T(1.5) * x + T(-2.25)) * x + T(1.0e-7)) * x + T(123456.789); }
