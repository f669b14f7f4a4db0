__device__ int offset(int x) { return x + 17; }
__global__ void shifted(int *p) { p[threadIdx.x] = offset(p[threadIdx.x]); }
