#include "m.h"
__device__ float wave(float x) { return sinf(x) * cosf(x * 0.5f) + tanf(x * 0.1f) + sinpif(x) + expf(-x) + powf(x, 1.7f); }
__global__ void k_trig(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { float s, c; sincosf(in[i], &s, &c); out[i] = wave(in[i]) + s * c + erff(in[i]) + lgammaf(in[i] + 1.f) + atan2f(s, c); }
}
