// the first object of the ld -r
__device__ float relax(float a, float b) { return 0.5f * (a + b); }
__global__ void smooth(float *p) { p[threadIdx.x] = relax(p[threadIdx.x], 0.f); }
