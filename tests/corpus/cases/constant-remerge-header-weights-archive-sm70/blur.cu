#include "weights.h"
__global__ void blur(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 2 && i < n - 2) {
    float s = 0;
    for (int k = -2; k <= 2; ++k) s += kWeights[k + 2] * in[i + k];
    out[i] = s;
  }
}
void run_blur(const float *in, float *out, int n) { blur<<<(n + 255) / 256, 256>>>(in, out, n); }
