// calls_remote, which the host launches, calls a function no input
// defines; uses_g, never launched, holds ptxas -ewp's copy of g.
__device__ int remote(int x);
__device__ __noinline__ int g(int x) { return x * 3 + (x >> 2); }
__global__ void uses_g(int *p) { p[threadIdx.x] = g(p[threadIdx.x]); }
__global__ void calls_remote(int *p) { p[threadIdx.x] = remote(p[threadIdx.x]); }
void launch(int *p) { calls_remote<<<1, 32>>>(p); }
