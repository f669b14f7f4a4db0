#pragma once
// A template kernel that two files instantiate: a weak kernel defined twice.
template <typename T>
__global__ void scaled(const T *in, T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * T(3) + in[n - 1 - i];
}
