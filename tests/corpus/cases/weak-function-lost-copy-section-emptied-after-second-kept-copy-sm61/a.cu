#include "h.h"
template <typename T> __device__ __noinline__ T g(T a, T b) { T r = a; for (int i = 0; i < 3; ++i) r = r * b + T(i); return r; }
__global__ void ka(double* q) { double x = g<double>(q[3], q[4]); q[0] = dm<double>(q[1], q[2]) + x; }
