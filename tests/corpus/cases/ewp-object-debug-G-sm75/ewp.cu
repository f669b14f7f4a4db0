// Whole-program code compiled with nvcc -c -ewp: ptxas copies g into each
// kernel that calls it ($kernel$g) and lays out shared memory itself.
#include <cstdio>

__device__ int table[8];
__constant__ int weights[4] = {3, 5, 7, 11};

__device__ __noinline__ int g(int x) { return x * weights[x & 3] + table[x & 7]; }
__device__ int h(int x) { return x + 7; }

__global__ void scatter(int *p) {
  __shared__ int s[8];
  s[threadIdx.x & 7] = g(p[threadIdx.x]);
  __syncthreads();
  p[threadIdx.x] = h(s[(threadIdx.x + 1) & 7]);
  if (threadIdx.x == 0) printf("first %d\n", p[0]);
}

__global__ void wave(float *q) {
  extern __shared__ float d[];
  d[threadIdx.x] = q[threadIdx.x];
  __syncthreads();
  q[threadIdx.x] = sinf(d[threadIdx.x ^ 1]) + g((int)q[0]);
}

__global__ void idle() {}
