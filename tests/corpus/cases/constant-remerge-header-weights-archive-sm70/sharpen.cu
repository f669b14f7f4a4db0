#include "weights.h"
__global__ void sharpen(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 2 && i < n - 2) out[i] = 2.0f * in[i] - kWeights[threadIdx.x % 5] * in[i - 1];
}
__global__ void sharpen_unused(float *out) { out[threadIdx.x] = kWeights[0]; }
void run_sharpen(const float *in, float *out, int n) { sharpen<<<(n + 255) / 256, 256>>>(in, out, n); }
