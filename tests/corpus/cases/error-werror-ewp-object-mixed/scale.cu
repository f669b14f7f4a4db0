__device__ float scale(float x) { return 2.5f * x; }
__global__ void scaled(float *p) { p[threadIdx.x] = scale(p[threadIdx.x]); }
