#include "m.h"
__global__ void k_mix(float *f, double *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { f[i] = sinf(f[i]) + wave(f[i]) + __sinf(f[i]); d[i] = sin(d[i]) + dwave(d[i]) + sinpi(d[i]); }
}
int main() { float *f; double *d; cudaMalloc(&f, 1024); cudaMalloc(&d, 2048); k_mix<<<1, 256>>>(f, d, 256); k_trig<<<1, 256>>>(f, f, 256); k_special<<<1, 256>>>(d, d, 256); return cudaDeviceSynchronize(); }
