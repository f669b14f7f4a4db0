#include <cstdio>
__global__ void child(int *p, int n) { if (threadIdx.x < n) p[threadIdx.x] += 1; }
__global__ void grandchild(int *p) { p[0] *= 2; }
__device__ __noinline__ void launch_more(int *p) { grandchild<<<1, 1>>>(p); }
__global__ void parent(int *p, int n) {
  if (threadIdx.x == 0) {
    child<<<1, 32>>>(p, n);
    launch_more(p);
  }
}
__global__ void unused_parent(int *p) { child<<<1, 1>>>(p, 1); }
