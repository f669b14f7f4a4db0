// kernels calling functions another file defines (g calls malloc and free, h calls nothing), one also printf
#include <cstdio>
extern __device__ int g(int x);
extern __device__ int h(int x);
__global__ void k1(int *out) { out[threadIdx.x] = g(out[0]); }
__global__ void k2(int *out) { out[threadIdx.x] = 2; }
__global__ void k3(int *out) { out[threadIdx.x] = h(out[0]); }
__global__ void k4(int *out) { out[threadIdx.x] = g(out[0]) + h(1); printf("x\n"); }
