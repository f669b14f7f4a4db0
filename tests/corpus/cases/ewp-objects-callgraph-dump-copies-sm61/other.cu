#include <cstdio>
struct Acc {
  __device__ __noinline__ virtual int get(int i) const { return i * 5; }
};
__device__ __noinline__ int helper(int x) { return x ^ 0x55; }
__global__ void report(int *p) {
  Acc a;
  p[threadIdx.x] = helper(a.get(p[threadIdx.x]));
  if (threadIdx.x == 0) printf("%d\n", p[0]);
}
void launch_report(int *p) { report<<<1, 32>>>(p); }
