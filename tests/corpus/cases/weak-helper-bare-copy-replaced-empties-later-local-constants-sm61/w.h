#pragma once
template <typename T, int K> __device__ __noinline__ T blend(T a, T b) { T r = a; for (int q = 0; q < K; ++q) r = r * b + T(q); return r; }
template <typename T> __device__ __noinline__ T divmix(T a, T b) { return a / b + b / (a + T(1)); }
template <typename T> __device__ __noinline__ T rootmix(T a) { return sqrt(a) + T(1) / (a + T(2)); }
template <int N> __device__ __noinline__ int jt(int x) { switch (x & 7) { case 0: return N * 3 + x; case 1: return x ^ 0x55; case 2: return x * 7 + N; case 3: return x - 11;
  case 4: return x << 2; case 5: return N - x; case 6: return x * x; default: return x + 1000; } }
template <typename T> __device__ __noinline__ T nest(T a) { return divmix<T>(a, T(3)) + blend<T, 2>(a, a); }
template <typename T> __global__ void tkern(T* d) { d[threadIdx.x] = nest<T>(d[threadIdx.x]) + (T)jt<2>(threadIdx.x); }
