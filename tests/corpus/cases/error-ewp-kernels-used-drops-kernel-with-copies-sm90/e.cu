// Both kernels are launched, but -kernels-used keeps only plain: uses_g,
// which holds ptxas -ewp's copies of g and h, goes.
__device__ __noinline__ int g(int x) { return x * 3 + (x >> 2); }
__device__ __noinline__ float h(float x) { return x * x + 1.0f; }
__global__ void uses_g(int *p, float *q) { p[threadIdx.x] = g(p[threadIdx.x]); q[threadIdx.x] = h(q[threadIdx.x]); }
__global__ void plain(int *p) { p[threadIdx.x] += 1; }
void launch_both(int *p, float *q) {
  plain<<<1, 32>>>(p);
  uses_g<<<1, 32>>>(p, q);
}
