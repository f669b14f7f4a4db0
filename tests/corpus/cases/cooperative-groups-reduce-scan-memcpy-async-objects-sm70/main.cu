#include "grid.h"
#include <cstdio>
__global__ void coop_kernel(int*, int*, int);
int main() {
  int *d, *s; cudaMalloc(&d, 1 << 16); cudaMalloc(&s, 4);
  void* args[] = {&d, &s, nullptr};
  int n = 256; args[2] = &n;
  cudaLaunchCooperativeKernel((void*)coop_kernel, 4, 256, args);
  printf("%d\n", cudaDeviceSynchronize());
  return 0;
}
