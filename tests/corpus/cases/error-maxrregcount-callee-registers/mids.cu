#include "h.h"
__device__ __noinline__ double mid(const double *p, int n) { double s = 0, t = 1, u = 2, v = 3, w = 5; for (int i = 0; i < n; i++) { s += p[i] * t; t *= p[i + 1] + u; u -= p[i + 2] * v; v += s * t; w = w * v + u; } return s + t + u + v + w; }
__device__ __noinline__ double mid2(const double *p, int n) { double s = 0, t = 1, u = 2, v = 3; for (int i = 0; i < n; i++) { s += p[i] * t; t *= p[i + 1] + u; u -= p[i + 2] * v; v += s * t; } return s + t + u + v; }
