#include "m.h"
__device__ double dwave(double x) { return sin(x) + cos(x) * exp(x) + log1p(x) + cbrt(x) + pow(x, 2.5); }
__global__ void k_special(const double *in, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = dwave(in[i]) + tgamma(in[i]) + erfinv(in[i] * 0.5) + j0(in[i]) + y1(in[i] + 1) + (double)wave((float)in[i]) + rsqrt(in[i] + 2.0) + normcdf(in[i]);
}
