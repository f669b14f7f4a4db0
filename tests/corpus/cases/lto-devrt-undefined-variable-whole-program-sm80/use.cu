#include <cstdio>

__device__ int spend(int x);

__global__ void use(int *v) {
  v[threadIdx.x] = spend(v[threadIdx.x]);
  if (threadIdx.x == 0) printf("spent %d\n", v[0]);
}
