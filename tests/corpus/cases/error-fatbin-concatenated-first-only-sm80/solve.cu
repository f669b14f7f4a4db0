// the first fatbinary of sr.fatbin: solve calls relax, which only the second defines
__device__ float relax(float a, float b);
__global__ void solve(float *p, int n) { int i = threadIdx.x; if (i + 1 < n) p[i] = relax(p[i], p[i + 1]); }
