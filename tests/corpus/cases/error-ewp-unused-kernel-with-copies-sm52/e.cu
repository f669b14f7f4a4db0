// The host launches only plain; uses_g, which ptxas -ewp gave its own
// copy of g ($uses_g$g), is removed as unused.
__device__ __noinline__ int g(int x) { return x * 3 + (x >> 2); }
__global__ void uses_g(int *p) { p[threadIdx.x] = g(p[threadIdx.x]); }
__global__ void plain(int *p) { p[threadIdx.x] += 1; }
void launch_plain(int *p) { plain<<<1, 32>>>(p); }
