#include <cstdio>
__global__ void k1(int *p) { p[0] = 1; }
__global__ void k2(int *p) { p[1] = 2; }
__global__ void k3(int *p) { p[2] = 3; }
int main() { int *p; cudaMalloc(&p, 16); k1<<<1,1>>>(p); k2<<<1,1>>>(p); return 0; }
