// Kernels calling a recursive function and one with many registers, a
// barrier and double-precision constants (bank 2 on Maxwell).
__device__ __noinline__ int rec(int n) { return n <= 0 ? 1 : n * rec(n - 1) + rec(n - 2); }
__device__ __noinline__ double heavy(double *p, int n) { double s = 0; for (int i = 0; i < n; i++) s += p[i] * p[i+1] / p[i+2]; __syncthreads(); return s; }
__global__ void k_unused(double *p, int n) { p[0] = rec(n) + heavy(p, n); }
__global__ void k_used(int *p) { p[0] = 1; }
__global__ void k_plain(double *p, int n) { p[0] = heavy(p, n); }
