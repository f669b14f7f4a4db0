#include <cstdio>
__global__ void parent(float *p);
__global__ void other(float *p);
int main() { float *p = 0; parent<<<1, 32>>>(p); other<<<1, 32>>>(p); cudaDeviceSynchronize(); printf("ok\n"); }
