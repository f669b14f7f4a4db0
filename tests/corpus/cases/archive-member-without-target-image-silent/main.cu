__global__ void entry(float *p) { p[threadIdx.x] *= 0.5f; }
