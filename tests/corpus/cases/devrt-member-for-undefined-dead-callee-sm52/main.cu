#include <cstdio>
__global__ void fill(int *p, int v) { p[threadIdx.x] = v; }
void launch_bump(int *p, int n);
int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  fill<<<1, 32>>>(d, 3);
  launch_bump(d, 32);
  cudaDeviceSynchronize();
  printf("done\n");
  return 0;
}
