// the second fatbinary of sr.fatbin, which nvlink never reads
__device__ float relax(float a, float b) { return 0.5f * (a + b); }
__global__ void smooth(float *p) { p[threadIdx.x] = relax(p[threadIdx.x], 0.f); }
