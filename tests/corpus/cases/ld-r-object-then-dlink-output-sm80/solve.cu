// the first object of mid.o: its device code and module id are what nvlink reads of mid.o
__device__ float relax(float a, float b);
__global__ void solve(float *p, int n) { int i = threadIdx.x; if (i + 1 < n) p[i] = relax(p[i], p[i + 1]); }
