#include "blk.h"
#include <cstdio>
int main() {
  const int n = 4096;
  float* f; int* a; int* b; int* w; unsigned* k;
  cudaMalloc(&f, n * 4); cudaMalloc(&a, n * 4); cudaMalloc(&b, n * 4); cudaMalloc(&w, n * 4); cudaMalloc(&k, n * 4);
  run_sums(f, f, n); run_prefix(a, b, w, n); run_sort(k, n / 512);
  block_sums<double, 64><<<1, 64>>>((const double*)f, (double*)f, 64);
  printf("%d\n", (int)cudaDeviceSynchronize());
  return 0;
}
