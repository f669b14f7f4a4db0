// Whole-program code (nvcc -c -ewp) with two device functions copied into
// the kernel that calls them, __constant__ data and a parameterless kernel.
#include <cstdio>

__constant__ float ctab[5] = {1.f, 2.f, 3.f, 4.f, 5.f};
__device__ __noinline__ float f1(float x) { return x * ctab[(int)x % 5]; }
__device__ __noinline__ float f2(float x) { return f1(x) + cosf(x); }

__global__ void smooth(float *q, int n) {
  __shared__ float a[32];
  __shared__ int b[7];
  a[threadIdx.x & 31] = q[threadIdx.x];
  b[threadIdx.x % 7] = n;
  __syncthreads();
  q[threadIdx.x] = f2(a[(threadIdx.x + 3) & 31]) + f1(b[2]);
  if (n < 0) printf("%f\n", q[0]);
}
__global__ void nothing() {}
